// No lost work (issue 27, item 6): a sweep killed after k of its n runs leaves k complete run
// files, the folder opens and says how many runs are missing, and `--resume` trains only the
// rest, to the same results as a sweep never interrupted.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "base/io/run_file.h"
#include "cli_runner.h"

using namespace epsilon;

namespace {

constexpr int kRuns = 5;

QStringList sweepArguments(const QString& config, const QString& out) {
  return {QStringLiteral("sweep"),   QStringLiteral("--config"),       config,
          QStringLiteral("--param"), QStringLiteral("seed=1,2,3,4,5"), QStringLiteral("--jobs"),
          QStringLiteral("1"),       QStringLiteral("--out"),          out};
}

QStringList runFiles(const QString& dir) {
  return QDir(dir).entryList({QStringLiteral("run-*.json")}, QDir::Files, QDir::Name);
}

// A run file without what differs between two runs of the same point: the times.
QJsonObject withoutTimes(QJsonObject run) {
  run.remove(QStringLiteral("elapsed_seconds"));
  QJsonArray history;
  for (const QJsonValue& event : run.value(QStringLiteral("history")).toArray()) {
    QJsonObject e = event.toObject();
    e.remove(QStringLiteral("elapsed_seconds"));
    history.append(e);
  }
  run.insert(QStringLiteral("history"), history);
  return run;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace

class TestCliSweepResume : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aKilledSweepResumesToTheSameResults() {
    QTemporaryDir dir;
    // Runs of 1,500 steps: long enough that the sweep can be killed between two of them.
    const QString config = test::writeCircleExperiment(dir.path(), 1500, 500);
    const QString whole = dir.filePath(QStringLiteral("whole"));
    const QString killed = dir.filePath(QStringLiteral("killed"));
    const auto uninterrupted = test::runCli(sweepArguments(config, whole) << "--quiet");
    QCOMPARE(uninterrupted.exitCode, 0);
    QCOMPARE(runFiles(whole).size(), kRuns);

    // Killed (SIGKILL: nothing can be saved at exit) once a run file has landed.
    QProcess sweep;
    sweep.start(QStringLiteral(EPSILON_CLI_PATH), sweepArguments(config, killed) << "--quiet");
    QVERIFY(sweep.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    while (runFiles(killed).isEmpty() && sweep.state() == QProcess::Running &&
           clock.elapsed() < 120000)
      QThread::msleep(5);
    sweep.kill();
    sweep.waitForFinished();
    const int kept = static_cast<int>(runFiles(killed).size());
    QVERIFY2(kept >= 1 && kept < kRuns, qPrintable(QString::number(kept)));
    // Each file left is complete, and the folder says what it lacks.
    for (const QString& name : runFiles(killed))
      QVERIFY(ui::readFinishedRun(QDir(killed).filePath(name)).has_value());
    int missing = -1;
    QCOMPARE(ui::openSessionOrRuns(killed, &missing).size(), std::size_t(kept));
    QCOMPARE(missing, kRuns - kept);

    // --resume trains only the others (a line per trained run) and ends where the whole did.
    const auto resumed = test::runCli(sweepArguments(config, killed) << "--resume");
    QCOMPARE(resumed.exitCode, 0);
    QCOMPARE(resumed.jsonLines().size(), kRuns - kept);
    QCOMPARE(runFiles(killed), runFiles(whole));
    for (const QString& name : runFiles(whole))
      QCOMPARE(withoutTimes(readJson(QDir(killed).filePath(name))),
               withoutTimes(readJson(QDir(whole).filePath(name))));
    QVERIFY(QFile::exists(QDir(killed).filePath(QStringLiteral("summary.csv"))));
  }

  void resumeNeedsTheFolder() {
    QTemporaryDir dir;
    const auto outcome =
        test::runCli({QStringLiteral("sweep"), QStringLiteral("--config"),
                      test::writeCircleExperiment(dir.path()), QStringLiteral("--param"),
                      QStringLiteral("seed=1,2"), QStringLiteral("--resume")});
    QCOMPARE(outcome.exitCode, 2);
    QVERIFY2(outcome.err.contains(QStringLiteral("--resume: needs --out")),
             qPrintable(outcome.err));
  }
};

QTEST_APPLESS_MAIN(TestCliSweepResume)
#include "test_cli_sweep_resume.moc"
