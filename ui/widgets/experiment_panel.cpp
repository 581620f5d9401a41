#include "ui/widgets/experiment_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <cmath>

#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/nn/model.h"
#include "core/privacy/calibration.h"
#include "ui/io/number_format.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/privacy_preview.h"

namespace epsilon::ui {

namespace {

ParameterSlider* slider(QWidget* parent, const QString& label, double lo, double hi, bool log, int decimals,
                        double value, const QString& tip) {
  auto* s = new ParameterSlider(label, SliderScale{lo, hi, log, 1000}, decimals, parent);
  s->setValue(value);
  s->setToolTips(tip);
  return s;
}

QComboBox* combo(QWidget* parent, const QStringList& items, const QString& tip) {
  auto* c = new QComboBox(parent);
  c->addItems(items);
  c->setToolTip(tip);
  return c;
}

QString shapeText(const data::SampleShape& s) {
  return s.isImage ? QStringLiteral("%1×%2×%3").arg(s.channels).arg(s.height).arg(s.width)
                   : QObject::tr("%1 features").arg(s.featureCount());
}

const QStringList kPrivatizerIds{QStringLiteral("clip"), QStringLiteral("tanh"), QStringLiteral("adaptive"),
                                 QStringLiteral("none")};
const QStringList kOptimizerIds{QStringLiteral("sgd"), QStringLiteral("momentum"), QStringLiteral("adam"),
                                QStringLiteral("adagrad"), QStringLiteral("rmsprop")};
const QStringList kScheduleIds{QStringLiteral("constant"), QStringLiteral("time"), QStringLiteral("step"),
                               QStringLiteral("exp")};

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(buildDataGroup());
  layout->addWidget(buildModelGroup());
  layout->addWidget(buildPrivacyGroup());
  layout->addWidget(buildTrainingGroup());

  auto* buttons = new QHBoxLayout;
  m_live = new QCheckBox(tr("Live mode"), this);
  m_live->setToolTip(tr("Live mode: releasing a slider starts a new run after a short pause and cancels the previous "
                        "live run, so the curves answer every move. Off: start runs with Run (Ctrl+R)."));
  m_run = new QPushButton(tr("Run"), this);
  m_run->setToolTip(tr("Train this experiment as a new run (Ctrl+R). Several runs can train at once."));
  m_run->setDefault(true);
  buttons->addWidget(m_live);
  buttons->addStretch(1);
  buttons->addWidget(m_run);
  layout->addLayout(buttons);
  layout->addStretch(1);

  connect(m_run, &QPushButton::clicked, this, &ExperimentPanel::runRequested);
  connect(m_live, &QCheckBox::toggled, this, &ExperimentPanel::liveModeChanged);

  // Every control reports changes the same way: configChanged while moving, configCommitted when final.
  for (ParameterSlider* s : findChildren<ParameterSlider*>()) {
    connect(s, &ParameterSlider::valueChanged, this, &ExperimentPanel::onChanged);
    connect(s, &ParameterSlider::valueCommitted, this, &ExperimentPanel::onCommitted);
  }
  for (QComboBox* c : findChildren<QComboBox*>()) {
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      onChanged();
      onCommitted();
    });
  }
  for (QAbstractSpinBox* s : findChildren<QAbstractSpinBox*>()) {
    if (qobject_cast<ParameterSlider*>(s->parentWidget())) continue;  // handled by the slider
    if (auto* i = qobject_cast<QSpinBox*>(s)) connect(i, &QSpinBox::valueChanged, this, [this] { onChanged(); onCommitted(); });
    if (auto* d = qobject_cast<QDoubleSpinBox*>(s))
      connect(d, &QDoubleSpinBox::valueChanged, this, [this] { onChanged(); onCommitted(); });
  }
  for (QCheckBox* c : {m_perLayer, m_targetMode})
    connect(c, &QCheckBox::toggled, this, [this] { onChanged(); onCommitted(); });

  connect(m_dataset, &QComboBox::currentIndexChanged, this, [this] {
    refreshDatasetInfo();
    Q_EMIT datasetChanged();
  });
  connect(m_model, &QComboBox::currentIndexChanged, this, &ExperimentPanel::refreshModel);
  // The stack takes the height of the page shown, not of its tallest page.
  auto showPage = [this](int index) {
    for (int i = 0; i < m_privatizerPages->count(); ++i)
      m_privatizerPages->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                                  i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    m_privatizerPages->setCurrentIndex(index);
    m_privatizerPages->adjustSize();
  };
  connect(m_privatizer, &QComboBox::currentIndexChanged, this, showPage);
  showPage(0);
  refreshDatasetInfo();
}

