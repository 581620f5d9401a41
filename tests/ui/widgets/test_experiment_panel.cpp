// The Experiment panel's DP-PCA controls and secure-noise checkbox, offscreen: they are shown
// for pca-mlp only, reach the ExperimentConfig and come back from it; a k the input cannot hold
// is refused naming model.pca_dims; the privacy readout shows the PCA on its own line and its
// ε includes it; target-ε mode holds the PCA fixed and says so.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include "base/io/privacy_preview.h"
#include "core/train/run_planning.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/privacy_readout.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// uci-digits (embedded, 64 features) with pca-mlp.
void choosePcaMlp(ExperimentPanel& panel) {
  panel.datasetCombo()->setCurrentText(QStringLiteral("uci-digits"));
  panel.modelCombo()->setCurrentText(QStringLiteral("pca-mlp"));
}

// Every tooltip a slider's parts carry (label, slider and spin box share one).
bool tooltipSays(const QWidget* widget, const QString& words) {
  for (const QWidget* child : widget->findChildren<QWidget*>())
    if (child->toolTip().contains(words)) return true;
  return widget->toolTip().contains(words);
}

PrivacyPreviewInput previewInput(const ExperimentPanel& panel) {
  return {panel.config(), panel.trainSize(), panel.parameterCount()};
}

}  // namespace

class TestExperimentPanel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pcaControlsFollowTheNetwork() {
    ExperimentPanel panel;
    panel.datasetCombo()->setCurrentText(QStringLiteral("uci-digits"));
    QVERIFY(panel.config().model.preset != "pca-mlp");
    QVERIFY(panel.pcaControls()->isHidden());
    choosePcaMlp(panel);
    QCOMPARE(panel.config().model.preset, std::string("pca-mlp"));
    QVERIFY(!panel.pcaControls()->isHidden());
    // Each control says what it does; σ_pca says that the projection costs privacy.
    QVERIFY(tooltipSays(panel.pcaNoiseSlider(), QStringLiteral("costs privacy")));
    QVERIFY(tooltipSays(panel.pcaSampleSlider(), QStringLiteral("does not change ε")));
    QVERIFY(!panel.pcaDimsBox()->toolTip().isEmpty());
    choosePcaMlp(panel);
    panel.modelCombo()->setCurrentText(QStringLiteral("mlp"));
    QVERIFY(panel.pcaControls()->isHidden());
  }

  void pcaAndSecureNoiseReachTheConfigAndBack() {
    ExperimentPanel panel;
    choosePcaMlp(panel);
    panel.pcaDimsBox()->setValue(20);
    panel.pcaNoiseSlider()->setValue(9.5);
    panel.pcaSampleSlider()->setValue(0.4);
    panel.secureNoiseBox()->setChecked(true);
    train::ExperimentConfig c = panel.config();
    QCOMPARE(c.model.pcaDims, 20);
    QCOMPARE(c.model.pcaNoise, 9.5);
    QCOMPARE(c.model.pcaSampleFraction, 0.4);
    QVERIFY(c.privacy.secureNoise);
    QVERIFY(panel.secureNoiseBox()->toolTip().contains(QStringLiteral("Determinism is off")));

    // And back: a config loaded into the panel sets every control.
    c.model.pcaDims = 12;
    c.model.pcaNoise = 16.0;
    c.model.pcaSampleFraction = 1.0;
    c.privacy.secureNoise = false;
    QVERIFY(panel.setConfig(c).isEmpty());
    QCOMPARE(panel.pcaDimsBox()->value(), 12);
    QCOMPARE(panel.pcaNoiseSlider()->value(), 16.0);
    QCOMPARE(panel.pcaSampleSlider()->value(), 1.0);
    QVERIFY(!panel.secureNoiseBox()->isChecked());
    const train::ExperimentConfig back = panel.config();
    QCOMPARE(back.model.pcaDims, 12);
    QCOMPARE(back.model.pcaNoise, 16.0);
    QCOMPARE(back.model.pcaSampleFraction, 1.0);
    QVERIFY(!back.privacy.secureNoise);
    QVERIFY(panel.runName().contains(QStringLiteral("σ_pca 16")));
  }

  void tooManyDimensionsAreRefused() {
    ExperimentPanel panel;
    choosePcaMlp(panel);
    panel.pcaDimsBox()->setValue(65);  // uci-digits has 64 features
    QVERIFY2(panel.modelProblem().contains(QStringLiteral("model.pca_dims")),
             qPrintable(panel.modelProblem()));
    QVERIFY(!panel.runButton()->isEnabled());
    panel.pcaDimsBox()->setValue(16);
    QVERIFY(panel.modelProblem().isEmpty());
    QVERIFY(panel.runButton()->isEnabled());
  }

  void readoutShowsThePcaLineAndIncludesIt() {
    ExperimentPanel panel;
    choosePcaMlp(panel);
    panel.pcaNoiseSlider()->setValue(7.0);
    panel.pcaSampleSlider()->setValue(0.1);
    PrivacyReadout readout;
    readout.setInput(previewInput(panel));  // RDP, constant σ: computed at once
    QVERIFY2(readout.pcaText().startsWith(QStringLiteral("PCA: σ 7 on 10% of the data")),
             qPrintable(readout.pcaText()));
    const PrivacyPreview withPca = readout.preview();
    QVERIFY(withPca.pcaEpsilon.has_value() && *withPca.pcaEpsilon > 0);
    // The same run without the projection (mlp) spends less: the PCA is in ε.
    PrivacyPreviewInput plain = previewInput(panel);
    plain.config.model.preset = "mlp";
    const PrivacyPreview without = computePrivacyPreview(plain);
    QVERIFY(without.pcaLine.isEmpty());
    QVERIFY(withPca.epsilon > without.epsilon);
    QVERIFY(withPca.epsilon <= without.epsilon + *withPca.pcaEpsilon);
    readout.setInput({plain.config, plain.trainSize, plain.parameterCount});
    QVERIFY(readout.pcaText().isEmpty());
  }

  void targetModeHoldsThePcaFixedAndSaysSo() {
    ExperimentPanel panel;
    choosePcaMlp(panel);
    panel.pcaNoiseSlider()->setValue(7.0);
    for (QCheckBox* box : panel.findChildren<QCheckBox*>())
      if (box->text().startsWith(QStringLiteral("Fix ε"))) box->setChecked(true);
    QVERIFY(panel.targetEpsilonMode());
    panel.targetEpsilonSlider()->setValue(3.0);
    QTRY_VERIFY(!panel.isCalibrating());  // calibrated in the background
    QVERIFY2(panel.targetNote()->text().contains(QStringLiteral("held fixed")),
             qPrintable(panel.targetNote()->text()));
    QVERIFY(!panel.targetNote()->isHidden());
    const train::ExperimentConfig c = panel.config();
    QCOMPARE(c.model.pcaNoise, 7.0);  // untouched by the calibration
    const PrivacyPreview preview = computePrivacyPreview(previewInput(panel));
    QVERIFY2(preview.epsilon <= 3.0 * 1.01, qPrintable(QString::number(preview.epsilon)));
    // A target the PCA alone spends: σ stays, and the note says why.
    panel.targetEpsilonSlider()->setValue(0.2);
    QTRY_VERIFY(!panel.isCalibrating());
    QVERIFY2(panel.targetNote()->text().contains(QStringLiteral("model.pca_noise")),
             qPrintable(panel.targetNote()->text()));
  }
};

QTEST_MAIN(TestExperimentPanel)
#include "test_experiment_panel.moc"
