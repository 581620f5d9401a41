// Where a submitted sweep's tasks stand: squeue and scontrol output (as Slurm 22.05 prints it)
// read into per-task states, pending ranges expanded; Slurm's words combined with the run
// files that landed (a COMPLETED task whose files are missing is failed, a forgotten task
// whose files all landed is done); the job record written and read back, its errors naming
// the file and key; landed run files seen once each, temporary files never; log tails.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "base/cluster/cluster_job.h"
#include "base/cluster/slurm_state.h"
#include "core/common/errors.h"

using namespace epsilon::cluster;

namespace {

// `scontrol show job 4` of a 4-task array at most 1 at a time: task 1 running, 2-4 pending.
const char* kScontrolPending =
    R"(JobId=4 ArrayJobId=4 ArrayTaskId=2-4%1 ArrayTaskThrottle=1 JobName=wrap
   UserId=root(0) GroupId=root(0) MCS_label=N/A
   JobState=PENDING Reason=JobArrayTaskLimit Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
   Command=/data/my sweeps/epsilonlab.sbatch
   StdOut=/tmp/eslurm-dev/p-%a.log

JobId=5 ArrayJobId=4 ArrayTaskId=1 ArrayTaskThrottle=1 JobName=wrap
   JobState=RUNNING Reason=None Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
)";

// A finished array: task 2 exited with status 3, task 3 was cancelled.
const char* kScontrolDone = R"(JobId=1 ArrayJobId=1 ArrayTaskId=3 ArrayTaskThrottle=2 JobName=wrap
   JobState=CANCELLED Reason=None Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:15


JobId=3 ArrayJobId=1 ArrayTaskId=2 ArrayTaskThrottle=2 JobName=wrap
   JobState=FAILED Reason=NonZeroExitCode Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0

JobId=2 ArrayJobId=1 ArrayTaskId=1 ArrayTaskThrottle=2 JobName=wrap
   JobState=COMPLETED Reason=None Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
)";

ClusterJob exampleJob(const QString& dir) {
  ClusterJob job;
  job.dir = dir;
  job.tasks = 3;
  job.runs = 5;
  job.jobIds = {QStringLiteral("1"), QStringLiteral("9")};
  job.taskJob = {QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("9")};
  job.settings.partition = QStringLiteral("debug");
  job.settings.maxParallel = 2;
  job.settings.sbatchArgs = {QStringLiteral("--account=lab")};
  job.cli = QStringLiteral("/usr/bin/epsilonlab-cli");
  job.sweepArgs = {QStringLiteral("--preset"), QStringLiteral("x")};
  job.submitted = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
  return job;
}

