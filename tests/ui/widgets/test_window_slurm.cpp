// The desktop against a real Slurm (label `slurm`, run by scripts/check-slurm, which starts a
// private one-node cluster): a 4-run sweep sent through the Sweep dialog's code path
// (MainWindow::startSweepFrom) is queued in the Runs table at once, runs on the cluster, and
// its 4 runs finish on the charts as their run files land; the GUI thread never waits. A run
// cancelled on the cluster is still watched for and lands once resubmitted; a preset sent from
// the Presets menu's code path runs on the cluster with the data set planned here.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "base/cluster/cluster_job.h"
#include "base/io/experiment_json.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/run_model.h"
#include "test_settings.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/cluster_options.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_dialog.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A small experiment: a run trains in well under a second.
train::ExperimentConfig circleConfig() {
  return ui::experimentFromJson(
      QJsonObject{{"format", "epsilonlab-experiment"},
                  {"version", 1},
                  {"dataset", QJsonObject{{"name", "circle"}, {"size", 400}}},
                  {"model", QJsonObject{{"preset", "mlp"}, {"hidden", QJsonArray{8}}}},
                  {"training", QJsonObject{{"lot_size", 32},
                                           {"steps", 20},
                                           {"eval_every_steps", 10},
                                           {"eval_every_epoch", false},
                                           {"seed", 3}}}});
}

