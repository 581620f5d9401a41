// The desktop's follower of sweeps on a Slurm cluster, without Slurm: a session records each
// waiting run's job folder (and older sessions still open), a session opened later picks the
// job up again, and run files landing in the folder fill their runs' curves, once each.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "base/cluster/cluster_job.h"
#include "base/io/run_file.h"
#include "base/io/session_file.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/run_model.h"

using namespace epsilon::ui;

namespace {

const QString kLanded = QStringLiteral(EPSILON_SOURCE_DIR "/tests/base/io/data/cli-sweep/");
const QStringList kRunFiles{QStringLiteral("run-00-noise_multiplier=0.5.json"),
                            QStringLiteral("run-01-noise_multiplier=2.json")};

// A run file lands as the cluster's tasks write it: under another name first, then renamed.
void land(const QString& dir, int index) {
  const QString part = QDir(dir).filePath(QStringLiteral(".landing.part"));
  QVERIFY(QFile::copy(kLanded + kRunFiles[index], part));
  QVERIFY(QFile::rename(part, QDir(dir).filePath(kRunFiles[index])));
}

RunRecord waitingRun(int id, const QString& dir, int index) {
  RunRecord run;
  run.id = id;
  run.name = QStringLiteral("point %1").arg(index);
  run.status = RunStatus::Running;
  run.cluster = ClusterPlace{dir, index};
  return run;
}

// A job folder as `sweep --slurm` leaves it (its record), of a job Slurm no longer knows.
void writeJobFolder(const QString& dir) {
  epsilon::cluster::ClusterJob job;
  job.dir = dir;
  job.tasks = 2;
  job.runs = 2;
  job.jobIds = {QStringLiteral("999999")};
  job.taskJob = {QStringLiteral("999999"), QStringLiteral("999999")};
  job.cli = QStringLiteral("/usr/bin/epsilonlab-cli");
  job.sweepArgs = {QStringLiteral("--param"), QStringLiteral("noise_multiplier=0.5,2")};
  epsilon::cluster::writeClusterJob(job);
}

}  // namespace