QWidget* ExperimentPanel::buildDataGroup() {
  auto* box = new QGroupBox(tr("Data"), this);
  auto* form = new QFormLayout(box);
  m_dataset = new QComboBox(box);
  m_dataset->setToolTip(tr("The data set to train on. Embedded sets need no download; 2-D sets (circle, xor, gauss, "
                           "spiral) train in seconds and show their decision boundary."));
  m_datasets = data::listDatasets();
  for (const auto& info : m_datasets) m_dataset->addItem(QString::fromStdString(info.name));
  auto* open = new QPushButton(tr("Open data folder…"), box);
  open->setToolTip(tr("Add a folder holding MNIST-format IDX files (.gz or raw) or CIFAR-10 binary batches."));
  connect(open, &QPushButton::clicked, this, &ExperimentPanel::openDataFolderRequested);
  auto* row = new QHBoxLayout;
  row->addWidget(m_dataset, 1);
  row->addWidget(open);
  form->addRow(tr("Data set"), row);
  m_datasetInfo = new QLabel(box);
  m_datasetInfo->setWordWrap(true);
  m_datasetInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(m_datasetInfo);
  const int initial = datasetIndexByName(QStringLiteral("circle"));
  if (initial >= 0) m_dataset->setCurrentIndex(initial);
  return box;
}

