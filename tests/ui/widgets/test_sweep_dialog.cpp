// The Sweep dialog remembers what was typed — the parameters and values, where the sweep runs
// and the sbatch options — however it closes, Esc included (QSettings, like the export
// dialog), and refuses Slurm settings that Slurm would refuse, naming the control. The Presets
// menu's Slurm dialog shares those options and what is remembered of them.
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTest>

#include "core/train/experiment_config.h"
#include "test_settings.h"
#include "ui/widgets/cluster_options.h"
#include "ui/widgets/sweep_dialog.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

QPushButton* okButton(SweepDialog& dialog) {
  return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

}  // namespace

class TestSweepDialog : public QObject {
  Q_OBJECT
  epsilon::test::TestSettings m_settings;

 private Q_SLOTS:

  void remembersAfterEsc() {
    const train::ExperimentConfig base;
    cluster::SlurmSettings slurm;
    slurm.partition = QStringLiteral("gpu-short");
    slurm.time = QStringLiteral("00:20:00");
    slurm.cpusPerTask = 2;
    slurm.mem = QStringLiteral("1500M");
    slurm.maxParallel = 3;
    {
      SweepDialog first(base);
      QVERIFY(!first.clusterOptions()->runOnCluster());  // nothing remembered yet: here
      first.setAxis(0, QStringLiteral("clip_norm"), QStringLiteral("0.5 1 3"));
      first.setAxis(1, QStringLiteral("optimizer"), QStringLiteral("sgd, adam"));
      first.clusterOptions()->setRunOnCluster(true);
      first.clusterOptions()->setSlurm(QStringLiteral("/shared/lab/sweeps/first"),
                                       QStringLiteral("/opt/el/cli"), slurm);
      first.show();
      QTest::keyClick(&first, Qt::Key_Escape);
      QVERIFY(!first.isVisible());
    }
    SweepDialog again(base);
    const auto axes = again.axes();
    QCOMPARE(axes.size(), std::size_t{2});
    QCOMPARE(axes[0].parameter, std::string("clip_norm"));
    QCOMPARE(axes[0].values, (std::vector<std::string>{"0.5", "1", "3"}));
    QCOMPARE(axes[1].parameter, std::string("optimizer"));
    QCOMPARE(axes[1].values, (std::vector<std::string>{"sgd", "adam"}));
    QVERIFY(again.clusterOptions()->runOnCluster());
    const cluster::SlurmSettings back = again.clusterOptions()->slurmSettings();
    QCOMPARE(back.partition, slurm.partition);
    QCOMPARE(back.time, slurm.time);
    QCOMPARE(back.cpusPerTask, slurm.cpusPerTask);
    QCOMPARE(back.mem, slurm.mem);
    QCOMPARE(back.maxParallel, slurm.maxParallel);
    QCOMPARE(again.clusterOptions()->nodeCli(), QStringLiteral("/opt/el/cli"));
    // A new folder beside the last one (a folder holds one sweep).
    QCOMPARE(QFileInfo(again.clusterOptions()->jobFolder()).absolutePath(),
             QStringLiteral("/shared/lab/sweeps"));
    QVERIFY(again.clusterOptions()->jobFolder() != QStringLiteral("/shared/lab/sweeps/first"));
    QVERIFY(okButton(again)->isEnabled());
  }

