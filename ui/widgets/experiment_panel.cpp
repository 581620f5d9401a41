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
#include "core/privacy/dp_pca.h"
#include "core/privacy/privacy_report.h"
#include "core/train/run_planning.h"
#include "ui/io/number_format.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/privacy_preview.h"

namespace epsilon::ui {

namespace {

QString shapeText(const data::SampleShape& s) {
  return s.isImage ? QStringLiteral("%1×%2×%3").arg(s.channels).arg(s.height).arg(s.width)
                   : QObject::tr("%1 features").arg(s.featureCount());
}

const QStringList kPrivatizerIds{QStringLiteral("clip"), QStringLiteral("tanh"),
                                 QStringLiteral("adaptive"), QStringLiteral("none")};
const QStringList kOptimizerIds{QStringLiteral("sgd"), QStringLiteral("momentum"),
                                QStringLiteral("adam"), QStringLiteral("adagrad"),
                                QStringLiteral("rmsprop")};
const QStringList kScheduleIds{QStringLiteral("constant"), QStringLiteral("time"),
                               QStringLiteral("step"), QStringLiteral("exp")};

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(buildDataGroup());
  layout->addWidget(buildModelGroup());
  layout->addWidget(buildPrivacyGroup());
  layout->addWidget(buildTrainingGroup());

  m_issues = new QLabel(this);
  m_issues->setObjectName(QStringLiteral("configIssues"));
  m_issues->setWordWrap(true);
  m_issues->hide();
  layout->addWidget(m_issues);
  auto* buttons = new QHBoxLayout;
  m_live = new QCheckBox(tr("Live mode"), this);
  m_live->setToolTip(tr(
      "Live mode: releasing a slider starts a new run after a short pause and cancels the previous "
      "live run, so the curves answer every move. Off: start runs with Run (Ctrl+R)."));
  m_run = new QPushButton(tr("Run"), this);
  m_run->setToolTip(
      tr("Train this experiment as a new run (Ctrl+R). Several runs can train at once."));
  m_run->setDefault(true);
  buttons->addWidget(m_live);
  buttons->addStretch(1);
  buttons->addWidget(m_run);
  layout->addLayout(buttons);
  layout->addStretch(1);

  connect(m_run, &QPushButton::clicked, this, &ExperimentPanel::runRequested);
  connect(m_live, &QCheckBox::toggled, this, &ExperimentPanel::liveModeChanged);
  connectControls();
  refreshDatasetInfo();
}

void ExperimentPanel::connectControls() {
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
    if (auto* i = qobject_cast<QSpinBox*>(s))
      connect(i, &QSpinBox::valueChanged, this, [this] {
        onChanged();
        onCommitted();
      });
    if (auto* d = qobject_cast<QDoubleSpinBox*>(s))
      connect(d, &QDoubleSpinBox::valueChanged, this, [this] {
        onChanged();
        onCommitted();
      });
  }
  for (QCheckBox* c : {m_perLayer, m_targetMode, m_secureNoise})
    connect(c, &QCheckBox::toggled, this, [this] {
      onChanged();
      onCommitted();
    });

