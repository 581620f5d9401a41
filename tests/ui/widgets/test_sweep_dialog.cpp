// The Sweep dialog remembers what was typed — the parameters and values, where the sweep runs
// and the sbatch options — however it closes, Esc included (QSettings, like the export
// dialog), and refuses Slurm settings that Slurm would refuse, naming the control.
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTest>

#include "core/train/experiment_config.h"
#include "test_settings.h"
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
      QVERIFY(!first.runOnCluster());  // nothing remembered yet: here
      first.setAxis(0, QStringLiteral("clip_norm"), QStringLiteral("0.5 1 3"));
      first.setAxis(1, QStringLiteral("optimizer"), QStringLiteral("sgd, adam"));
      first.setRunOnCluster(true);
      first.setSlurm(QStringLiteral("/shared/lab/sweeps/first"), QStringLiteral("/opt/el/cli"),
                     slurm);
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
    QVERIFY(again.runOnCluster());
    const cluster::SlurmSettings back = again.slurmSettings();
    QCOMPARE(back.partition, slurm.partition);
    QCOMPARE(back.time, slurm.time);
    QCOMPARE(back.cpusPerTask, slurm.cpusPerTask);
    QCOMPARE(back.mem, slurm.mem);
    QCOMPARE(back.maxParallel, slurm.maxParallel);
    QCOMPARE(again.nodeCli(), QStringLiteral("/opt/el/cli"));
    // A new folder beside the last one (a folder holds one sweep).
    QCOMPARE(QFileInfo(again.jobFolder()).absolutePath(), QStringLiteral("/shared/lab/sweeps"));
    QVERIFY(again.jobFolder() != QStringLiteral("/shared/lab/sweeps/first"));
    QVERIFY(okButton(again)->isEnabled());
  }

  // The Private tuning choice and its mean are remembered too; with Slurm it is refused (the
  // K runs are drawn and selected on this computer).
  void remembersThePrivateTuningAndRefusesItOnSlurm() {
    train::ExperimentConfig base;
    base.dataset.name = "xor";
    {
      SweepDialog first(base);
      first.setRunOnCluster(false);
      first.setPrivateTuning(QStringLiteral("log"), 6.0);
      first.reject();
    }
    SweepDialog again(base);
    const auto law = again.privateTuning();
    QVERIFY(law.has_value());
    QCOMPARE(law->mean, 6.0);
    QCOMPARE(law->shape, 0.0);
    again.setRunOnCluster(true);
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
    dialog.setRunOnCluster(true);
    cluster::SlurmSettings slurm;
    slurm.time = QStringLiteral("soon");
    dialog.setSlurm(QStringLiteral("/shared/x"), QStringLiteral("/opt/el/cli"), slurm);
    QVERIFY(!okButton(dialog)->isEnabled());
    QString shown;
    for (QLabel* label : dialog.findChildren<QLabel*>()) shown += label->text();
    QVERIFY2(shown.contains(QStringLiteral("time")) && shown.contains(QStringLiteral("soon")),
             qPrintable(shown));
    slurm.time = QStringLiteral("01:00:00");
    dialog.setSlurm(QStringLiteral("/shared/with space"), QStringLiteral("/opt/el/cli"), slurm);
    QVERIFY(!okButton(dialog)->isEnabled());  // a folder that cannot go on an #SBATCH line
    dialog.setSlurm(QStringLiteral("/shared/x"), QStringLiteral("/opt/el/cli"), slurm);
    QVERIFY(okButton(dialog)->isEnabled());
    dialog.setRunOnCluster(false);  // here: the Slurm settings do not matter
    dialog.setSlurm(QString(), QString(), slurm);
    QVERIFY(okButton(dialog)->isEnabled());
  }
};

QTEST_MAIN(TestSweepDialog)
#include "test_sweep_dialog.moc"
