// The window's side of sweeps on a Slurm cluster, without Slurm: a session saved while its job
// ran is opened and followed again (its run files landing fill the Runs table and the charts),
// and a sweep sent from a machine that is not a Slurm submit host is refused with Slurm's
// reason, its queued runs taken out again and nothing left in the job folder. A preset sent
// to Slurm from the Presets menu (its tasks run here by a stand-in sbatch,
// tests/cli/cluster/fake-sbatch) passes the data set planned here to the nodes, shows its runs
// queued, and they fill the charts as their files land, with the curves of the same preset
// trained here.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/session_file.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/run_model.h"
#include "test_settings.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/cluster_options.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/sweep_dialog.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

const QString kLanded = QStringLiteral(EPSILON_SOURCE_DIR "/tests/base/io/data/cli-sweep/");

MainWindow::Options testOptions() {
  MainWindow::Options o;
  o.useSettings = false;
  return o;
}

}  // namespace

class TestWindowCluster : public QObject {
  Q_OBJECT
  epsilon::test::TestSettings m_settings;

 private Q_SLOTS:
  void openedSessionFollowsItsJob() {
    QTemporaryDir tmp;
    const QString dir = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    QVERIFY(QDir().mkpath(dir));
    RunRecord waiting;
    waiting.id = 7;
    waiting.name = QStringLiteral("σ = 0.5 on the cluster");
    waiting.status = RunStatus::Running;
    waiting.cluster = ClusterPlace{dir, 0};
    const QString session = QDir(tmp.path()).filePath(QStringLiteral("s.json"));
    saveSession(session, {waiting});

    MainWindow w(testOptions());
    w.clusterSweeps()->setIntervals(100, 0);  // no Slurm here: the folder only
    QCOMPARE(w.openSessionFrom(session), QString());
    QCOMPARE(w.runModel()->run(7)->status, RunStatus::Queued);
    QCOMPARE(w.clusterSweeps()->followed(), QStringList{dir});
    const QString name = QStringLiteral("run-00-noise_multiplier=0.5.json");
    QVERIFY(QFile::copy(kLanded + name, QDir(dir).filePath(QStringLiteral(".part"))));
    QVERIFY(QFile::rename(QDir(dir).filePath(QStringLiteral(".part")), QDir(dir).filePath(name)));
    QTRY_COMPARE(w.runModel()->run(7)->status, RunStatus::Done);
    const int evals = static_cast<int>(w.runModel()->run(7)->evals.size());
    QVERIFY(evals > 1);
    QTRY_COMPARE(w.chartPanel()->charts()->pointCount(ChartKind::AccuracyVsEpoch, 7), evals);
    QTRY_VERIFY(w.clusterSweeps()->followed().isEmpty());
  }

  void notASubmitHostIsRefused() {
    QTemporaryDir tmp;
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(tmp.path()));  // no sbatch here
    MainWindow w(testOptions());
    SweepDialog dialog(w.experimentPanel()->config());
    dialog.setAxis(0, QStringLiteral("noise_multiplier"), QStringLiteral("1 2"));
    dialog.clusterOptions()->setRunOnCluster(true);
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("sweep"));
    dialog.clusterOptions()->setSlurm(folder, QStringLiteral("/opt/el/epsilonlab-cli"), {});
    const QList<int> ids = w.startSweepFrom(dialog);
    QCOMPARE(ids.size(), 2);
    QTRY_VERIFY(w.runModel()->run(ids[0]) == nullptr);
    qputenv("PATH", path);
    QVERIFY(w.runModel()->run(ids[1]) == nullptr);
    QVERIFY2(w.lastError().contains(QStringLiteral("not a Slurm submit host")),
             qPrintable(w.lastError()));
    QVERIFY(!QFileInfo::exists(folder));
    QCOMPARE(w.sweepRemaining(), 0);
  }

  // Presets › Run presets on › Slurm cluster… is the Sweep dialog's remembered choice.
  void presetsMenuSaysWhereTheyRun() {
    MainWindow w(testOptions());
    auto* slurm = w.findChild<QAction*>(QStringLiteral("presetsOnSlurm"));
    QVERIFY(slurm);
    QVERIFY(!ClusterOptions::rememberedOnCluster());
    slurm->setChecked(true);
    QVERIFY(ClusterOptions::rememberedOnCluster());
    {
      SweepDialog dialog(w.experimentPanel()->config());
      QVERIFY(dialog.clusterOptions()->runOnCluster());
      dialog.clusterOptions()->setRunOnCluster(false);
      dialog.reject();
    }
    QVERIFY(!ClusterOptions::rememberedOnCluster());
  }

  void aPresetOnSlurmTrainsLikeHere() {
    QTemporaryDir tmp;
    const QString bin = QDir(tmp.path()).filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    const QString sbatch = QDir(bin).filePath(QStringLiteral("sbatch"));
    QVERIFY(
        QFile::copy(QStringLiteral(EPSILON_SOURCE_DIR "/tests/cli/cluster/fake-sbatch"), sbatch));
    QFile::setPermissions(sbatch, QFile::ReadOwner | QFile::ExeOwner);
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(bin) + ':' + path);
    const QString preset =
        QStringLiteral(EPSILON_SOURCE_DIR "/tests/cli/cluster/tiny-preset.json");  // 2 runs
    MainWindow w(testOptions());
    w.clusterSweeps()->setIntervals(100, 0);  // no Slurm to ask: the folder only
    const QString folder = QDir(tmp.path()).filePath(QStringLiteral("preset-job"));
    const QList<int> ids =
        w.runPresetOnCluster(preset, folder, QStringLiteral(EPSILON_CLI_PATH), {});
    QCOMPARE(ids.size(), 2);
    QCOMPARE(w.runModel()->run(ids[0])->status, RunStatus::Queued);  // at once
    QVERIFY(w.runModel()->run(ids[0])->cluster);
    for (int id : ids)
      QTRY_COMPARE_WITH_TIMEOUT(w.runModel()->run(id)->status, RunStatus::Done, 120000);
    qputenv("PATH", path);
    QFile script(QDir(folder).filePath(QStringLiteral("epsilonlab.sbatch")));
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(script.readAll());
    QVERIFY2(text.contains(QStringLiteral(" sweep --preset %1 --dataset circle ").arg(preset)),
             qPrintable(text));
    QVERIFY(!QFileInfo::exists(QDir(folder).filePath(QStringLiteral("epsilonlab-sweep.config"))));
    for (int id : ids) {
      const int evals = static_cast<int>(w.runModel()->run(id)->evals.size());
      QVERIFY(evals > 1);
      QTRY_COMPARE(w.chartPanel()->charts()->pointCount(ChartKind::AccuracyVsEpoch, id), evals);
    }

    // The same preset trained here draws the same curves, number for number.
    const QList<int> here = w.runPreset(preset);
    QCOMPARE(here.size(), 2);
    for (int i = 0; i < 2; ++i) {
      QTRY_COMPARE_WITH_TIMEOUT(w.runModel()->run(here[i])->status, RunStatus::Done, 60000);
      const RunRecord& local = *w.runModel()->run(here[i]);
      const RunRecord& cluster = *w.runModel()->run(ids[i]);
      QCOMPARE(cluster.config.dataset.name, local.config.dataset.name);
      QCOMPARE(cluster.evals.size(), local.evals.size());
      QCOMPARE(cluster.evals.back().testAccuracy, local.evals.back().testAccuracy);
      QCOMPARE(cluster.evals.back().epsilon, local.evals.back().epsilon);
    }
  }
};

QTEST_MAIN(TestWindowCluster)
#include "test_window_cluster.moc"