  connect(m_dataset, &QComboBox::currentIndexChanged, this, [this] {
    refreshDatasetInfo();
    Q_EMIT datasetChanged();
  });
  connect(m_model, &QComboBox::currentIndexChanged, this, &ExperimentPanel::refreshModel);
  connect(m_pcaDims, &QSpinBox::valueChanged, this, &ExperimentPanel::refreshModel);  // k sets P
  // The stack takes the height of the page shown, not of its tallest page.
  auto showPage = [this](int index) {
    for (int i = 0; i < m_privatizerPages->count(); ++i)
      m_privatizerPages->widget(i)->setSizePolicy(
          QSizePolicy::Preferred, i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    m_privatizerPages->setCurrentIndex(index);
    m_privatizerPages->adjustSize();
  };
  connect(m_privatizer, &QComboBox::currentIndexChanged, this, showPage);
  showPage(0);
}

int ExperimentPanel::datasetIndexByName(const QString& name) const {
  for (int i = 0; i < static_cast<int>(m_datasets.size()); ++i)
    if (QString::fromStdString(m_datasets[static_cast<std::size_t>(i)].name) == name) return i;
  return -1;
}

const data::DatasetInfo* ExperimentPanel::currentDataset() const {
  const int i = m_dataset->currentIndex();
  return i >= 0 && i < static_cast<int>(m_datasets.size())
             ? &m_datasets[static_cast<std::size_t>(i)]
             : nullptr;
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
    m_model->setCurrentText(info->shape.isImage && info->shape.height >= 16
                                ? QStringLiteral("tfp-cnn")
                                : QStringLiteral("mlp"));
    m_lot->setValue(
        std::min<double>(info->trainSize >= 4000 ? 256 : 64, static_cast<double>(info->trainSize)));
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
      const bool pca = m_model->currentText() == QStringLiteral("pca-mlp");
      if (pca) {
        // k must fit the input: core's check names model.pca_dims, the bound and the value.
        privacy::validateDpPcaOptions(
            {m_pcaDims->value(), m_pcaNoise->value(), m_pcaSample->value(), 1},
            info->shape.featureCount());
        options.projectionDims = m_pcaDims->value();
      }
      const auto model = nn::buildPreset<float>(m_model->currentText().toStdString(), info->shape,
                                                std::max(2, info->classCount), 1, options);
      m_parameterCount = model.parameterCount();
    } catch (const std::exception& e) {
      m_modelProblem = QString::fromUtf8(e.what());
    }
  }
  m_modelInfo->setText(m_modelProblem.isEmpty()
                           ? tr("%1 parameters").arg(m_parameterCount)
                           : QStringLiteral("<span style='color:#c00'>%1</span>")
                                 .arg(m_modelProblem.toHtmlEscaped()));
  m_run->setEnabled(m_modelProblem.isEmpty());
  m_pcaControls->setVisible(m_model->currentText() == QStringLiteral("pca-mlp"));
  refreshDerived();
  onChanged();
}

