// The report of a reproduction sent to a cluster, and a preset's data set on the nodes, without
// Slurm: a stand-in sbatch (tests/cli/cluster/fake-sbatch) runs each array task here.
// `reproduce --slurm` passes the data set chosen here to its tasks; `reproduce --report-only`
// refuses, naming the preset and folder and saying how many, while runs are missing or failed,
// then writes the same report (same runs, same verdicts) as a local `reproduce`. `sweep
// --dataset` runs a preset on the data set given, and `sweep --slurm` of a preset passes it on.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;

const QString kPreset = QStringLiteral("report-fig6-epsilon-epochs");  // accountant: instant

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// summary.csv without its last column (seconds: how long each run took differs).
QStringList withoutSeconds(const QByteArray& csv) {
  QStringList rows;
  for (const QString& line : QString::fromUtf8(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
    rows << line.section(QLatin1Char(','), 0, -2);
  return rows;
}

QStringList verdicts(const QString& html) {
  QStringList found;
  static const QRegularExpression verdict(QStringLiteral("data-verdict=\"([^\"]+)\""));
  for (auto it = verdict.globalMatch(html); it.hasNext();) found << it.next().captured(0);
  return found;
}

}  // namespace

class TestCliClusterReport : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  QProcessEnvironment m_withSbatch;

  CliOutcome run(const QStringList& args) {
    return epsilon::test::runCliWith(m_withSbatch, args, 600000);
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    const QString bin = m_tmp.filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    QVERIFY(QFile::copy(QStringLiteral(EPSILON_SOURCE_DIR "/tests/cli/cluster/fake-sbatch"),
                        QDir(bin).filePath(QStringLiteral("sbatch"))));
    QFile::setPermissions(QDir(bin).filePath(QStringLiteral("sbatch")),
                          QFile::ReadOwner | QFile::ExeOwner);
    m_withSbatch = QProcessEnvironment::systemEnvironment();
    m_withSbatch.insert(QStringLiteral("PATH"),
                        bin + QLatin1Char(':') + m_withSbatch.value(QStringLiteral("PATH")));
  }

  void presetDataSetReachesTheNodes() {
    const QString preset =
        QStringLiteral(EPSILON_SOURCE_DIR "/tests/cli/cluster/tiny-preset.json");  // 2 runs
    const CliOutcome other = run({"sweep", "--config", preset, "--dataset", "xor", "--quiet",
                                  "--out", m_tmp.filePath("xor")});
    QVERIFY2(other.exitCode == 0, qPrintable(other.err));
    const QStringList ran = QDir(m_tmp.filePath("xor")).entryList({"run-*.json"}, QDir::Files);
    QCOMPARE(ran.size(), 2);
    const QJsonObject file =
        QJsonDocument::fromJson(readAll(QDir(m_tmp.filePath("xor")).filePath(ran[0]))).object();
    QCOMPARE(file["experiment"].toObject()["dataset"].toObject()["name"].toString(),
             QStringLiteral("xor"));

    const QString dir = m_tmp.filePath("on-slurm");
    const CliOutcome sent = run({"sweep", "--config", preset, "--slurm", "--out", dir});
    QVERIFY2(sent.exitCode == 0, qPrintable(sent.err));
    QVERIFY(QString::fromUtf8(readAll(QDir(dir).filePath("epsilonlab.sbatch")))
                .contains(QStringLiteral(" --dataset circle ")));
    QCOMPARE(QDir(dir).entryList({"run-*.json"}, QDir::Files).size(), 2);  // the tasks ran

    const CliOutcome noPreset =
        run({"sweep", "--config", epsilon::test::writeCircleExperiment(m_tmp.path()), "--param",
             "noise_multiplier=1", "--dataset", "xor"});
    QCOMPARE(noPreset.exitCode, 2);
    QVERIFY2(noPreset.err.contains("--dataset: only with a preset"), qPrintable(noPreset.err));
  }

  void reportFromTheClusterFolders() {
#ifndef EPSILON_HAVE_PLOT
    // Built without the GUI: the report's charts cannot be drawn, and it says why at once.
    const CliOutcome o = run({"reproduce", "--report-only", "--out", m_tmp.path()});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("epsilonlab-plot"), qPrintable(o.err));
#else
    const QString out = m_tmp.filePath("cluster");
    const CliOutcome sent =
        run({"reproduce", "--quick", "--only", kPreset, "--slurm", "--out", out});
    QVERIFY2(sent.exitCode == 0, qPrintable(sent.err));
    const QDir folder(QDir(out).filePath(kPreset));
    QVERIFY(QString::fromUtf8(readAll(folder.filePath("epsilonlab.sbatch")))
                .contains(QStringLiteral("--dataset mnist-10k")));
    const QStringList files = folder.entryList({"run-*.json"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 2);

    // One run missing, one failed: refused, naming the preset and folder, saying how many.
    QVERIFY(QFile::rename(folder.filePath(files[0]), m_tmp.filePath("kept.json")));
    QJsonObject failed = QJsonDocument::fromJson(readAll(folder.filePath(files[1]))).object();
    const QByteArray good = readAll(folder.filePath(files[1]));
    failed["status"] = QStringLiteral("failed");
    QFile bad(folder.filePath(files[1]));
    QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bad.write(QJsonDocument(failed).toJson());
    bad.close();
    const CliOutcome early = run({"reproduce", "--report-only", "--out", out});
    QCOMPARE(early.exitCode, 2);
    QVERIFY2(early.err.contains(QStringLiteral("(preset %1): 1 of %2 runs missing, 1 failed")
                                    .arg(kPreset)
                                    .arg(files.size())) &&
                 early.err.contains(folder.path()) && early.err.contains("cluster resubmit"),
             qPrintable(early.err));
    QVERIFY(!QFile::exists(QDir(out).filePath("index.html")));

    QVERIFY(QFile::rename(m_tmp.filePath("kept.json"), folder.filePath(files[0])));
    QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bad.write(good);
    bad.close();
    const CliOutcome report = run({"reproduce", "--report-only", "--out", out});
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const QString html = QString::fromUtf8(readAll(QDir(out).filePath("index.html")));
    QVERIFY(html.contains(QStringLiteral("on a Slurm cluster (job 4242)")));
    QVERIFY(html.contains("<b>quick</b>"));

    // The same report as the reproduction run here.
    const QString local = m_tmp.filePath("local");
    const CliOutcome here =
        run({"reproduce", "--quick", "--only", kPreset, "--quiet", "--out", local});
    QVERIFY2(here.exitCode == 0, qPrintable(here.err));
    const QString summary = QStringLiteral("runs/%1/summary.csv").arg(kPreset);
    const QStringList clusterRows = withoutSeconds(readAll(QDir(out).filePath(summary)));
    QCOMPARE(clusterRows.size(), files.size() + 1);
    QCOMPARE(clusterRows, withoutSeconds(readAll(QDir(local).filePath(summary))));
    const QString localHtml = QString::fromUtf8(readAll(QDir(local).filePath("index.html")));
    QVERIFY(!verdicts(html).isEmpty());
    QCOMPARE(verdicts(html), verdicts(localHtml));
    QVERIFY(QFile::exists(QDir(out).filePath(kPreset + ".png")));
#endif
  }

  void reportOnlyNeedsTheClusterFolders() {
#ifdef EPSILON_HAVE_PLOT  // without it the plot tool is named first (reportFromTheClusterFolders)
    const CliOutcome none = run({"reproduce", "--report-only", "--out", m_tmp.filePath("empty")});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("holds no preset's folder of `reproduce --slurm`"),
             qPrintable(none.err));
#endif
    const CliOutcome mixed =
        run({"reproduce", "--report-only", "--slurm", "--out", m_tmp.filePath("empty")});
    QCOMPARE(mixed.exitCode, 2);
    QVERIFY2(mixed.err.contains("--slurm: not with --report-only"), qPrintable(mixed.err));
  }
};

QTEST_MAIN(TestCliClusterReport)
#include "test_cli_cluster_report.moc"
