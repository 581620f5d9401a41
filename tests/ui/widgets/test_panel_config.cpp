// The Experiment panel reads back what it loaded, offscreen: a rounded or clamped control hands
// back the loaded value until the user changes it, a change touches only its own field, every
// control of a field is bound through the schema (combos listing its words), and choosing a
// data set (not loading one) applies its defaults with an Undo that restores the panel exactly.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTest>

#include "core/train/config_compare.h"
#include "core/train/experiment_schema.h"
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

  // Each combo of a choice field lists the field's choices in the schema's order, each item
  // carrying the choice's word, and choosing an item gives the config that word (through the
  // schema's accessor), whatever its label says. A combo filled by hand (say, with enum numbers)
  // or a choice missing from it fails here.
  void choiceCombosListTheSchemasWords() {
    ExperimentPanel panel;
    QStringList combos;
    for (const auto& [name, control] : panel.boundControls()) {
      const train::ExperimentField* field = train::fieldNamed(name);
      QVERIFY2(field, name);
      if (field->type != train::FieldType::Choice) continue;
      auto* combo = qobject_cast<QComboBox*>(control);
      QVERIFY2(combo, name);
      QStringList items, words;
      for (int i = 0; i < combo->count(); ++i) items << combo->itemData(i).toString();
      for (const std::string& word : field->choices()) words << QString::fromStdString(word);
      QCOMPARE(items, words);
      for (int i = 0; i < combo->count(); ++i) {
        combo->setCurrentIndex(i);
        QCOMPARE(QString::fromStdString(std::get<std::string>(field->get(panel.config()))),
                 words[i]);
      }
      combos << QString::fromLatin1(name);
    }
    combos.sort();
    QCOMPARE(combos, (QStringList{"model.preset", "optimizer.name", "privacy.accountant",
                                  "privacy.clip_policy", "privacy.noise_schedule",
                                  "privacy.privatizer", "privacy.sampling"}));
    // The panel's labels name the schema's words.
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

  // Every control of the panel that shows a field is reached through the binding table, once,
  // by a field of the schema; only the controls with rules of their own (experiment_panel.h)
  // and those of no field are bound by hand. A control added and bound by hand fails here.
  void everyFieldControlIsBoundThroughTheSchema() {
    ExperimentPanel panel;
    QSet<const QWidget*> bound;
    QSet<QString> names;
    for (const auto& [name, control] : panel.boundControls()) {
      QVERIFY2(train::fieldNamed(name), name);
      QVERIFY2(!names.contains(QString::fromLatin1(name)), name);
      QVERIFY2(!bound.contains(control), name);
      names.insert(QString::fromLatin1(name));
      bound.insert(control);
    }
    // The data set (its folder loads first, choosing one applies its defaults), the clip norm
    // (C or adaptive clipping's C₀) and σ (0 for a baseline, calibrated by "Fix ε"); "Fix ε",
    // its target and Live mode are no field.
    const QSet<const QWidget*> byHand = {panel.datasetCombo(),      panel.clipSlider(),
                                         panel.initialClipSlider(), panel.noiseSlider(),
                                         panel.targetModeBox(),     panel.targetEpsilonSlider(),
                                         panel.liveModeBox()};
    QStringList unbound;
    int controls = 0;
    for (QWidget* w : panel.findChildren<QWidget*>()) {
      if (qobject_cast<ParameterSlider*>(w->parentWidget())) continue;  // a slider's own parts
      if (!qobject_cast<QComboBox*>(w) && !qobject_cast<QAbstractSpinBox*>(w) &&
          !qobject_cast<QCheckBox*>(w) && !qobject_cast<ParameterSlider*>(w))
        continue;
      ++controls;
      if (!bound.contains(w) && !byHand.contains(w))
        unbound << QString::fromLatin1(w->metaObject()->className()) + QStringLiteral(": ") +
                       w->toolTip().left(40);
    }
    QVERIFY2(unbound.isEmpty(), qPrintable(unbound.join(QStringLiteral("; "))));
    QCOMPARE(controls, static_cast<int>(bound.size() + byHand.size()));
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