void ExperimentPanel::refreshDerived() {
  const long long n = trainSize();
  if (n > 0) {
    const double q = std::min(1.0, m_lot->value() / static_cast<double>(n));
    m_lotInfo->setText(
        tr("sampling rate q = L/N = %1 · %2 steps per epoch")
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
  const bool active = m_targetMode->isChecked() && m_targetMode->isEnabled();
  const train::ExperimentConfig c = config();
  const long long n = trainSize();
  QString note;
  if (active && n >= 1) {
    try {
      // Calibrated on the planned run's honest ε (run_planning.h), so the tanh filter's √P rule,
      // adaptive clipping's count noise and pca-mlp's PCA release (held fixed) are included.
      const double sigma = train::calibrateNoise(c, {n, std::max<long long>(1, m_parameterCount)},
                                                 m_targetEpsilon->value())
                               .noiseMultiplier;
      const QSignalBlocker block(m_sigma);
      m_sigma->setValue(std::min(sigma, 20.0));
      if (c.model.usesPca()) {
        const double pca =
            privacy::dpPcaEpsilon(c.privacy.accountant, c.model.pcaNoise, c.privacy.delta);
        note = tr("σ calibrated with the PCA release held fixed: σ_pca %1 costs ε = %2 on its own; "
                  "the steps get the rest.")
                   .arg(formatNumber(c.model.pcaNoise), formatEpsilon(pca));
      }
    } catch (const std::exception& e) {
      // Unreachable targets leave σ as it was; the readout states the ε that σ gives. With a
      // PCA release the reason is worth saying (it may spend the whole budget by itself).
      if (c.model.usesPca()) note = QString::fromUtf8(e.what());
    }
  }
  m_targetNote->setText(note);
  m_targetNote->setVisible(!note.isEmpty());
}

void ExperimentPanel::onChanged() {
  if (m_loading) return;
  refreshDerived();
  applyTargetEpsilon();
  refreshIssues();
  Q_EMIT configChanged();
}

void ExperimentPanel::onCommitted() {
  if (m_loading) return;
  Q_EMIT configCommitted();
}

bool ExperimentPanel::liveMode() const {
  return m_live->isChecked();
}
void ExperimentPanel::setLiveMode(bool on) {
  m_live->setChecked(on);
}
bool ExperimentPanel::targetEpsilonMode() const {
  return m_targetMode->isChecked();
}

train::ExperimentConfig ExperimentPanel::config() const {
  train::ExperimentConfig c;
  const auto* info = currentDataset();
  c.dataset.name = info ? info->name : std::string("circle");
  c.model.preset = m_model->currentText().toStdString();
  c.model.pcaDims = m_pcaDims->value();
  c.model.pcaNoise = m_pcaNoise->value();
  c.model.pcaSampleFraction = m_pcaSample->value();
  if (info && info->shape.featureCount() <= 2) c.model.hiddenWidths = {16, 16};
  c.optimizer.options.kind =
      optim::parseOptimizerKind(kOptimizerIds.at(m_optimizer->currentIndex()).toStdString());
  c.optimizer.options.momentum = m_momentum->value();
  c.optimizer.learningRate = m_lr->value();
  auto& p = c.privacy.privatizer;
  p.kind =
      privacy::parsePrivatizerKind(kPrivatizerIds.at(m_privatizer->currentIndex()).toStdString());
  p.clipNorm =
      p.kind == privacy::PrivatizerKind::Adaptive ? m_adaptiveC0->value() : m_clip->value();
  p.perLayer = m_perLayer->isChecked();
  p.tanhScale = m_tanhC->value();
  p.tanhActiveRange = m_tanhK->value();
  p.targetQuantile = m_quantile->value();
  p.clipLearningRate = m_clipLr->value();
  p.clipPolicy = m_clipPolicy->currentIndex() == 0 ? privacy::ClipUpdatePolicy::Geometric
                                                   : privacy::ClipUpdatePolicy::Linear;
  c.privacy.noise.initial = p.kind == privacy::PrivatizerKind::None ? 0.0 : m_sigma->value();
  c.privacy.noise.decay =
      privacy::parseNoiseDecay(kScheduleIds.at(m_schedule->currentIndex()).toStdString());
  c.privacy.noise.rate = m_decayRate->value();
  c.privacy.microbatchSize = m_microbatch->value();
  c.privacy.delta = m_delta->currentData().toDouble();
  c.privacy.accountant = m_accountant->currentIndex() == 0 ? privacy::AccountantKind::Rdp
                                                           : privacy::AccountantKind::Pld;
  c.privacy.sampling =
      m_sampling->currentIndex() == 0 ? train::SamplingKind::Poisson : train::SamplingKind::Shuffle;
  c.privacy.secureNoise = m_secureNoise->isChecked();
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
  m_pcaDims->setValue(c.model.pcaDims);
  m_pcaNoise->setValue(c.model.pcaNoise);
  m_pcaSample->setValue(c.model.pcaSampleFraction);
  m_optimizer->setCurrentIndex(static_cast<int>(kOptimizerIds.indexOf(
      QString::fromStdString(optim::optimizerName(c.optimizer.options.kind)))));
  m_momentum->setValue(c.optimizer.options.momentum);
  m_lr->setValue(c.optimizer.learningRate);
  const auto& p = c.privacy.privatizer;
  m_privatizer->setCurrentIndex(static_cast<int>(
      kPrivatizerIds.indexOf(QString::fromStdString(privacy::privatizerName(p.kind)))));
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
  m_schedule->setCurrentIndex(static_cast<int>(kScheduleIds.indexOf(
      QString::fromStdString(privacy::noiseDecayName(c.privacy.noise.decay)))));
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
  m_secureNoise->setChecked(c.privacy.secureNoise);
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
    case privacy::PrivatizerKind::None:
      privacyPart = tr("non-private");
      break;
    case privacy::PrivatizerKind::Clip:
      privacyPart = QStringLiteral("σ %1 · C %2")
                        .arg(formatNumber(c.privacy.noise.initial),
                             formatNumber(c.privacy.privatizer.clipNorm));
      break;
    case privacy::PrivatizerKind::Tanh:
      privacyPart = QStringLiteral("tanh c %1 k %2 · σ %3")
                        .arg(formatNumber(c.privacy.privatizer.tanhScale),
                             formatNumber(c.privacy.privatizer.tanhActiveRange),
                             formatNumber(c.privacy.noise.initial));
      break;
    case privacy::PrivatizerKind::Adaptive:
      privacyPart = QStringLiteral("adaptive γ %1 · σ %2")
                        .arg(formatNumber(c.privacy.privatizer.targetQuantile),
                             formatNumber(c.privacy.noise.initial));
      break;
  }
  QString model = QString::fromStdString(c.model.preset);
  if (c.model.usesPca()) model += QStringLiteral(" (σ_pca %1)").arg(formatNumber(c.model.pcaNoise));
  return QStringLiteral("%1 · %2 · %3")
      .arg(model, privacyPart,
           QString::fromStdString(optim::optimizerName(c.optimizer.options.kind)));
}

}  // namespace epsilon::ui
