// `sweep --slurm` and `cluster …` against a real one-node Slurm cluster (scripts/local-slurm;
// run by scripts/check-slurm, label `slurm`, out of the default run): a 3-run sweep on the
// circle data set, 2 tasks at a time, lands 3 valid run files equal to the local sweep's
// (timings and job-local run ids aside); a folder that holds a sweep is refused; a task that
// fails shows as failed with its exit code and log tail and `cluster resubmit --failed`
// completes it; one cancelled task shows as cancelled while the other finishes, and is
// resubmitted; cancelling a whole sweep cancels its running and pending tasks and nothing is
// sent to scancel once all have ended; an unknown partition and a time over the partition's limit
// give Slurm's own message, exit 2 and no folder. `reproduce --slurm` lands each preset's run
// files equal to a local `sweep --preset`'s, and `reproduce --report-only` writes its report.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "base/io/run_file.h"
#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;
using epsilon::test::runCli;

// A stand-in for the nodes' CLI (--cli): fails task 2 while FAIL exists, waits while HOLD
// exists, then runs the real CLI.
QString writeWrapper(const QString& dir) {
  const QString path = QDir(dir).filePath("node-cli");
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(QStringLiteral("#!/bin/sh\n"
                            "if [ \"$SLURM_ARRAY_TASK_ID\" = 2 ] && [ -e %1/FAIL ]; then\n"
                            "  echo 'node-cli: simulated failure of task 2' >&2; exit 3; fi\n"
                            "while [ -e %1/HOLD ]; do sleep 0.2; done\n"
                            "exec %2 \"$@\"\n")
                 .arg(dir, QStringLiteral(EPSILON_CLI_PATH))
                 .toUtf8());
  file.close();
  file.setPermissions(file.permissions() | QFile::ExeOwner);
  return path;
}

QStringList sweepArgs(const QString& config) {
  return {"sweep", "--config", config, "--param", "noise_multiplier=0.5,1,2", "--quiet"};
}

// task -> state of `cluster status DIR --json`.
QMap<int, QJsonObject> statusOf(const QString& dir) {
  const CliOutcome o = runCli({"cluster", "status", dir, "--json"}, 60000);
  QMap<int, QJsonObject> tasks;
  for (const QJsonObject& line : o.jsonLines())
    if (line.contains("task")) tasks.insert(line["task"].toInt(), line);
  return tasks;
}

// A run file without what differs between any two runs of the same point: wall-clock
// seconds, and the run ids a process gives its jobs.
QJsonValue withoutTimings(const QJsonValue& value) {
  if (value.isArray()) {
    QJsonArray out;
    for (const auto& v : value.toArray()) out.append(withoutTimings(v));
    return out;
  }
  if (!value.isObject()) return value;
  QJsonObject out;
  const QJsonObject o = value.toObject();
  for (auto it = o.begin(); it != o.end(); ++it)
    if (it.key() != QLatin1String("elapsed_seconds") && it.key() != QLatin1String("run"))
      out.insert(it.key(), withoutTimings(it.value()));
  return out;
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  f.open(QIODevice::ReadOnly);
  return QJsonDocument::fromJson(f.readAll()).object();
}

QStringList runFiles(const QString& dir) {
  return QDir(dir).entryList({"run-*.json"}, QDir::Files, QDir::Name);
}

}  // namespace