  // The Presets menu's Slurm dialog is the same options, remembered for both: what the Sweep
  // dialog kept shows there (its folder named after the preset), and what is chosen there
  // shows in the next Sweep dialog.
  void presetsShareTheOptions() {
    const train::ExperimentConfig base;
    cluster::SlurmSettings slurm;
    slurm.partition = QStringLiteral("short");
    {
      SweepDialog sweep(base);
      sweep.clusterOptions()->setRunOnCluster(true);
      sweep.clusterOptions()->setSlurm(QStringLiteral("/shared/lab/sweeps/one"),
                                       QStringLiteral("/opt/el/cli"), slurm);
      sweep.reject();
    }
    {
      ClusterOptionsDialog presets(QStringLiteral("Run the preset"),
                                   QStringLiteral("report-fig4-noise"));
      const ClusterOptions* o = presets.options();
      QVERIFY(o->runOnCluster());
      QCOMPARE(o->slurmSettings().partition, QStringLiteral("short"));
      QCOMPARE(o->nodeCli(), QStringLiteral("/opt/el/cli"));
      QCOMPARE(QFileInfo(o->jobFolder()).absolutePath(), QStringLiteral("/shared/lab/sweeps"));
      QVERIFY(
          QFileInfo(o->jobFolder()).fileName().startsWith(QStringLiteral("report-fig4-noise-")));
      const auto ok = presets.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
      QVERIFY(ok->isEnabled());
      cluster::SlurmSettings other;
      other.time = QStringLiteral("soon");
      presets.options()->setSlurm(o->jobFolder(), o->nodeCli(), other);
      QVERIFY(!ok->isEnabled());  // refused as in the Sweep dialog
      other.time.clear();
      other.partition = QStringLiteral("long");
      presets.options()->setSlurm(o->jobFolder(), o->nodeCli(), other);
      presets.options()->setRunOnCluster(false);
      QCOMPARE(ok->text(), QStringLiteral("Run here"));
      presets.reject();
    }
    QVERIFY(!ClusterOptions::rememberedOnCluster());
    SweepDialog again(base);
    QVERIFY(!again.clusterOptions()->runOnCluster());
    QCOMPARE(again.clusterOptions()->slurmSettings().partition, QStringLiteral("long"));
  }

  // The Private tuning choice and its mean are remembered too; with Slurm it is refused (the
  // K runs are drawn and selected on this computer).
  void remembersThePrivateTuningAndRefusesItOnSlurm() {
    train::ExperimentConfig base;
    base.dataset.name = "xor";
    {
      SweepDialog first(base);
      first.clusterOptions()->setRunOnCluster(false);
      first.setPrivateTuning(QStringLiteral("log"), 6.0);
      first.reject();
    }
    SweepDialog again(base);
    const auto law = again.privateTuning();
    QVERIFY(law.has_value());
    QCOMPARE(law->mean, 6.0);
    QCOMPARE(law->shape, 0.0);
    again.clusterOptions()->setRunOnCluster(true);
    QString error;
    QVERIFY(again.points(&error).empty());
    QVERIFY2(error.contains(QStringLiteral("this computer only")), qPrintable(error));
    QVERIFY(!okButton(again)->isEnabled());
    again.setPrivateTuning(QString(), 6.0);
    QVERIFY(!again.privateTuning().has_value());
    again.reject();  // remembered off, for the suites after this one
  }

  void refusesWhatSlurmWouldRefuse() {
    SweepDialog dialog{train::ExperimentConfig{}};
    dialog.setAxis(0, QStringLiteral("noise_multiplier"), QStringLiteral("1 2"));
    dialog.clusterOptions()->setRunOnCluster(true);
    cluster::SlurmSettings slurm;
    slurm.time = QStringLiteral("soon");
    dialog.clusterOptions()->setSlurm(QStringLiteral("/shared/x"), QStringLiteral("/opt/el/cli"),
                                      slurm);
    QVERIFY(!okButton(dialog)->isEnabled());
    QString shown;
    for (QLabel* label : dialog.findChildren<QLabel*>()) shown += label->text();
    QVERIFY2(shown.contains(QStringLiteral("time")) && shown.contains(QStringLiteral("soon")),
             qPrintable(shown));
    slurm.time = QStringLiteral("01:00:00");
    dialog.clusterOptions()->setSlurm(QStringLiteral("/shared/with space"),
                                      QStringLiteral("/opt/el/cli"), slurm);
    QVERIFY(!okButton(dialog)->isEnabled());  // a folder that cannot go on an #SBATCH line
    dialog.clusterOptions()->setSlurm(QStringLiteral("/shared/x"), QStringLiteral("/opt/el/cli"),
                                      slurm);
    QVERIFY(okButton(dialog)->isEnabled());
    dialog.clusterOptions()->setRunOnCluster(false);  // here: the Slurm settings do not matter
    dialog.clusterOptions()->setSlurm(QString(), QString(), slurm);
    QVERIFY(okButton(dialog)->isEnabled());
  }
};

QTEST_MAIN(TestSweepDialog)
#include "test_sweep_dialog.moc"
