// Validation at the controls: a lot larger than the training set is shown at the lot-size
// control in plain words, Run is disabled and a run cannot start; a valid lot clears it.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTest>

#include "base/session/run_model.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"

using namespace epsilon;
using namespace epsilon::ui;

class TestPanelChecks : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void lotLargerThanTheDataIsRefused() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    ExperimentPanel* panel = w.experimentPanel();
    QComboBox* data = panel->datasetCombo();
    data->setCurrentIndex(data->findText(QStringLiteral("xor")));
    const long long n = panel->trainSize();
    QVERIFY(n > 0);
    train::ExperimentConfig config = panel->config();
    config.training.lotSize = static_cast<int>(n + 200);
    QCOMPARE(panel->setConfig(config), QString());
    panel->noiseSlider()->spinBox()->setValue(1.5);  // any change re-checks
    auto* issues = panel->findChild<QLabel*>(QStringLiteral("configIssues"));
    QVERIFY(issues);
    QVERIFY(panel->config().training.lotSize > n);  // the control holds the impossible value
    QVERIFY(!issues->isHidden());
    QVERIFY2(issues->text().contains(QString::number(panel->config().training.lotSize)),
             qPrintable(issues->text()));
    QVERIFY(!panel->runButton()->isEnabled());
    QCOMPARE(w.startRun(), 0);
    QCOMPARE(w.runModel()->rowCount(), 0);

    config.training.lotSize = 16;
    QCOMPARE(panel->setConfig(config), QString());
    panel->noiseSlider()->spinBox()->setValue(1.0);
    QVERIFY(panel->runButton()->isEnabled());
  }
};

QTEST_MAIN(TestPanelChecks)
#include "test_panel_checks.moc"