class TestCliSlurm : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  QString m_config;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("SLURM_CONF"),
             "SLURM_CONF is not set: run this suite through scripts/check-slurm, which starts "
             "a private cluster (scripts/local-slurm)");
    QVERIFY(m_tmp.isValid());
    m_config = epsilon::test::writeCircleExperiment(m_tmp.path());
  }

  // "Done when": an 8-run sweep as an array of 8 tasks, at most 2 at a time, lands 8 run files
  // identical to the local sweep's in every number and setting. Not byte for byte: a run file
  // holds its wall-clock seconds (elapsed_seconds) and the run id its process gave it (run);
  // everything else (experiment, every evaluation's accuracy, loss, ε, σ, clip norm, the losses,
  // the privacy statement) must be equal. Prints both wall times.
  void sweepLandsEveryRunFile() {
    const QString dir = m_tmp.filePath("cluster");
    const QStringList args{
        "sweep",    "--config",        m_config, "--param", "noise_multiplier=0.5,1,2,4",
        "--param2", "clip_norm=0.5,1", "--quiet"};
    QElapsedTimer clock;
    clock.start();
    CliOutcome o = runCli(args + QStringList{"--slurm", "--max-parallel", "2", "--out", dir});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QVERIFY(!o.jsonLines().value(0)["job"].toString().isEmpty());
    QCOMPARE(o.jsonLines().value(0)["tasks"].toInt(), 8);
    QFile script(dir + "/epsilonlab.sbatch");
    QVERIFY(script.open(QIODevice::ReadOnly));
    QVERIFY(script.readAll().contains("#SBATCH --array=1-8%2"));
    o = runCli({"cluster", "wait", dir, "--timeout", "400"}, 450000);
    const double clusterSeconds = clock.elapsed() / 1000.0;
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QVERIFY2(o.out.contains("tasks: 8 done"), qPrintable(o.out));
    QCOMPARE(runFiles(dir).size(), 8);

    const QString local = m_tmp.filePath("local");
    clock.restart();
    o = runCli(args + QStringList{"--jobs", "2", "--out", local}, 450000);
    const double localSeconds = clock.elapsed() / 1000.0;
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(runFiles(dir), runFiles(local));
    for (const QString& name : runFiles(dir)) {
      const auto record = epsilon::ui::readRunFile(QDir(dir).filePath(name));  // valid
      QCOMPARE(record.status, epsilon::ui::readRunFile(QDir(local).filePath(name)).status);
      QVERIFY(!record.evals.empty());
      QCOMPARE(withoutTimings(readJson(QDir(dir).filePath(name))),
               withoutTimings(readJson(QDir(local).filePath(name))));
    }
    qInfo(
        "8-run sweep: Slurm array (2 at a time, submit to last run file) %.1f s; "
        "the same sweep here with --jobs 2: %.1f s",
        clusterSeconds, localSeconds);
    // One sweep per folder: submitting into it again is refused, naming the job.
    o = runCli(sweepArgs(m_config) + QStringList{"--slurm", "--out", dir});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("already holds the sweep of Slurm job"), qPrintable(o.err));
  }

  void failedTaskIsShownAndResubmitted() {
    const QString dir = m_tmp.filePath("failing");
    const QString wrapper = writeWrapper(m_tmp.path());
    QFile(m_tmp.filePath("FAIL")).open(QIODevice::WriteOnly);
    CliOutcome o =
        runCli(sweepArgs(m_config) + QStringList{"--slurm", "--cli", wrapper, "--out", dir});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    o = runCli({"cluster", "wait", dir, "--timeout", "240"}, 300000);
    QCOMPARE(o.exitCode, 1);
    auto tasks = statusOf(dir);
    QCOMPARE(tasks.size(), 3);
    QCOMPARE(tasks[1]["state"].toString(), QStringLiteral("done"));
    QCOMPARE(tasks[3]["state"].toString(), QStringLiteral("done"));
    QCOMPARE(tasks[2]["state"].toString(), QStringLiteral("failed"));
    QVERIFY2(tasks[2]["detail"].toString().contains("exit code 3:0"),
             qPrintable(tasks[2]["detail"].toString()));
    QVERIFY2(tasks[2]["log_tail"].toString().contains("simulated failure of task 2"),
             qPrintable(tasks[2]["log_tail"].toString()));
    QCOMPARE(runFiles(dir).size(), 2);

    QFile::remove(m_tmp.filePath("FAIL"));
    o = runCli({"cluster", "resubmit", dir, "--failed"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(o.jsonLines().value(0)["tasks"].toString(), QStringLiteral("2"));
    o = runCli({"cluster", "wait", dir, "--timeout", "240"}, 300000);
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QCOMPARE(runFiles(dir).size(), 3);
  }

  void cancelledTaskIsShownAndResubmitted() {
    const QString dir = m_tmp.filePath("cancelled");
    const QString wrapper = writeWrapper(m_tmp.path());
    QFile(m_tmp.filePath("HOLD")).open(QIODevice::WriteOnly);
    CliOutcome o = runCli({"sweep", "--config", m_config, "--param", "noise_multiplier=0.5,1",
                           "--quiet", "--slurm", "--cli", wrapper, "--out", dir});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QElapsedTimer clock;
    clock.start();
    while (statusOf(dir).value(1)["state"].toString() != QLatin1String("running")) {
      QVERIFY2(clock.elapsed() < 60000, "task 1 did not start within a minute");
      QThread::msleep(300);
    }
    o = runCli({"cluster", "cancel", dir, "--task", "1"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    clock.restart();
    while (statusOf(dir).value(1)["state"].toString() != QLatin1String("cancelled")) {
      QVERIFY2(clock.elapsed() < 30000, "task 1 was not cancelled within 30 s");
      QThread::msleep(300);
    }
    QFile::remove(m_tmp.filePath("HOLD"));
    o = runCli({"cluster", "wait", dir, "--timeout", "240"}, 300000);
    QCOMPARE(o.exitCode, 1);  // task 1 cancelled, task 2 done
    auto tasks = statusOf(dir);
    QCOMPARE(tasks[1]["state"].toString(), QStringLiteral("cancelled"));
    QCOMPARE(tasks[2]["state"].toString(), QStringLiteral("done"));
    QCOMPARE(runFiles(dir).size(), 1);
    o = runCli({"cluster", "resubmit", dir, "--failed"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    o = runCli({"cluster", "wait", dir, "--timeout", "240"}, 300000);
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QCOMPARE(runFiles(dir).size(), 2);
    // Nothing is left to cancel: no finished job is sent to scancel.
    o = runCli({"cluster", "cancel", dir});
    QCOMPARE(o.exitCode, 0);
    QCOMPARE(o.jsonLines().value(0)["cancelled"].toString(), QString());
  }

  // `reproduce --slurm` sends each preset as its own array (the same submission as sweep's)
  // into DIR/PRESET; its run files are those of `sweep --preset` run here.
  void reproduceSendsEachPreset() {
    const QString out = m_tmp.filePath("reproduce");
    const QString preset = "report-fig6-epsilon-epochs";  // accountant only: quick
    CliOutcome o = runCli(
        {"reproduce", "--out", out, "--quick", "--only", preset, "--slurm", "--max-parallel", "2"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QJsonObject line = o.jsonLines().value(0);
    const QString dir = QDir(out).filePath(preset);
    QCOMPARE(line["folder"].toString(), dir);
    QVERIFY(line["runs"].toInt() > 1);
    o = runCli({"cluster", "wait", dir, "--timeout", "240"}, 300000);
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QString local = m_tmp.filePath("reproduce-local");
    o = runCli({"sweep", "--preset", preset, "--quick", "--quiet", "--out", local});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(runFiles(dir).size(), line["runs"].toInt());
    QCOMPARE(runFiles(dir), runFiles(local));
    for (const QString& name : runFiles(dir))
      QCOMPARE(withoutTimings(readJson(QDir(dir).filePath(name))),
               withoutTimings(readJson(QDir(local).filePath(name))));
#ifdef EPSILON_HAVE_PLOT
    // The report from the folders the cluster filled (`--quick` is the submission's).
    o = runCli({"reproduce", "--report-only", "--out", out});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QFile html(QDir(out).filePath("index.html"));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(html.readAll());
    QVERIFY(page.contains("on a Slurm cluster (job " + line["job"].toString() + ")"));
    QVERIFY(page.contains("<section id=\"preset-" + preset + "\">"));
#endif
    // Not with --jobs (the tasks take --cpus-per-task): refused before anything is made.
    o = runCli(
        {"reproduce", "--out", m_tmp.filePath("r2"), "--only", preset, "--slurm", "--jobs", "2"});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("--jobs: not with --slurm"), qPrintable(o.err));
    QVERIFY(!QFileInfo::exists(m_tmp.filePath("r2")));
  }

  void wholeSweepIsCancelled() {
    const QString dir = m_tmp.filePath("cancel-all");
    const QString wrapper = writeWrapper(m_tmp.path());
    QFile(m_tmp.filePath("HOLD")).open(QIODevice::WriteOnly);
    CliOutcome o = runCli(sweepArgs(m_config) + QStringList{"--slurm", "--max-parallel", "1",
                                                            "--cli", wrapper, "--out", dir});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QString job = o.jsonLines().value(0)["job"].toString();
    QElapsedTimer clock;
    clock.start();
    while (statusOf(dir).value(1)["state"].toString() != QLatin1String("running")) {
      QVERIFY2(clock.elapsed() < 60000, "task 1 did not start within a minute");
      QThread::msleep(300);
    }
    QCOMPARE(statusOf(dir).value(3)["state"].toString(), QStringLiteral("pending"));
    o = runCli({"cluster", "cancel", dir});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(o.jsonLines().value(0)["cancelled"].toString(), job);
    o = runCli({"cluster", "wait", dir, "--timeout", "60"}, 120000);
    QFile::remove(m_tmp.filePath("HOLD"));
    QCOMPARE(o.exitCode, 1);
    QVERIFY2(o.out.contains("tasks: 3 cancelled"), qPrintable(o.out));
    QCOMPARE(runFiles(dir).size(), 0);
  }

  void rejectedSubmissionLeavesNothing_data() {
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("slurmSays");
    QTest::newRow("unknown partition")
        << QStringList{"--partition", "nosuch"} << QStringLiteral("invalid partition");
    QTest::newRow("time over the limit")
        << QStringList{"--time", "02:00:00"} << QStringLiteral("Requested time limit is invalid");
  }

  void rejectedSubmissionLeavesNothing() {
    QFETCH(QStringList, flags);
    QFETCH(QString, slurmSays);
    const QString dir = m_tmp.filePath("rejected");
    const CliOutcome o = runCli(sweepArgs(m_config) + flags + QStringList{"--slurm", "--out", dir});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(
        o.err.contains("sbatch refused the job") && o.err.contains(slurmSays, Qt::CaseInsensitive),
        qPrintable(o.err));
    QVERIFY2(!QFileInfo::exists(dir), "the refused submission left its folder behind");
  }
};

QTEST_GUILESS_MAIN(TestCliSlurm)
#include "test_cli_slurm.moc"