void touch(const QString& path, const QByteArray& bytes = "{}") {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

class TestClusterState : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void squeueLines() {
    const auto tasks =
        parseSqueue(QStringLiteral("4|2|PENDING|JobArrayTaskLimit\n4|1|RUNNING|None\nsqueue: "
                                   "warning: x\n4|N/A|RUNNING|None\n"));
    QCOMPARE(tasks.size(), 2);
    QCOMPARE(tasks[0].jobId, QStringLiteral("4"));
    QCOMPARE(tasks[0].task, 2);
    QCOMPARE(tasks[0].state, QStringLiteral("PENDING"));
    QCOMPARE(tasks[0].reason, QStringLiteral("JobArrayTaskLimit"));
    QCOMPARE(tasks[1].task, 1);
    QCOMPARE(stateOfSlurmWord(tasks[1].state), TaskState::Running);
  }

  void scontrolRecordsExpandPendingRanges() {
    const auto tasks = parseScontrol(QLatin1String(kScontrolPending));
    QCOMPARE(tasks.size(), 4);
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(tasks[i].task, i + 2);
      QCOMPARE(tasks[i].jobId, QStringLiteral("4"));
      QCOMPARE(stateOfSlurmWord(tasks[i].state), TaskState::Pending);
    }
    QCOMPARE(tasks[3].task, 1);
    QCOMPARE(tasks[3].state, QStringLiteral("RUNNING"));
    const auto done = parseScontrol(QLatin1String(kScontrolDone));
    QCOMPARE(done.size(), 3);
    QCOMPARE(done[1].exitCode, QStringLiteral("3:0"));
    QCOMPARE(stateOfSlurmWord(done[0].state), TaskState::Cancelled);
    QCOMPARE(stateOfSlurmWord(done[1].state), TaskState::Failed);
    QCOMPARE(stateOfSlurmWord(done[2].state), TaskState::Done);
    // Steps and comma lists: "1,3,7-9" and "4-8:2".
    const auto odd =
        parseScontrol(QStringLiteral("JobId=7 ArrayJobId=7 ArrayTaskId=1,3,7-9 JobState=PENDING\n\n"
                                     "JobId=8 ArrayJobId=8 ArrayTaskId=4-8:2 JobState=PENDING\n"
                                     "JobId=9 JobState=RUNNING\n"));
    QList<int> ids;
    for (const auto& t : odd) ids << t.task;
    QCOMPARE(ids, (QList<int>{1, 3, 7, 8, 9, 4, 6, 8}));
  }

  void slurmWords() {
    QCOMPARE(stateOfSlurmWord(QStringLiteral("COMPLETING")), TaskState::Running);
    QCOMPARE(stateOfSlurmWord(QStringLiteral("CONFIGURING")), TaskState::Pending);
    QCOMPARE(stateOfSlurmWord(QStringLiteral("TIMEOUT")), TaskState::Failed);
    QCOMPARE(stateOfSlurmWord(QStringLiteral("OUT_OF_MEMORY")), TaskState::Failed);
    QCOMPARE(stateOfSlurmWord(QStringLiteral("CANCELLED by 0")), TaskState::Cancelled);
    QCOMPARE(stateOfSlurmWord(QString()), TaskState::Unknown);
  }

  void runsPerTask() {
    const ClusterJob job = exampleJob(QStringLiteral("/x"));
    QCOMPARE(job.runsOfTask(1), 2);  // indices 0, 3
    QCOMPARE(job.runsOfTask(2), 2);  // 1, 4
    QCOMPARE(job.runsOfTask(3), 1);  // 2
    QCOMPARE(job.runsOfTask(4), 0);
    QCOMPARE(job.logPath(3), QStringLiteral("/x/logs/task-3-9.log"));
  }

  void statesCombineSlurmAndFiles() {
    const ClusterJob job = exampleJob(QStringLiteral("/x"));
    QList<SlurmTask> slurm{{"1", 1, "COMPLETED", "None", "0:0"},
                           {"1", 2, "COMPLETED", "None", "0:0"},
                           {"1", 3, "FAILED", "NonZeroExitCode", "3:0"}};  // task 3 moved to 9
    QMap<int, QString> landed{{0, "a"}, {3, "b"}, {1, "c"}, {7, "stray"}};
    auto s = taskStatuses(job, slurm, landed);
    QCOMPARE(s.size(), 3);
    QCOMPARE(s[0].state, TaskState::Done);
    QCOMPARE(s[0].landed, 2);
    QCOMPARE(s[1].state, TaskState::Failed);  // COMPLETED but run 4 is missing
    QVERIFY2(s[1].detail.contains(QStringLiteral("1 of its 2 run files are missing")),
             qPrintable(s[1].detail));
    QCOMPARE(s[2].jobId, QStringLiteral("9"));
    QCOMPARE(s[2].state, TaskState::Unknown);  // job 9 not listed, run 2 missing
    landed.insert(2, "d");
    s = taskStatuses(job, slurm, landed);
    QCOMPARE(s[2].state, TaskState::Done);
    slurm.append({"9", 3, "RUNNING", "None", ""});
    QCOMPARE(taskStatuses(job, slurm, landed)[2].state, TaskState::Running);
  }

  void recordRoundTrip() {
    QTemporaryDir dir;
    const ClusterJob job = exampleJob(dir.path());
    writeClusterJob(job);
    const ClusterJob back = readClusterJob(dir.path());
    QCOMPARE(back.dir, dir.path());
    QCOMPARE(back.tasks, 3);
    QCOMPARE(back.runs, 5);
    QCOMPARE(back.jobIds, job.jobIds);
    QCOMPARE(back.taskJob, job.taskJob);
    QCOMPARE(back.settings.partition, QStringLiteral("debug"));
    QCOMPARE(back.settings.maxParallel, std::optional<int>(2));
    QCOMPARE(back.settings.cpusPerTask, std::optional<int>());
    QCOMPARE(back.settings.sbatchArgs, job.settings.sbatchArgs);
    QCOMPARE(back.cli, job.cli);
    QCOMPARE(back.sweepArgs, job.sweepArgs);
    QCOMPARE(back.submitted, job.submitted);
  }

  void recordErrorsNameFileAndKey() {
    QTemporaryDir dir;
    try {
      readClusterJob(dir.path());
      QFAIL("read a folder without a record");
    } catch (const epsilon::ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("not the folder of a sweep")),
               e.what());
    }
    writeClusterJob(exampleJob(dir.path()));
    QFile file(recordPath(dir.path()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray good = file.readAll();
    file.close();
    QJsonObject json = QJsonDocument::fromJson(good).object();
    json["task_jobs"] = QJsonArray{"1", "1", "12"};
    touch(recordPath(dir.path()), QJsonDocument(json).toJson());
    try {
      readClusterJob(dir.path());
      QFAIL("accepted a task on an unknown job");
    } catch (const epsilon::ConfigError& e) {
      const QString m = QString::fromUtf8(e.what());
      QVERIFY2(m.contains(QLatin1String(kJobRecordName)) && m.contains(QStringLiteral("task_jobs")),
               e.what());
    }
    touch(recordPath(dir.path()), QByteArray(good).replace("\"tasks\": 3", "\"tasks\": 0"));
    QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, readClusterJob(dir.path()));
  }

  void landedRunsAreSeenOnce() {
    QTemporaryDir dir;
    LandedRuns follower(dir.path());
    QVERIFY(follower.poll().isEmpty());
    touch(dir.filePath(QStringLiteral("run-00-noise_multiplier=0.5.json")));
    touch(dir.filePath(QStringLiteral("run-01-x.json.Ab12Cd")));  // QSaveFile's temporary file
    touch(dir.filePath(QStringLiteral("summary.csv")));
    auto fresh = follower.poll();
    QCOMPARE(fresh.keys(), QList<int>{0});
    QVERIFY(follower.poll().isEmpty());
    touch(dir.filePath(QStringLiteral("run-11-y.json")));
    fresh = follower.poll();
    QCOMPARE(fresh.keys(), QList<int>{11});
    QCOMPARE(fresh[11], dir.filePath(QStringLiteral("run-11-y.json")));
    QCOMPARE(landedRunFiles(dir.path()).size(), 2);
  }

  void logTails() {
    QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("task.log"));
    QCOMPARE(logTail(log), QString());
    QByteArray text;
    for (int i = 1; i <= 30; ++i) text += "line " + QByteArray::number(i) + "\n";
    touch(log, text);
    QCOMPARE(logTail(log, 3), QStringLiteral("line 28\nline 29\nline 30"));
  }
};

QTEST_APPLESS_MAIN(TestClusterState)
#include "test_cluster_state.moc"