class TestClusterSweeps : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sessionRecordsTheJobFolder() {
    RunRecord here = waitingRun(1, {}, 0);
    here.cluster.reset();  // trained here
    const std::vector<RunRecord> runs{here, waitingRun(2, QStringLiteral("/data/sweep-7"), 5)};
    const QJsonObject json = sessionToJson(runs);
    QVERIFY(!json["runs"].toArray()[0].toObject().contains(QStringLiteral("cluster")));
    const auto back = sessionFromJson(json, QStringLiteral("s.json"));
    QCOMPARE(back.size(), std::size_t{2});
    // A run trained here cannot resume; one on a cluster goes on without this process.
    QCOMPARE(back[0].status, RunStatus::Cancelled);
    QVERIFY(!back[0].cluster);
    QCOMPARE(back[1].status, RunStatus::Queued);
    QVERIFY(back[1].cluster);
    QCOMPARE(back[1].cluster->folder, QStringLiteral("/data/sweep-7"));
    QCOMPARE(back[1].cluster->index, 5);
    // A bad record names its key, and the file is refused as a whole.
    QJsonObject bad = json;
    QJsonArray array = bad["runs"].toArray();
    QJsonObject run = array[1].toObject();
    run[QStringLiteral("cluster")] = QJsonObject{{"folder", "/x"}, {"index", -1}};
    array[1] = run;
    bad[QStringLiteral("runs")] = array;
    try {
      sessionFromJson(bad, QStringLiteral("s.json"));
      QFAIL("a negative index was accepted");
    } catch (const SessionError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("runs[1].cluster.index")),
               e.what());
    }
  }

  void openedSessionPicksTheJobUp() {
    QTemporaryDir tmp;
    const QString dir = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    QVERIFY(QDir().mkpath(dir));
    writeJobFolder(dir);
    const QString file = QDir(tmp.path()).filePath(QStringLiteral("s.json"));
    saveSession(file, {waitingRun(1, dir, 0), waitingRun(2, dir, 1)});
    land(dir, 0);  // landed while the app was closed

    RunModel model;
    for (RunRecord& r : loadSession(file)) model.addRun(std::move(r));
    ClusterSweeps sweeps(&model);
    sweeps.setIntervals(100, 0);  // no Slurm here: the folder only
    sweeps.follow();
    QCOMPARE(sweeps.followed(), QStringList{dir});
    const RunRecord expected0 = readRunFile(kLanded + kRunFiles[0]);
    QVERIFY(!expected0.evals.empty());
    QTRY_COMPARE(model.run(1)->status, RunStatus::Done);
    QCOMPARE(model.run(1)->evals.size(), expected0.evals.size());
    QCOMPARE(model.run(1)->evals.back().epsilon, expected0.evals.back().epsilon);
    QCOMPARE(model.run(1)->name, QStringLiteral("point 0"));  // the session's name is kept
    QCOMPARE(model.run(2)->status, RunStatus::Queued);
    QVERIFY(model.run(2)->evals.empty());

    land(dir, 1);  // lands while followed
    QTRY_COMPARE(model.run(2)->status, RunStatus::Done);
    QCOMPARE(model.run(2)->evals.size(), readRunFile(kLanded + kRunFiles[1]).evals.size());
    QCOMPARE(model.run(1)->evals.size(), expected0.evals.size());  // filled once
    QTRY_VERIFY(sweeps.followed().isEmpty());                      // nothing left to wait for
  }

  // Slurm may call a task completed before a network file system shows its run file here (the
  // run then shows failed), and a failed or cancelled task may be resubmitted (`cluster
  // resubmit --failed`): a file that lands is the truth, so the folder is watched, even with no
  // run waiting in Slurm's sense, until each run's file was read.
  void aLateFileOverrulesAFailure() {
    QTemporaryDir tmp;
    const QString dir = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    QVERIFY(QDir().mkpath(dir));
    RunModel model;
    model.addRun(waitingRun(1, dir, 0));
    model.addRun(waitingRun(2, dir, 1));
    ClusterSweeps sweeps(&model);
    sweeps.setIntervals(50, 0);
    sweeps.follow();
    model.setStatus(1, RunStatus::Failed, QStringLiteral("failed on the cluster (COMPLETED)"));
    model.setStatus(2, RunStatus::Cancelled, QStringLiteral("cancelled on the cluster"));
    QTest::qWait(200);  // several polls with nothing pending or running
    QCOMPARE(sweeps.followed(), QStringList{dir});
    land(dir, 0);
    QTRY_COMPARE(model.run(1)->status, RunStatus::Done);
    QVERIFY(!model.run(1)->evals.empty());
    QCOMPARE(model.run(2)->status, RunStatus::Cancelled);  // its file has not landed
    QCOMPARE(sweeps.followed(), QStringList{dir});         // it may still land
    land(dir, 1);
    QTRY_COMPARE(model.run(2)->status, RunStatus::Done);
    QVERIFY(!model.run(2)->evals.empty());
    QTRY_VERIFY(sweeps.followed().isEmpty());  // nothing more can land
  }

  // Runs taken out of the model expect nothing: their folder is let go at once.
  void removedRunsLetTheFolderGo() {
    QTemporaryDir tmp;
    RunModel model;
    model.addRun(waitingRun(1, tmp.path(), 0));
    ClusterSweeps sweeps(&model);
    sweeps.setIntervals(50, 0);
    sweeps.follow();
    model.setStatus(1, RunStatus::Failed, QStringLiteral("failed on the cluster"));
    QTest::qWait(120);
    QCOMPARE(sweeps.followed(), QStringList{tmp.path()});
    model.takeRun(1);
    QTRY_VERIFY(sweeps.followed().isEmpty());
  }

  // A preset's tasks run it by name on the data set planned here, with no config copy.
  void presetTasksNameTheirDataSet() {
    ClusterSweepRequest request;
    request.preset = QStringLiteral("report-fig4-noise");
    request.dataset = QStringLiteral("mnist-10k");
    request.folder = QStringLiteral("/shared/sweep");
    request.settings.cpusPerTask = 3;
    QCOMPARE(clusterSweepArgs(request), (QStringList{"--preset", "report-fig4-noise", "--dataset",
                                                     "mnist-10k", "--jobs", "3"}));
    request.preset.clear();  // the Sweep dialog's: the config copy and the axes
    request.axes = {{"noise_multiplier", {"1", "2"}}};
    QCOMPARE(clusterSweepArgs(request),
             (QStringList{"--config", "/shared/sweep/epsilonlab-sweep.config", "--param",
                          "noise_multiplier=1,2", "--jobs", "3"}));
  }

  void finishedRunsAreNotFollowed() {
    RunModel model;
    RunRecord done = waitingRun(1, QStringLiteral("/nonexistent/sweep"), 0);
    done.status = RunStatus::Done;
    model.addRun(done);
    ClusterSweeps sweeps(&model);
    sweeps.setIntervals(100, 0);
    sweeps.follow();
    QVERIFY(sweeps.followed().isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestClusterSweeps)
#include "test_cluster_sweeps.moc"