// The nodes' CLI, holding every task while `hold` exists (a stand-in, as in test_cli_slurm).
QString heldCli(const QString& dir, const QString& hold) {
  const QString path = QDir(dir).filePath(QStringLiteral("node-cli"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(QStringLiteral("#!/bin/sh\nwhile [ -e %1 ]; do sleep 0.2; done\nexec %2 \"$@\"\n")
                 .arg(hold, QStringLiteral(EPSILON_CLI_PATH))
                 .toUtf8());
  file.close();
  file.setPermissions(file.permissions() | QFile::ExeOwner);
  return path;
}

MainWindow::Options windowOptions() {
  MainWindow::Options options;
  options.useSettings = false;
  return options;
}

// The Sweep dialog as a user fills it: the panel's small experiment, σ over `values`, sent to
// Slurm into `folder`, `maxParallel` tasks at once; the window asks Slurm every 300 ms.
std::unique_ptr<SweepDialog> clusterSweep(MainWindow& w, const QString& values,
                                          const QString& folder, const QString& cli,
                                          int maxParallel) {
  if (!w.experimentPanel()->setConfig(circleConfig()).isEmpty()) return nullptr;
  w.clusterSweeps()->setIntervals(300, 300);
  auto dialog = std::make_unique<SweepDialog>(w.experimentPanel()->config());
  dialog->setAxis(0, QStringLiteral("noise_multiplier"), values);
  dialog->clusterOptions()->setRunOnCluster(true);
  cluster::SlurmSettings slurm;
  slurm.maxParallel = maxParallel;
  dialog->clusterOptions()->setSlurm(folder, cli, slurm);
  return dialog;
}

}  // namespace

class TestWindowSlurm : public QObject {
  Q_OBJECT
  epsilon::test::TestSettings m_settings;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY2(!qEnvironmentVariableIsEmpty("SLURM_CONF"),
             "SLURM_CONF is not set: run this suite through scripts/check-slurm, which starts "
             "a private cluster (scripts/local-slurm)");
  }

  void fourRunSweepFinishesOnTheCharts() {
    QTemporaryDir tmp;
    MainWindow w(windowOptions());
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    const auto dialog = clusterSweep(w, QStringLiteral("0.5, 1, 2, 4"), folder,
                                     QStringLiteral(EPSILON_CLI_PATH), 2);

    QElapsedTimer clock;
    clock.start();
    QVERIFY(dialog);
    const QList<int> ids = w.startSweepFrom(*dialog);
    QVERIFY2(clock.elapsed() < 200, "submitting blocked the GUI thread");  // sbatch is a job
    QCOMPARE(ids.size(), 4);
    for (int id : ids) QCOMPARE(w.runModel()->run(id)->status, RunStatus::Queued);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(cluster::recordPath(folder)), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(w.sweepRemaining(), 0, 240000);
    const auto charts = w.chartPanel()->charts();
    for (int id : ids) {
      const RunRecord* run = w.runModel()->run(id);
      QVERIFY2(run->status == RunStatus::Done,
               qPrintable(run->name + QLatin1Char(' ') + run->message));
      // Every evaluation of its landed run file (the start, steps 10 and 20) is on the charts.
      const auto evals = static_cast<int>(run->evals.size());
      QCOMPARE(evals, 3);
      QTRY_COMPARE(charts->pointCount(ChartKind::AccuracyVsEpoch, id), evals);
      // ε = 0 at the start has no place on a log-scale ε axis: the two after it at least.
      QTRY_VERIFY(charts->pointCount(ChartKind::EpsilonVsEpoch, id) >= evals - 1);
      QVERIFY(charts->pointCount(ChartKind::EpsilonVsEpoch, id) <= evals);
    }
    // More noise, less privacy spent: the runs are the sweep's points, in order.
    QVERIFY(w.runModel()->run(ids[3])->evals.back().epsilon <
            w.runModel()->run(ids[0])->evals.back().epsilon);
    QCOMPARE(cluster::landedRunFiles(folder).size(), 4);
    QTRY_VERIFY(w.clusterSweeps()->followed().isEmpty());
  }

  // The Runs table's Cancel on a pending run: scancel of its task; the Runs table shows the
  // held task's run running and the cancelled one cancelled; the other run still lands.
  void cancelledRunShowsCancelled() {
    QTemporaryDir tmp;
    const QString hold = QDir(tmp.path()).filePath(QStringLiteral("HOLD"));
    QFile holdFile(hold);
    QVERIFY(holdFile.open(QIODevice::WriteOnly));
    holdFile.close();
    MainWindow w(windowOptions());
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    const auto dialog =
        clusterSweep(w, QStringLiteral("0.5 1"), folder, heldCli(tmp.path(), hold), 1);
    QVERIFY(dialog);
    const QList<int> ids = w.startSweepFrom(*dialog);
    QCOMPARE(ids.size(), 2);
    const RunModel* runs = w.runModel();
    QTRY_COMPARE_WITH_TIMEOUT(runs->run(ids[0])->status, RunStatus::Running, 60000);
    QTRY_VERIFY(runs->run(ids[1])->message.contains(QStringLiteral("pending on the cluster")));
    QCOMPARE(runs->run(ids[1])->status, RunStatus::Queued);
    Q_EMIT w.runsView()->cancelRequested({ids[1]});
    QTRY_COMPARE_WITH_TIMEOUT(runs->run(ids[1])->status, RunStatus::Cancelled, 30000);
    QVERIFY(QFile::remove(hold));
    QTRY_COMPARE_WITH_TIMEOUT(runs->run(ids[0])->status, RunStatus::Done, 60000);
    QCOMPARE(runs->run(ids[1])->status, RunStatus::Cancelled);
    QCOMPARE(cluster::landedRunFiles(folder).size(), 1);
    // The cancelled run may still land (resubmitted): its folder is still watched, and the
    // run follows its task again, queued, then done when its file lands.
    QTest::qWait(1000);
    QCOMPARE(w.clusterSweeps()->followed(), QStringList{folder});
    QProcess resubmit;
    resubmit.start(QStringLiteral(EPSILON_CLI_PATH),
                   {QStringLiteral("cluster"), QStringLiteral("resubmit"), folder,
                    QStringLiteral("--failed")});
    QVERIFY(resubmit.waitForFinished(60000));
    QVERIFY2(resubmit.exitCode() == 0, resubmit.readAllStandardError().constData());
    QTRY_COMPARE_WITH_TIMEOUT(runs->run(ids[1])->status, RunStatus::Done, 120000);
    QVERIFY(!runs->run(ids[1])->evals.empty());
    QTRY_VERIFY(w.clusterSweeps()->followed().isEmpty());
  }

  // A preset sent to Slurm from the Presets menu's code path: queued at once, trained on the
  // cluster with the data set planned here, done on the charts.
  void presetRunsOnTheCluster() {
    QTemporaryDir tmp;
    const QString preset =
        QStringLiteral(EPSILON_SOURCE_DIR "/tests/cli/cluster/tiny-preset.json");  // 2 runs
    MainWindow w(windowOptions());
    w.clusterSweeps()->setIntervals(300, 300);
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("preset"));
    cluster::SlurmSettings slurm;
    slurm.maxParallel = 2;
    const QList<int> ids =
        w.runPresetOnCluster(preset, folder, QStringLiteral(EPSILON_CLI_PATH), slurm);
    QCOMPARE(ids.size(), 2);
    for (int id : ids) QCOMPARE(w.runModel()->run(id)->status, RunStatus::Queued);
    QTRY_COMPARE_WITH_TIMEOUT(w.sweepRemaining(), 0, 240000);
    for (int id : ids) {
      const RunRecord* run = w.runModel()->run(id);
      QVERIFY2(run->status == RunStatus::Done, qPrintable(run->message));
      QTRY_COMPARE(w.chartPanel()->charts()->pointCount(ChartKind::AccuracyVsEpoch, id),
                   static_cast<int>(run->evals.size()));
    }
    QCOMPARE(cluster::readClusterJob(folder).sweepArgs.mid(0, 4),
             (QStringList{"--preset", preset, "--dataset", "circle"}));
    QTRY_VERIFY(w.clusterSweeps()->followed().isEmpty());
  }
};

QTEST_MAIN(TestWindowSlurm)
#include "test_window_slurm.moc"
