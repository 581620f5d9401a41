// The desktop against a real Slurm (label `slurm`, run by scripts/check-slurm, which starts a
// private one-node cluster): a 4-run sweep sent through the Sweep dialog's code path
// (MainWindow::startSweepFrom) is queued in the Runs table at once, runs on the cluster, and
// its 4 runs finish on the charts as their run files land; the GUI thread never waits.
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "base/cluster/cluster_job.h"
#include "base/io/experiment_json.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/run_model.h"
#include "test_settings.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/sweep_dialog.h"

using namespace epsilon;
using namespace epsilon::ui;

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
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    train::ExperimentConfig config = ui::experimentFromJson(
        QJsonObject{{"format", "epsilonlab-experiment"},
                    {"version", 1},
                    {"dataset", QJsonObject{{"name", "circle"}, {"size", 400}}},
                    {"model", QJsonObject{{"preset", "mlp"}, {"hidden", QJsonArray{8}}}},
                    {"training", QJsonObject{{"lot_size", 32},
                                             {"steps", 20},
                                             {"eval_every_steps", 10},
                                             {"eval_every_epoch", false},
                                             {"seed", 3}}}});
    QCOMPARE(w.experimentPanel()->setConfig(config), QString());
    w.clusterSweeps()->setIntervals(500, 500);
    SweepDialog dialog(w.experimentPanel()->config());
    dialog.setAxis(0, QStringLiteral("noise_multiplier"), QStringLiteral("0.5, 1, 2, 4"));
    dialog.setRunOnCluster(true);
    cluster::SlurmSettings slurm;
    slurm.maxParallel = 2;
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    dialog.setSlurm(folder, QStringLiteral(EPSILON_CLI_PATH), slurm);

    QElapsedTimer clock;
    clock.start();
    const QList<int> ids = w.startSweepFrom(dialog);
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
};

QTEST_MAIN(TestWindowSlurm)
#include "test_window_slurm.moc"