QWidget* ExperimentPanel::buildModelGroup() {
  auto* box = new QGroupBox(tr("Network and optimizer"), this);
  auto* form = new QFormLayout(box);
  QStringList presets;
  for (const auto& p : nn::presetNames()) presets << QString::fromStdString(p);
  m_model = combo(box, presets,
                  tr("The network. tfp-cnn is TensorFlow Privacy's tutorial CNN (the student report's network); "
                     "tfp-cnn-tanh uses tanh, the 'tempered sigmoid' of Papernot et al. 2020; lenet5 is "
                     "MindArmour's; mlp and logistic take any input."));
  m_model->setCurrentText(QStringLiteral("mlp"));
  form->addRow(tr("Network"), m_model);
  m_modelInfo = new QLabel(box);
  m_modelInfo->setWordWrap(true);
  form->addRow(m_modelInfo);
  m_optimizer = combo(box, {tr("SGD"), tr("Momentum"), tr("Adam"), tr("Adagrad"), tr("RMSprop")},
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
  return box;
}

QWidget* ExperimentPanel::buildPrivacyGroup() {
  auto* box = new QGroupBox(tr("Privacy"), this);
  auto* form = new QFormLayout(box);
  m_privatizer = combo(box, {tr("L2 clipping"), tr("tanh filter"), tr("adaptive clipping"), tr("none (not private)")},
                       tr("What bounds each example's influence before the noise:\n"
                          "• L2 clipping: g / max(1, ‖g‖₂/C) (Abadi et al. 2016, Alg. 1)\n"
                          "• tanh filter: c·tanh(g/k) element-wise (Amian); honest sensitivity c·√P\n"
                          "• adaptive clipping: C moves toward a target unclipped quantile (Andrew et al. 2021)\n"
                          "• none: the non-private baseline"));
  form->addRow(tr("Privatizer"), m_privatizer);
  m_privatizerPages = new QStackedWidget(box);
  {  // clip
    auto* page = new QWidget;
    auto* l = new QVBoxLayout(page);
    l->setContentsMargins(0, 0, 0, 0);
    m_clip = slider(page, tr("Clip norm C"), 0.01, 100.0, true, 3, 1.0,
                    tr("Each example's gradient is scaled to norm at most C: g / max(1, ‖g‖₂/C). The noise scales "
                       "with C too: N(0, σ²C²·I) (Abadi et al. 2016, Alg. 1)."));
    m_perLayer = new QCheckBox(tr("Per layer (each layer to C/√layers)"), page);
    m_perLayer->setToolTip(tr("Clip each layer's gradient separately to C/√G for G layers, so the total stays ≤ C."));
    l->addWidget(m_clip);
    l->addWidget(m_perLayer);
    m_privatizerPages->addWidget(page);
  }
  {  // tanh
    auto* page = new QWidget;
    auto* l = new QVBoxLayout(page);
    l->setContentsMargins(0, 0, 0, 0);
    m_tanhC = slider(page, tr("Output range c"), 0.01, 20.0, true, 3, 1.0,
                     tr("The tanh filter's output range factor c: each coordinate becomes c·tanh(g/k) ∈ (−c, c) "
                        "(Amian, Alg. 1). The noise is N(0, σ²c²·I)."));
    m_tanhK = slider(page, tr("Active range k"), 0.01, 20.0, true, 3, 1.0,
                     tr("The tanh filter's active-range factor k: gradients much smaller than k pass almost "
                        "unchanged, larger ones saturate at ±c."));
    l->addWidget(m_tanhC);
    l->addWidget(m_tanhK);
    m_privatizerPages->addWidget(page);
  }
  {  // adaptive
    auto* page = new QWidget;
    auto* l = new QFormLayout(page);
    l->setContentsMargins(0, 0, 0, 0);
    m_adaptiveC0 = slider(page, tr("Initial C₀"), 0.01, 100.0, true, 3, 1.0, tr("The clip norm of the first step."));
    m_quantile = slider(page, tr("Target quantile γ"), 0.05, 0.99, false, 2, 0.5,
                        tr("The fraction of examples meant to stay unclipped (Andrew et al. 2021). MindArmour's "
                           "target_unclipped_quantile."));
    m_clipLr = slider(page, tr("Clip rate η_C"), 1e-4, 1.0, true, 4, 0.2,
                      tr("How fast C moves: geometric C ← C·exp(−η_C(b̃ − γ)), linear C ← C − η_C(b̃ − γ), b̃ the "
                         "noisy unclipped fraction."));
    m_clipPolicy = combo(page, {tr("Geometric"), tr("Linear")}, tr("The update rule of the clip norm."));
    l->addRow(m_adaptiveC0);
    l->addRow(m_quantile);
    l->addRow(m_clipLr);
    l->addRow(tr("Update"), m_clipPolicy);
    m_privatizerPages->addWidget(page);
  }
  {  // none
    auto* page = new QLabel(tr("No clipping, no noise: the non-private baseline (ε = ∞)."));
    page->setWordWrap(true);
    m_privatizerPages->addWidget(page);
  }
  form->addRow(m_privatizerPages);

  m_sigma = slider(box, tr("Noise σ"), 0.05, 20.0, true, 3, 1.1,
                   tr("The noise multiplier σ: Gaussian noise N(0, σ²S²·I) is added to the sum of privatized "
                      "gradients, S the privatizer's bound (Abadi et al. 2016, Alg. 1). More σ: smaller ε, noisier "
                      "training."));
  form->addRow(m_sigma);
  m_targetMode = new QCheckBox(tr("Fix ε instead and calibrate σ"), box);
  m_targetMode->setToolTip(tr("Target-ε mode: choose the budget; σ becomes the smallest noise multiplier whose ε "
                              "stays within it (bracketing and bisection on the accountant)."));
  form->addRow(m_targetMode);
  m_targetEpsilon = slider(box, tr("Target ε"), 0.05, 50.0, true, 3, 2.0, tr("The privacy budget to calibrate σ for."));
  m_targetEpsilon->setEnabled(false);
  form->addRow(m_targetEpsilon);
  connect(m_targetMode, &QCheckBox::toggled, this, [this](bool on) {
    m_targetEpsilon->setEnabled(on);
    m_sigma->setEnabled(!on);
  });
  m_schedule = combo(box, {tr("Constant"), tr("Time decay"), tr("Step decay"), tr("Exp decay")},
                     tr("MindArmour's decaying noise: Time σ_t = σ₀/(1+ρt); Step σ_t = σ₀(1−ρ)^t; Exp "
                        "σ_t = σ₀e^(−ρt). Less noise later costs more privacy: the accountant composes every σ_t."));
  m_decayRate = new QDoubleSpinBox(box);
  m_decayRate->setRange(0.0, 0.5);
  m_decayRate->setDecimals(5);
  m_decayRate->setSingleStep(0.0005);
  m_decayRate->setValue(0.001);
  m_decayRate->setToolTip(tr("ρ, the decay rate of the noise schedule (per step)."));
  auto* row = new QHBoxLayout;
  row->addWidget(m_schedule, 1);
  row->addWidget(new QLabel(tr("ρ"), box));
  row->addWidget(m_decayRate);
  form->addRow(tr("Schedule"), row);
  m_microbatch = new QSpinBox(box);
  m_microbatch->setRange(1, 256);
  m_microbatch->setToolTip(tr("Micro-batch size m: gradients are averaged over m examples, then privatized per "
                              "micro-batch (MindArmour's micro_batches). m = 1 is per-example."));
  form->addRow(tr("Micro-batch m"), m_microbatch);
  m_delta = new QComboBox(box);
  for (int e = 3; e <= 9; ++e) m_delta->addItem(QStringLiteral("1e-%1").arg(e), std::pow(10.0, -e));
  m_delta->setToolTip(tr("δ: the probability the ε bound may fail. Keep it well below 1/N; the default is the largest "
                         "power of ten below 1/N."));
  form->addRow(tr("δ"), m_delta);
  m_accountant = combo(box, {tr("RDP"), tr("Tight (PLD)")},
                       tr("RDP: Rényi DP of the subsampled Gaussian (Mironov 2017; Mironov, Talwar & Zhang 2019), "
                          "fast and standard. Tight: the privacy loss distribution composed numerically (Koskela "
                          "et al. 2020), never above RDP and often below."));
  form->addRow(tr("Accountant"), m_accountant);
  m_sampling = combo(box, {tr("Poisson"), tr("Shuffled batches")},
                     tr("Poisson: each example joins a lot with probability q = L/N, as the accountants assume. "
                        "Shuffled fixed-size batches are common in practice, but their ε then assumes Poisson "
                        "sampling and is labelled so."));
  form->addRow(tr("Sampling"), m_sampling);
  return box;
}

QWidget* ExperimentPanel::buildTrainingGroup() {
  auto* box = new QGroupBox(tr("Training"), this);
  auto* form = new QFormLayout(box);
  m_lot = slider(box, tr("Lot size L"), 1, 4096, true, 0, 256,
                 tr("Expected lot size L: the sampling rate is q = L/N (Abadi et al. 2016, §3.1). Larger lots share "
                    "the noise among more examples but sample each example more often."));
  form->addRow(m_lot);
  m_lotInfo = new QLabel(box);
  form->addRow(m_lotInfo);
  m_epochs = slider(box, tr("Epochs"), 1, 100, false, 0, 5,
                    tr("Passes over the training set: N/L lots each. More epochs, more steps, more ε."));
  form->addRow(m_epochs);
  m_seed = new QSpinBox(box);
  m_seed->setRange(0, 1000000);
  m_seed->setValue(1);
  m_seed->setToolTip(tr("The seed of sampling, initialisation and noise: the same seed gives the same run, bit for bit."));
  form->addRow(tr("Seed"), m_seed);
  return box;
}

int ExperimentPanel::datasetIndexByName(const QString& name) const {
  for (int i = 0; i < static_cast<int>(m_datasets.size()); ++i)
    if (QString::fromStdString(m_datasets[static_cast<std::size_t>(i)].name) == name) return i;
  return -1;
}

const data::DatasetInfo* ExperimentPanel::currentDataset() const {
  const int i = m_dataset->currentIndex();
  return i >= 0 && i < static_cast<int>(m_datasets.size()) ? &m_datasets[static_cast<std::size_t>(i)] : nullptr;
}

long long ExperimentPanel::trainSize() const {
  const auto* info = currentDataset();
  return info ? info->trainSize : 0;
}

void ExperimentPanel::refreshDatasetInfo() {
  const auto* info = currentDataset();
  if (!info) {
    m_datasetInfo->setText(tr("No data set."));
    return;
  }
  m_datasetInfo->setText(tr("<b>%1</b> train / %2 test · %3 · %4 classes<br><small>%5</small>")
                             .arg(info->trainSize)
                             .arg(info->testSize)
                             .arg(shapeText(info->shape))
                             .arg(info->classCount)
                             .arg(QString::fromStdString(info->provenance).toHtmlEscaped()));
  {
    const QSignalBlocker block(m_delta);
    const double delta = defaultDelta(info->trainSize);
    const int index = m_delta->findData(delta);
    m_delta->setCurrentIndex(index >= 0 ? index : 2);
  }
  // Image sets train best with a CNN; 2-D sets with a small MLP.
  if (!m_loading) {
    const QSignalBlocker block(m_model);
    m_model->setCurrentText(info->shape.isImage && info->shape.height >= 16 ? QStringLiteral("tfp-cnn")
                                                                             : QStringLiteral("mlp"));
    m_lot->setValue(std::min<double>(info->trainSize >= 4000 ? 256 : 64, static_cast<double>(info->trainSize)));
    m_epochs->setValue(info->trainSize >= 4000 ? 5 : 30);
  }
  refreshModel();
}

void ExperimentPanel::refreshModel() {
  const auto* info = currentDataset();
  m_modelProblem.clear();
  m_parameterCount = 0;
  if (info) {
    try {
      nn::PresetOptions options;
      options.hiddenWidths = {info->shape.featureCount() <= 2 ? 16 : 256};
      if (info->shape.featureCount() <= 2) options.hiddenWidths = {16, 16};
      const auto model = nn::buildPreset<float>(m_model->currentText().toStdString(), info->shape,
                                                std::max(2, info->classCount), 1, options);
      m_parameterCount = model.parameterCount();
    } catch (const std::exception& e) {
      m_modelProblem = QString::fromUtf8(e.what());
    }
  }
  m_modelInfo->setText(m_modelProblem.isEmpty() ? tr("%1 parameters").arg(m_parameterCount)
                                                : QStringLiteral("<span style='color:#c00'>%1</span>")
                                                      .arg(m_modelProblem.toHtmlEscaped()));
  m_run->setEnabled(m_modelProblem.isEmpty());
  refreshDerived();
  onChanged();
}

void ExperimentPanel::refreshDerived() {
  const long long n = trainSize();
  if (n > 0) {
    const double q = std::min(1.0, m_lot->value() / static_cast<double>(n));
    m_lotInfo->setText(tr("sampling rate q = L/N = %1 · %2 steps per epoch")
                           .arg(formatNumber(q, 3))
                           .arg(std::max<long long>(1, n / std::max<long long>(1, std::llround(m_lot->value())))));
  }
  const bool adaptiveOrClip = m_privatizer->currentIndex() != 3;
  m_sigma->setEnabled(adaptiveOrClip && !m_targetMode->isChecked());
  m_momentum->setEnabled(m_optimizer->currentIndex() == 1);
  m_decayRate->setEnabled(m_schedule->currentIndex() != 0);
  m_targetMode->setEnabled(adaptiveOrClip && m_schedule->currentIndex() == 0);
}

void ExperimentPanel::applyTargetEpsilon() {
  if (!m_targetMode->isChecked() || !m_targetMode->isEnabled()) return;
  const train::ExperimentConfig c = config();
  const long long n = trainSize();
  if (n < 1) return;
  try {
    const double q = std::min(1.0, static_cast<double>(c.training.lotSize) / static_cast<double>(n));
    const auto calibration = privacy::calibrateDpSgd(c.privacy.accountant, q, c.totalSteps(n), c.privacy.delta,
                                                     m_targetEpsilon->value());
    // The calibrated multiplier is the effective one; the tanh filter's honest sensitivity
    // is c·√P, so its σ must be √P times larger to reach the same honest ε.
    double sigma = calibration.noiseMultiplier;
    if (c.privacy.privatizer.kind == privacy::PrivatizerKind::Tanh)
      sigma *= std::sqrt(static_cast<double>(std::max<long long>(1, m_parameterCount)));
    const QSignalBlocker block(m_sigma);
    m_sigma->setValue(std::min(sigma, 20.0));
  } catch (const std::exception&) {
    // Unreachable targets leave σ as it was; the readout states the ε that σ gives.
  }
}

void ExperimentPanel::onChanged() {
  if (m_loading) return;
  refreshDerived();
  applyTargetEpsilon();
  Q_EMIT configChanged();
}

void ExperimentPanel::onCommitted() {
  if (m_loading) return;
  Q_EMIT configCommitted();
}

bool ExperimentPanel::liveMode() const { return m_live->isChecked(); }
void ExperimentPanel::setLiveMode(bool on) { m_live->setChecked(on); }
bool ExperimentPanel::targetEpsilonMode() const { return m_targetMode->isChecked(); }

train::ExperimentConfig ExperimentPanel::config() const {
  train::ExperimentConfig c;
  const auto* info = currentDataset();
  c.dataset.name = info ? info->name : std::string("circle");
  c.model.preset = m_model->currentText().toStdString();
  if (info && info->shape.featureCount() <= 2) c.model.hiddenWidths = {16, 16};
  c.optimizer.options.kind = optim::parseOptimizerKind(kOptimizerIds.at(m_optimizer->currentIndex()).toStdString());
  c.optimizer.options.momentum = m_momentum->value();
  c.optimizer.learningRate = m_lr->value();
  auto& p = c.privacy.privatizer;
  p.kind = privacy::parsePrivatizerKind(kPrivatizerIds.at(m_privatizer->currentIndex()).toStdString());
  p.clipNorm = p.kind == privacy::PrivatizerKind::Adaptive ? m_adaptiveC0->value() : m_clip->value();
  p.perLayer = m_perLayer->isChecked();
  p.tanhScale = m_tanhC->value();
  p.tanhActiveRange = m_tanhK->value();
  p.targetQuantile = m_quantile->value();
  p.clipLearningRate = m_clipLr->value();
  p.clipPolicy = m_clipPolicy->currentIndex() == 0 ? privacy::ClipUpdatePolicy::Geometric
                                                   : privacy::ClipUpdatePolicy::Linear;
  c.privacy.noise.initial = p.kind == privacy::PrivatizerKind::None ? 0.0 : m_sigma->value();
  c.privacy.noise.decay = privacy::parseNoiseDecay(kScheduleIds.at(m_schedule->currentIndex()).toStdString());
  c.privacy.noise.rate = m_decayRate->value();
  c.privacy.microbatchSize = m_microbatch->value();
  c.privacy.delta = m_delta->currentData().toDouble();
  c.privacy.accountant = m_accountant->currentIndex() == 0 ? privacy::AccountantKind::Rdp : privacy::AccountantKind::Pld;
  c.privacy.sampling = m_sampling->currentIndex() == 0 ? train::SamplingKind::Poisson : train::SamplingKind::Shuffle;
  c.training.lotSize = static_cast<int>(std::llround(m_lot->value()));
  c.training.epochs = m_epochs->value();
  c.training.seed = static_cast<std::uint64_t>(m_seed->value());
  return c;
}

QString ExperimentPanel::setConfig(const train::ExperimentConfig& c) {
  const QString name = QString::fromStdString(c.dataset.name);
  int index = datasetIndexByName(name);
  if (index < 0) {
    const QString error = addDataFolder(name);
    if (!error.isEmpty()) return error;
    index = datasetIndexByName(name);
  }
  m_loading = true;
  m_dataset->setCurrentIndex(index);
  m_model->setCurrentText(QString::fromStdString(c.model.preset));
  m_optimizer->setCurrentIndex(static_cast<int>(kOptimizerIds.indexOf(QString::fromStdString(optim::optimizerName(c.optimizer.options.kind)))));
  m_momentum->setValue(c.optimizer.options.momentum);
  m_lr->setValue(c.optimizer.learningRate);
  const auto& p = c.privacy.privatizer;
  m_privatizer->setCurrentIndex(static_cast<int>(kPrivatizerIds.indexOf(QString::fromStdString(privacy::privatizerName(p.kind)))));
  m_clip->setValue(p.clipNorm);
  m_adaptiveC0->setValue(p.clipNorm);
  m_perLayer->setChecked(p.perLayer);
  m_tanhC->setValue(p.tanhScale);
  m_tanhK->setValue(p.tanhActiveRange);
  m_quantile->setValue(p.targetQuantile);
  m_clipLr->setValue(p.clipLearningRate);
  m_clipPolicy->setCurrentIndex(p.clipPolicy == privacy::ClipUpdatePolicy::Geometric ? 0 : 1);
  if (p.kind != privacy::PrivatizerKind::None) m_sigma->setValue(c.privacy.noise.initial);
  m_targetMode->setChecked(false);
  m_schedule->setCurrentIndex(static_cast<int>(kScheduleIds.indexOf(QString::fromStdString(privacy::noiseDecayName(c.privacy.noise.decay)))));
  m_decayRate->setValue(c.privacy.noise.rate);
  m_microbatch->setValue(c.privacy.microbatchSize);
  const int deltaIndex = m_delta->findData(c.privacy.delta);
  if (deltaIndex >= 0) {
    m_delta->setCurrentIndex(deltaIndex);
  } else {
    m_delta->addItem(formatDelta(c.privacy.delta), c.privacy.delta);
    m_delta->setCurrentIndex(m_delta->count() - 1);
  }
  m_accountant->setCurrentIndex(c.privacy.accountant == privacy::AccountantKind::Rdp ? 0 : 1);
  m_sampling->setCurrentIndex(c.privacy.sampling == train::SamplingKind::Poisson ? 0 : 1);
  m_lot->setValue(c.training.lotSize);
  m_epochs->setValue(c.training.epochs);
  m_seed->setValue(static_cast<int>(c.training.seed));
  m_loading = false;
  refreshModel();
  return {};
}

QString ExperimentPanel::addDataFolder(const QString& path) {
  const QString clean = QDir::cleanPath(path);
  const int existing = datasetIndexByName(clean);
  if (existing >= 0) {
    m_dataset->setCurrentIndex(existing);
    return {};
  }
  try {
    // Loading checks every header against the files; the sizes shown come from the data.
    const data::Dataset dataset = data::loadDataset(clean.toStdString());
    data::DatasetInfo info;
    info.name = clean.toStdString();
    info.description = dataset.name;
    info.provenance = dataset.provenance;
    info.location = clean.toStdString();
    info.trainSize = static_cast<long>(dataset.train.size());
    info.testSize = static_cast<long>(dataset.test.size());
    info.shape = dataset.shape;
    info.classCount = dataset.classCount();
    m_datasets.push_back(info);
    m_dataset->addItem(clean);
    m_dataset->setCurrentIndex(m_dataset->count() - 1);
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

QString ExperimentPanel::runName() const {
  const train::ExperimentConfig c = config();
  QString privacyPart;
  switch (c.privacy.privatizer.kind) {
    case privacy::PrivatizerKind::None: privacyPart = tr("non-private"); break;
    case privacy::PrivatizerKind::Clip:
      privacyPart = QStringLiteral("σ %1 · C %2").arg(formatNumber(c.privacy.noise.initial), formatNumber(c.privacy.privatizer.clipNorm));
      break;
    case privacy::PrivatizerKind::Tanh:
      privacyPart = QStringLiteral("tanh c %1 k %2 · σ %3")
                        .arg(formatNumber(c.privacy.privatizer.tanhScale), formatNumber(c.privacy.privatizer.tanhActiveRange),
                             formatNumber(c.privacy.noise.initial));
      break;
    case privacy::PrivatizerKind::Adaptive:
      privacyPart = QStringLiteral("adaptive γ %1 · σ %2").arg(formatNumber(c.privacy.privatizer.targetQuantile),
                                                              formatNumber(c.privacy.noise.initial));
      break;
  }
  return QStringLiteral("%1 · %2 · %3").arg(QString::fromStdString(c.model.preset), privacyPart,
                                            QString::fromStdString(optim::optimizerName(c.optimizer.options.kind)));
}

}  // namespace epsilon::ui
