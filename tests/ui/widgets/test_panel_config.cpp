// The Experiment panel reads back what it loaded, offscreen: a rounded or clamped control hands
// back the loaded value until the user changes it, a change touches only its own field, combo
// items carry their enum, and choosing a data set (not loading one) applies its defaults with an
// Undo that restores the panel exactly.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include "core/train/config_compare.h"
#include "core/train/teaching_defaults.h"
#include "spin_box_widths.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/parameter_slider.h"

using namespace epsilon;
using namespace epsilon::ui;
using train::ExperimentConfig;

namespace {

// After pending layout requests (a font or layout change) have been handled.
int minimumWidth(QWidget& w) {
  QCoreApplication::processEvents();
  return w.minimumSizeHint().width();
}

// The failure message: which fields differ.
QString diff(const ExperimentConfig& a, const ExperimentConfig& b) {
  return QStringLiteral("differing: ") + QString::fromStdString(train::describeDifferences(a, b));
}

void choose(QComboBox* combo, const QString& text) {
  const int i = combo->findText(text);
  QVERIFY2(i >= 0, qPrintable(text));
  combo->setCurrentIndex(i);
}

}  // namespace

class TestPanelConfig : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundedAndClampedValuesComeBackUnchanged() {
    ExperimentPanel panel;
    ExperimentConfig c = panel.config();
    c.privacy.noise.initial = 1.0737;       // the σ box shows 1.074
    c.optimizer.learningRate = 0.00012345;  // η box: 0.0001
    c.optimizer.options.momentum = 0.95555;
    c.privacy.privatizer.clipNorm = 250.0;  // above the C slider's 100
    c.training.lotSize = 5000;              // above the lot slider's 4096
    c.training.epochs = 1.5;                // the epochs box shows whole epochs
    c.training.seed = 5000000000ULL;        // beyond the seed box's range
    c.privacy.delta = 3e-6;                 // not in the δ list: added
    QVERIFY(panel.setConfig(c).isEmpty());
    QCOMPARE(panel.noiseSlider()->spinBox()->value(), 1.074);
    const ExperimentConfig back = panel.config();
    QVERIFY2(back == c, qPrintable(diff(back, c)));
  }

  void aChangeTouchesOnlyItsField() {
    ExperimentPanel panel;
    ExperimentConfig c = panel.config();
    c.privacy.noise.initial = 1.0737;
    c.optimizer.lrDecay = optim::LearningRateDecay::Exponential;
    c.training.evalEverySteps = 7;
    QVERIFY(panel.setConfig(c).isEmpty());
    panel.noiseSlider()->spinBox()->setValue(2.5);  // the user types σ
    ExperimentConfig back = panel.config();
    QCOMPARE(train::differingFields(back, c), std::vector<std::string>{"privacy.noise_multiplier"});
    QCOMPARE(back.privacy.noise.initial, 2.5);
    // Moving the slider is a change too, and lands on a slider position's value.
    panel.learningRateSlider()->slider()->setValue(panel.learningRateSlider()->slider()->value() +
                                                   10);
    back = panel.config();
    QCOMPARE(train::differingFields(back, c),
             (std::vector<std::string>{"privacy.noise_multiplier", "optimizer.learning_rate"}));
    QCOMPARE(back.optimizer.learningRate, panel.learningRateSlider()->value());
  }

  void combosCarryTheirEnum() {
    ExperimentPanel panel;
    // Whatever the order of the items, each one gives the value its data names.
    for (int i = 0; i < panel.optimizerCombo()->count(); ++i) {
      panel.optimizerCombo()->setCurrentIndex(i);
      const auto kind =
          static_cast<optim::OptimizerKind>(panel.optimizerCombo()->itemData(i).toInt());
      QCOMPARE(panel.config().optimizer.options.kind, kind);
    }
    choose(panel.optimizerCombo(), QStringLiteral("Adam"));
    QCOMPARE(panel.config().optimizer.options.kind, optim::OptimizerKind::Adam);
    choose(panel.privatizerCombo(), QStringLiteral("tanh filter"));
    QCOMPARE(panel.config().privacy.privatizer.kind, privacy::PrivatizerKind::Tanh);
    choose(panel.scheduleCombo(), QStringLiteral("Exp decay"));
    QCOMPARE(panel.config().privacy.noise.decay, privacy::NoiseDecay::Exp);
    choose(panel.samplingCombo(), QStringLiteral("Shuffled batches"));
    QCOMPARE(panel.config().privacy.sampling, train::SamplingKind::Shuffle);
    choose(panel.accountantCombo(), QStringLiteral("Tight (PLD)"));
    QCOMPARE(panel.config().privacy.accountant, privacy::AccountantKind::Pld);
    choose(panel.modelCombo(), QStringLiteral("logistic"));
    QCOMPARE(panel.config().model.preset, std::string("logistic"));
    // Loading selects by value: every privatizer shows its own page.
    ExperimentConfig c = panel.config();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::Adaptive;
    QVERIFY(panel.setConfig(c).isEmpty());
    QCOMPARE(panel.privatizerCombo()->currentText(), QStringLiteral("adaptive clipping"));
  }

  void aBaselineChosenHereHasNoNoise() {
    ExperimentPanel panel;
    choose(panel.privatizerCombo(), QStringLiteral("none (not private)"));
    QCOMPARE(panel.config().privacy.noise.initial, 0.0);
    // A loaded baseline keeps the σ it was saved with (lossless), shown nowhere.
    ExperimentConfig c = panel.config();
    c.privacy.noise.initial = 1.1;
    QVERIFY(panel.setConfig(c).isEmpty());
    QCOMPARE(panel.config().privacy.noise.initial, 1.1);
  }

  void choosingADatasetAppliesItsDefaultsWithUndo() {
    ExperimentPanel panel;
    panel.noiseSlider()->spinBox()->setValue(2.5);
    choose(panel.optimizerCombo(), QStringLiteral("Adam"));
    const ExperimentConfig mine = panel.config();
    QVERIFY(panel.defaultsNote()->isHidden());
    choose(panel.datasetCombo(), QStringLiteral("xor"));
    const ExperimentConfig defaults = train::defaultConfigFor("xor");
    QVERIFY2(panel.config() == defaults, qPrintable(diff(panel.config(), defaults)));
    QVERIFY(!panel.defaultsNote()->isHidden());
    QVERIFY2(panel.defaultsNote()->text().contains(QStringLiteral("lot 16")),
             qPrintable(panel.defaultsNote()->text()));
    QVERIFY(!panel.undoDefaultsButton()->isHidden());
    panel.undoDefaultsButton()->click();
    QVERIFY2(panel.config() == mine, qPrintable(diff(panel.config(), mine)));
    QCOMPARE(panel.datasetCombo()->currentText(), QStringLiteral("circle"));
    QVERIFY(panel.defaultsNote()->isHidden());
    QVERIFY(panel.undoDefaultsButton()->isHidden());
  }

  void anImageSetOpensWithACnn() {
    ExperimentPanel panel;
    choose(panel.datasetCombo(), QStringLiteral("mnist-10k"));
    const ExperimentConfig c = panel.config();
    QCOMPARE(c.model.preset, std::string("tfp-cnn"));
    QCOMPARE(c.training.lotSize, 256);
    QVERIFY(c.privacy.delta < 1.0 / static_cast<double>(panel.trainSize()));
  }

  void loadingNeverAppliesDefaults() {
    ExperimentPanel panel;
    ExperimentConfig c = train::defaultConfigFor("xor");
    c.training.lotSize = 99;
    c.optimizer.learningRate = 0.0421;
    c.training.paceSeconds = 0.0;
    QVERIFY(panel.setConfig(c).isEmpty());
    QVERIFY2(panel.config() == c, qPrintable(diff(panel.config(), c)));
    QVERIFY(panel.defaultsNote()->isHidden());
  }

  void compactLayoutIsNarrowAndShowsEveryValue() {
    // Presentation mode's font: the compact panel fits a dock of 30% of a 1280-pixel window
    // (the scroll bar and frame included), where the one-line layout needs far more.
    ExperimentPanel panel;
    QFont font = panel.font();
    font.setPointSize(14);
    panel.setFont(font);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const int wide = minimumWidth(panel);
    panel.setCompactLayout(true);
    const int narrow = minimumWidth(panel);
    qInfo("panel minimum width at 14 pt: %d px one-line, %d px compact", wide, narrow);
    QVERIFY2(narrow <= 1280 * 3 / 10 - 30, qPrintable(QString::number(narrow)));
    QVERIFY(narrow < wide);
    // Laid out at that width, no value is cut: every spin box gets the width its text needs.
    panel.resize(narrow, panel.sizeHint().height());
    QCoreApplication::processEvents();
    int checked = 0;
    const QString cut = cutSpinBox(&panel, checked);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    QVERIFY(checked >= 5);
    // And back: the one-line layout returns, with the full check-box texts.
    panel.setCompactLayout(false);
    QCOMPARE(minimumWidth(panel), wide);
  }
};

QTEST_MAIN(TestPanelConfig)
#include "test_panel_config.moc"
