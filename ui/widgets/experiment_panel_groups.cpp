// The Experiment panel's groups (data, network and optimizer, privacy, training): the
// controls, their ranges, defaults and tooltips. Behaviour (what a change does) lives in
// experiment_panel.cpp.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>
#include <map>
#include <utility>

#include "base/io/number_format.h"
#include "core/data/registry.h"
#include "core/train/experiment_schema.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/parameter_slider.h"

namespace epsilon::ui {

namespace {

ParameterSlider* slider(QWidget* parent, const QString& label, double lo, double hi, bool log,
                        int decimals, double value, const QString& tip) {
  auto* s = new ParameterSlider(label, SliderScale{lo, hi, log, 1000}, decimals, parent);
  s->setValue(value);
  s->setToolTips(tip);
  return s;
}

using Labels = std::map<std::string, QString>;

// A combo of a choice field: its items come from the schema's choices (fillChoiceCombos), and
// `labels` say what it shows for the words that deserve better words of their own.
QComboBox* choiceCombo(QWidget* parent, std::map<const QComboBox*, Labels>& registry, Labels labels,
                       const QString& tip) {
  auto* c = new QComboBox(parent);
  c->setToolTip(tip);
  registry[c] = std::move(labels);
  return c;
}

}  // namespace

QWidget* ExperimentPanel::buildDataGroup() {
  auto* box = new QGroupBox(tr("Data"), this);
  auto* form = new QFormLayout(box);
  m_dataset = new QComboBox(box);
  m_dataset->setToolTip(
      tr("The data set to train on. Embedded sets need no download; 2-D sets (circle, xor, gauss, "
         "spiral) train in seconds and show their decision boundary."));
  m_datasets = data::listDatasets();
  for (const auto& info : m_datasets)
    m_dataset->addItem(QString::fromStdString(info.name), QString::fromStdString(info.name));
  auto* open = new QPushButton(tr("Open data folder…"), box);
  open->setToolTip(
      tr("Add a folder holding MNIST-format IDX files (.gz or raw) or CIFAR-10 binary batches."));
  connect(open, &QPushButton::clicked, this, &ExperimentPanel::openDataFolderRequested);
  // The button has its own row: beside the combo it set the panel's minimum width, and in
  // presentation mode that pushed the parameter values out of the dock.
  form->addRow(tr("Data set"), m_dataset);
  form->addRow(QString(), open);
  m_datasetInfo = new QLabel(box);
  m_datasetInfo->setWordWrap(true);
  m_datasetInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(m_datasetInfo);
  buildDefaultsNote(box, form);
  const int initial = m_dataset->findData(QStringLiteral("circle"));
  if (initial >= 0) m_dataset->setCurrentIndex(initial);
  return box;
}

void ExperimentPanel::buildDefaultsNote(QWidget* box, QFormLayout* form) {
  // Choosing a data set replaces the settings with its own; this says so and offers the way back.
  m_defaultsNote = new QLabel(box);
  m_defaultsNote->setObjectName(QStringLiteral("datasetDefaultsNote"));
  m_defaultsNote->setWordWrap(true);
  m_defaultsNote->setStyleSheet(QStringLiteral("color: #1a5fb4;"));
  m_undoDefaults = new QPushButton(tr("Undo: keep my settings"), box);
  m_undoDefaults->setToolTip(
      tr("Go back to the data set and every setting the panel held before the data set was "
         "chosen."));
  form->addRow(m_defaultsNote);
  form->addRow(QString(), m_undoDefaults);
  m_defaultsNote->hide();
  m_undoDefaults->hide();
}

QWidget* ExperimentPanel::buildModelGroup() {
  auto* box = new QGroupBox(tr("Network and optimizer"), this);
  auto* form = new QFormLayout(box);
  m_model = choiceCombo(
      box, m_choiceLabels, {},
      tr("The network. tfp-cnn is TensorFlow Privacy's tutorial CNN (the student report's "
         "network); "
         "tfp-cnn-tanh uses tanh, the 'tempered sigmoid' of Papernot et al. 2020; lenet5 is "
         "MindArmour's; mlp and logistic take any input."));
  form->addRow(tr("Network"), m_model);
  m_modelInfo = new QLabel(box);
  m_modelInfo->setWordWrap(true);
  form->addRow(m_modelInfo);
  using optim::OptimizerKind;
  m_optimizer =
      choiceCombo(box, m_choiceLabels,
                  {{optim::optimizerName(OptimizerKind::Sgd), tr("SGD")},
                   {optim::optimizerName(OptimizerKind::Momentum), tr("Momentum")},
                   {optim::optimizerName(OptimizerKind::Adam), tr("Adam")},
                   {optim::optimizerName(OptimizerKind::Adagrad), tr("Adagrad")},
                   {optim::optimizerName(OptimizerKind::RmsProp), tr("RMSprop")}},
                  tr("Applied to the privatized gradient: post-processing, so it costs no privacy "
                     "(Dwork & Roth 2014, Prop. 2.1)."));
  form->addRow(tr("Optimizer"), m_optimizer);
  m_lr = slider(box, tr("Learning rate η"), 1e-4, 2.0, true, 4, 0.15,
                tr("Step size η: θ ← θ − η·g̃ (Abadi et al. 2016, Alg. 1). Log scale."));
  form->addRow(m_lr);
  m_momentum = new QDoubleSpinBox(box);
  m_momentum->setRange(0.0, 0.999);
  m_momentum->setDecimals(3);
  m_momentum->setValue(0.9);
  m_momentum->setToolTip(tr("Momentum μ: v ← μ·v + g, θ ← θ − η·v (Momentum optimizer only)."));
  form->addRow(tr("Momentum μ"), m_momentum);
  form->addRow(buildPcaControls(box));
  return box;
}

QWidget* ExperimentPanel::buildPcaControls(QWidget* parent) {
  m_pcaControls = new QWidget(parent);
  auto* form = new QFormLayout(m_pcaControls);
  form->setContentsMargins(0, 0, 0, 0);
  m_pcaDims = new QSpinBox(m_pcaControls);
  m_pcaDims->setRange(1, 4096);
  m_pcaDims->setValue(60);
  m_pcaDims->setToolTip(
      tr("k: the principal directions the DP-PCA projection keeps; the network sees only these k "
         "numbers per example (Abadi et al. 2016, §5: 60 for MNIST). k does not change ε."));
  form->addRow(tr("PCA dimensions k"), m_pcaDims);
  m_pcaNoise = slider(
      m_pcaControls, tr("PCA noise σ_pca"), 0.0, 32.0, false, 2, 7.0,
      tr("σ_pca: Gaussian noise N(0, σ_pca²) on each entry of AᵀA, the covariance of unit-norm "
         "examples (sensitivity 1), before its top-k eigenvectors are taken (Abadi et al. 2016, "
         "§5). The projection is released once and costs privacy: its ε is composed with the "
         "steps' and included in every ε shown. Less σ_pca: a sharper projection, more ε. "
         "0: no noise, not private."));
  form->addRow(m_pcaNoise);
  m_pcaSample = slider(
      m_pcaControls, tr("PCA sample f"), 0.01, 1.0, false, 2, 0.1,
      tr("f: the share of the training set AᵀA is formed from (each example joins with "
         "probability f; the paper's 10%). No amplification by this sample is claimed, so f does "
         "not change ε: a larger f gives the projection more signal against the same noise."));
  form->addRow(m_pcaSample);
  m_pcaControls->setVisible(false);  // shown for pca-mlp only (refreshModel)
  return m_pcaControls;
}

QWidget* ExperimentPanel::buildPrivacyGroup() {
  auto* box = new QGroupBox(tr("Privacy"), this);
  auto* form = new QFormLayout(box);
  using privacy::PrivatizerKind;
  m_privatizer = choiceCombo(
      box, m_choiceLabels,
      {{privacy::privatizerName(PrivatizerKind::Clip), tr("L2 clipping")},
       {privacy::privatizerName(PrivatizerKind::Tanh), tr("tanh filter")},
       {privacy::privatizerName(PrivatizerKind::Adaptive), tr("adaptive clipping")},
       {privacy::privatizerName(PrivatizerKind::None), tr("none (not private)")}},
      tr("What bounds each example's influence before the noise:\n"
         "• L2 clipping: g / max(1, ‖g‖₂/C) (Abadi et al. 2016, Alg. 1)\n"
         "• tanh filter: c·tanh(g/k) element-wise (Amian); honest sensitivity c·√P\n"
         "• adaptive clipping: C moves toward a target unclipped quantile (Andrew et al. 2021)\n"
         "• none: the non-private baseline"));
  form->addRow(tr("Privatizer"), m_privatizer);
  form->addRow(buildPrivatizerPages(box));
  addNoiseRows(box, form);
  addAccountingRows(box, form);
  return box;
}

QWidget* ExperimentPanel::buildPrivatizerPages(QWidget* parent) {
  m_privatizerPages = new QStackedWidget(parent);
  auto* none = new QLabel(tr("No clipping, no noise: the non-private baseline (ε = ∞)."));
  none->setWordWrap(true);
  // Each page says which privatizer it belongs to (its word); the combo's item data picks it.
  using privacy::PrivatizerKind;
  const std::pair<QWidget*, PrivatizerKind> pages[] = {
      {buildClipPage(), PrivatizerKind::Clip},
      {buildTanhPage(), PrivatizerKind::Tanh},
      {buildAdaptivePage(), PrivatizerKind::Adaptive},
      {none, PrivatizerKind::None}};
  for (const auto& [page, kind] : pages) {
    page->setProperty("privatizer", QString::fromStdString(privacy::privatizerName(kind)));
    m_privatizerPages->addWidget(page);
  }
  return m_privatizerPages;
}

QWidget* ExperimentPanel::buildClipPage() {
  auto* page = new QWidget;
  auto* l = new QVBoxLayout(page);
  l->setContentsMargins(0, 0, 0, 0);
  m_clip = slider(page, tr("Clip norm C"), 0.01, 100.0, true, 3, 1.0,
                  tr("Each example's gradient is scaled to norm at most C: g / max(1, ‖g‖₂/C). The "
                     "noise scales "
                     "with C too: N(0, σ²C²·I) (Abadi et al. 2016, Alg. 1)."));
  m_perLayer = new QCheckBox(tr("Per layer (each layer to C/√layers)"), page);
  m_perLayer->setToolTip(
      tr("Clip each layer's gradient separately to C/√G for G layers, so the total stays ≤ C."));
  l->addWidget(m_clip);
  l->addWidget(m_perLayer);
  return page;
}

QWidget* ExperimentPanel::buildTanhPage() {
  auto* page = new QWidget;
  auto* l = new QVBoxLayout(page);
  l->setContentsMargins(0, 0, 0, 0);
  m_tanhC = slider(
      page, tr("Output range c"), 0.01, 20.0, true, 3, 1.0,
      tr("The tanh filter's output range factor c: each coordinate becomes c·tanh(g/k) ∈ (−c, c) "
         "(Amian, Alg. 1). The noise is N(0, σ²c²·I)."));
  m_tanhK = slider(
      page, tr("Active range k"), 0.01, 20.0, true, 3, 1.0,
      tr("The tanh filter's active-range factor k: gradients much smaller than k pass almost "
         "unchanged, larger ones saturate at ±c."));
  l->addWidget(m_tanhC);
  l->addWidget(m_tanhK);
  return page;
}

QWidget* ExperimentPanel::buildAdaptivePage() {
  auto* page = new QWidget;
  auto* l = new QFormLayout(page);
  l->setContentsMargins(0, 0, 0, 0);
  m_adaptiveC0 = slider(page, tr("Initial C₀"), 0.01, 100.0, true, 3, 1.0,
                        tr("The clip norm of the first step."));
  m_quantile = slider(
      page, tr("Target quantile γ"), 0.05, 0.99, false, 2, 0.5,
      tr("The fraction of examples meant to stay unclipped (Andrew et al. 2021). MindArmour's "
         "target_unclipped_quantile."));
  m_clipLr = slider(
      page, tr("Clip rate η_C"), 1e-4, 1.0, true, 4, 0.2,
      tr("How fast C moves: geometric C ← C·exp(−η_C(b̃ − γ)), linear C ← C − η_C(b̃ − γ), b̃ the "
         "noisy unclipped fraction."));
  using privacy::ClipUpdatePolicy;
  m_clipPolicy =
      choiceCombo(page, m_choiceLabels,
                  {{privacy::clipPolicyName(ClipUpdatePolicy::Geometric), tr("Geometric")},
                   {privacy::clipPolicyName(ClipUpdatePolicy::Linear), tr("Linear")}},
                  tr("The update rule of the clip norm."));
  l->addRow(m_adaptiveC0);
  l->addRow(m_quantile);
  l->addRow(m_clipLr);
  l->addRow(tr("Update"), m_clipPolicy);
  return page;
}

void ExperimentPanel::addNoiseRows(QWidget* box, QFormLayout* form) {
  m_sigma = slider(
      box, tr("Noise σ"), 0.05, 20.0, true, 3, 1.1,
      tr("The noise multiplier σ: Gaussian noise N(0, σ²S²·I) is added to the sum of privatized "
         "gradients, S the privatizer's bound (Abadi et al. 2016, Alg. 1). More σ: smaller ε, "
         "noisier "
         "training."));
  form->addRow(m_sigma);
  m_targetMode = new QCheckBox(tr("Fix ε instead and calibrate σ"), box);
  m_targetMode->setToolTip(
      tr("Target-ε mode: choose the budget; σ becomes the smallest noise multiplier whose ε "
         "stays within it (bracketing and bisection on the accountant)."));
  form->addRow(m_targetMode);
  m_targetEpsilon = slider(box, tr("Target ε"), 0.05, 50.0, true, 3, 2.0,
                           tr("The privacy budget to calibrate σ for."));
  m_targetEpsilon->setEnabled(false);
  form->addRow(m_targetEpsilon);
  m_targetNote = new QLabel(box);  // what the calibration held fixed, or why it failed
  m_targetNote->setObjectName(QStringLiteral("targetNote"));
  m_targetNote->setWordWrap(true);
  m_targetNote->setVisible(false);
  form->addRow(m_targetNote);
  connect(m_targetMode, &QCheckBox::toggled, this, [this](bool on) {
    m_targetEpsilon->setEnabled(on);
    m_sigma->setEnabled(!on);
  });
  using privacy::NoiseDecay;
  m_schedule = choiceCombo(
      box, m_choiceLabels,
      {{privacy::noiseDecayName(NoiseDecay::Constant), tr("Constant")},
       {privacy::noiseDecayName(NoiseDecay::Time), tr("Time decay")},
       {privacy::noiseDecayName(NoiseDecay::Step), tr("Step decay")},
       {privacy::noiseDecayName(NoiseDecay::Exp), tr("Exp decay")}},
      tr("MindArmour's decaying noise: Time σ_t = σ₀/(1+ρt); Step σ_t = σ₀(1−ρ)^t; Exp "
         "σ_t = σ₀e^(−ρt). Less noise later costs more privacy: the accountant composes "
         "every σ_t."));
  m_decayRate = new QDoubleSpinBox(box);
  m_decayRate->setRange(0.0, 0.5);
  m_decayRate->setDecimals(5);
  m_decayRate->setSingleStep(0.0005);
  m_decayRate->setValue(0.001);
  m_decayRate->setToolTip(tr("ρ, the decay rate of the noise schedule (per step)."));
  m_scheduleRow = new QGridLayout;
  m_scheduleRow->addWidget(m_schedule, 0, 0, 1, 2);
  m_scheduleRow->addWidget(new QLabel(tr("ρ"), box), 0, 2);
  m_scheduleRow->addWidget(m_decayRate, 0, 3);
  m_scheduleRow->setColumnStretch(0, 1);
  form->addRow(tr("Schedule"), m_scheduleRow);
}

void ExperimentPanel::addAccountingRows(QWidget* box, QFormLayout* form) {
  m_microbatch = new QSpinBox(box);
  m_microbatch->setRange(1, 256);
  m_microbatch->setToolTip(
      tr("Micro-batch size m: gradients are averaged over m examples, then privatized per "
         "micro-batch (MindArmour's micro_batches). m = 1 is per-example."));
  form->addRow(tr("Micro-batch m"), m_microbatch);
  m_delta = new QComboBox(box);
  for (int e = 3; e <= 9; ++e)
    m_delta->addItem(formatDelta(std::pow(10.0, -e)), std::pow(10.0, -e));
  m_delta->setToolTip(tr(
      "δ: the probability the ε bound may fail. Keep it well below 1/N; the default is the largest "
      "power of ten below 1/N."));
  form->addRow(tr("δ"), m_delta);
  using privacy::AccountantKind;
  m_accountant = choiceCombo(
      box, m_choiceLabels,
      {{privacy::accountantKindName(AccountantKind::Rdp), tr("RDP")},
       {privacy::accountantKindName(AccountantKind::Pld), tr("Tight (PLD)")}},
      tr("RDP: Rényi DP of the subsampled Gaussian (Mironov 2017; Mironov, Talwar & Zhang 2019), "
         "fast and standard. Tight: the privacy loss distribution composed numerically (Koskela "
         "et al. 2020), never above RDP and often below."));
  form->addRow(tr("Accountant"), m_accountant);
  m_sampling = choiceCombo(
      box, m_choiceLabels,
      {{train::samplingName(train::SamplingKind::Poisson), tr("Poisson")},
       {train::samplingName(train::SamplingKind::Shuffle), tr("Shuffled batches")}},
      tr("Poisson: each example joins a lot with probability q = L/N, as the accountants assume. "
         "Shuffled fixed-size batches are common in practice, but their ε then assumes Poisson "
         "sampling and is labelled so."));
  form->addRow(tr("Sampling"), m_sampling);
  m_secureNoise = new QCheckBox(tr("Secure noise (OS randomness, not reproducible)"), box);
  m_secureNoise->setToolTip(
      tr("Draw the gradient noise from the operating system's cryptographic generator "
         "(getrandom) instead of the seeded stream, so that no one who learns the seed can "
         "predict and subtract the noise. Determinism is off in this mode: the same seed gives a "
         "different run, and a run cannot be reproduced. Sampling and initialisation stay "
         "seeded. Off for teaching, on for real data."));
  form->addRow(m_secureNoise);
}

QWidget* ExperimentPanel::buildTrainingGroup() {
  auto* box = new QGroupBox(tr("Training"), this);
  auto* form = new QFormLayout(box);
  m_lot = slider(box, tr("Lot size L"), 1, 4096, true, 0, 256,
                 tr("Expected lot size L: the sampling rate is q = L/N (Abadi et al. 2016, §3.1). "
                    "Larger lots share "
                    "the noise among more examples but sample each example more often."));
  form->addRow(m_lot);
  m_lotInfo = new QLabel(box);
  m_lotInfo->setWordWrap(true);  // never what sets the panel's width
  form->addRow(m_lotInfo);
  m_epochs =
      slider(box, tr("Epochs"), 1, 100, false, 0, 5,
             tr("Passes over the training set: N/L lots each. More epochs, more steps, more ε."));
  form->addRow(m_epochs);
  m_seed = new QSpinBox(box);
  m_seed->setRange(0, 1000000);  // a larger seed loaded is shown at the maximum and kept
  m_seed->setToolTip(
      tr("The seed of sampling, initialisation and noise: the same seed gives the same run, bit "
         "for bit."));
  form->addRow(tr("Seed"), m_seed);
  return box;
}

}  // namespace epsilon::ui
