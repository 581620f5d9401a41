// Bad input to `sweep --slurm` and `cluster`, no Slurm needed: without sbatch on PATH the
// submission says this is not a Slurm submit host, exit 2, and leaves no folder; Slurm flags
// without --slurm, --slurm without --out or with --shard, bad settings, a folder that is not
// empty or holds another sweep, a folder that is no sweep, an unknown action: each exit 2
// with a message naming the flag, folder or action.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;
using epsilon::test::runCli;

}  // namespace

class TestCliClusterErrors : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  QString m_config;
  QString m_emptyPath;

  // The CLI run with PATH an empty folder: no Slurm tools.
  CliOutcome runWithPath(const QStringList& arguments, const QString& path) const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), path);
    return epsilon::test::runCliWith(env, arguments, 60000);
  }

  QStringList sweep(const QStringList& more) const {
    return QStringList{"sweep", "--config", m_config, "--param", "noise_multiplier=0.5,1"} + more;
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_config = epsilon::test::writeCircleExperiment(m_tmp.path());
    m_emptyPath = m_tmp.filePath("no-tools");
    QVERIFY(QDir().mkpath(m_emptyPath));
  }

  void notASubmitHost() {
    const QString dir = m_tmp.filePath("new-sweep");
    const CliOutcome o = runWithPath(sweep({"--slurm", "--out", dir}), m_emptyPath);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("sbatch not found on PATH: this is not a Slurm submit host"),
             qPrintable(o.err));
    QVERIFY(!QFileInfo::exists(dir));
  }

  void badUse_data() {
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("message");
    QTest::newRow("partition without --slurm")
        << QStringList{"--partition", "gpu", "--out", "x"} << "--partition: only with --slurm";
    QTest::newRow("no --out") << QStringList{"--slurm"} << "--out: required with --slurm";
    QTest::newRow("shard") << QStringList{"--slurm", "--out", "x", "--shard", "1/2"}
                           << "--shard: not with --slurm";
    QTest::newRow("time") << QStringList{"--slurm", "--out", "x", "--time", "1 hour"}
                          << "--time: expected a time limit";
    QTest::newRow("mem") << QStringList{"--slurm", "--out", "x", "--mem", "lots"}
                         << "--mem: expected a size";
    QTest::newRow("max-parallel") << QStringList{"--slurm", "--out", "x", "--max-parallel", "0"}
                                  << "--max-parallel: expected an integer in [1, 100000]";
    QTest::newRow("tasks") << QStringList{"--slurm", "--out", "x", "--tasks", "3"}
                           << "--tasks: expected at most the sweep's 2 runs";
    QTest::newRow("folder with a space")
        << QStringList{"--slurm", "--out", "/tmp/a b"} << "--out: expected a folder path";
  }

  void badUse() {
    QFETCH(QStringList, flags);
    QFETCH(QString, message);
    const CliOutcome o = runWithPath(sweep(flags), m_emptyPath);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(message), qPrintable(o.err));
  }

  void folderMustBeNew() {
    const QString dir = m_tmp.filePath("busy");
    QVERIFY(QDir().mkpath(dir));
    QFile(dir + "/notes.txt").open(QIODevice::WriteOnly);
    CliOutcome o = runWithPath(sweep({"--slurm", "--out", dir}), m_emptyPath);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("is not empty") && o.err.contains("notes.txt"), qPrintable(o.err));
    QVERIFY(QFile::exists(dir + "/notes.txt"));
    // A folder holding another sweep's record is named with its job.
    QFile record(dir + "/epsilonlab-job.slurm");
    QVERIFY(record.open(QIODevice::WriteOnly));
    record.write(R"({"format": "epsilonlab-slurm-job", "version": 1, "tasks": 1, "runs": 1,
      "jobs": ["41"], "task_jobs": ["41"], "settings": {}, "cli": "/c",
      "sweep": ["--preset", "other"], "submitted": ""})");
    record.close();
    o = runWithPath(sweep({"--slurm", "--out", dir}), m_emptyPath);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("already holds the sweep of Slurm job 41 (sweep --preset other)"),
             qPrintable(o.err));
    // Following it without Slurm's tools says so.
    o = runWithPath({"cluster", "status", dir}, m_emptyPath);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("scontrol not found on PATH"), qPrintable(o.err));
  }

  void clusterErrors() {
    CliOutcome o = runCli({"cluster", "status", m_tmp.path()});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("not the folder of a sweep submitted to Slurm"), qPrintable(o.err));
    o = runCli({"cluster", "frob", m_tmp.path()});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("unknown action 'frob'"), qPrintable(o.err));
    o = runCli({"cluster", "status"});
    QCOMPARE(o.exitCode, 2);
    o = runCli({"cluster", "status", m_tmp.filePath("nowhere")});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("no such folder"), qPrintable(o.err));
  }
};

QTEST_GUILESS_MAIN(TestCliClusterErrors)
#include "test_cli_cluster_errors.moc"
