// ExperimentPanel: loading a config into the controls and reading it back: the controls that
// show one schema field each through the binding table (boundControls), the rest group by group.
// The panel keeps the config it last loaded (or the defaults a data set opened with) and config()
// starts from it, each group writing only the fields it has controls for; a control that shows
// a loaded value rounded or clamped hands back the loaded value until the user changes it, so a
// config loaded and read back is the same config, field for field.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "base/io/json_reader.h"
#include "base/io/number_format.h"
#include "base/io/privacy_preview.h"
#include "base/session/dataset_store.h"
#include "core/train/experiment_schema.h"
#include "core/train/teaching_defaults.h"
#include "ui/widgets/control_values.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/parameter_slider.h"

namespace epsilon::ui {

namespace {

double sliderValue(const ParameterSlider* slider, double loaded) {
  return valueOrLoaded(slider->spinBox(), loaded);
}

}  // namespace

train::ExperimentConfig ExperimentPanel::datasetDefaults(const data::DatasetInfo& info) {
  // In core, for the GUI and the CLI alike (teaching_defaults.h).
  return train::datasetDefaults(info);
}

train::ExperimentConfig ExperimentPanel::openingConfig() const {
  const auto* info = currentDataset();
  return info ? train::datasetDefaults(*info) : train::ExperimentConfig{};
}

train::ExperimentConfig ExperimentPanel::config() const {
  return m_stepConfig ? *m_stepConfig : buildConfig();
}

void ExperimentPanel::holdStepConfig() {
  m_stepConfig = buildConfig();
  if (m_stepConfigDropQueued) return;
  m_stepConfigDropQueued = true;
  QMetaObject::invokeMethod(
      this,
      [this] {
        m_stepConfigDropQueued = false;
        m_stepConfig.reset();
      },
      Qt::QueuedConnection);
}

train::ExperimentConfig ExperimentPanel::buildConfig() const {
  train::ExperimentConfig c = m_base;
  if (const auto* info = currentDataset()) c.dataset.name = info->name;
  writeModelGroup(c);
  writePrivatizer(c.privacy);
  writeNoiseAndAccounting(c.privacy);
  writeTrainingGroup(c.training);
  writeBound(c);
  return c;
}

QString ExperimentPanel::setConfig(const train::ExperimentConfig& c) {
  const QString error = loadConfig(c);
  if (error.isEmpty()) {
    m_defaultsNote->hide();
    m_undoDefaults->hide();
  }
  return error;
}

QString ExperimentPanel::loadConfig(const train::ExperimentConfig& c) {
  const QString name = QDir::cleanPath(QString::fromStdString(c.dataset.name));
  m_configAwaitingFolder.reset();  // a newer config replaces one still waiting for its folder
  m_stepConfig.reset();
  int index = datasetIndexByName(name);
  if (index < 0) {
    if (const auto held = DatasetStore::instance().cached(name.toStdString())) {
      addLoadedDataset(name, held);
    } else {
      m_configAwaitingFolder = c;
      m_configAwaitingFolder->dataset.name = name.toStdString();
      Q_EMIT dataFolderNeeded(name);  // loaded as a job; addLoadedDataset brings `c` back
      return {};
    }
    index = datasetIndexByName(name);
    if (index < 0) return tr("dataset.name: %1 is not a data set").arg(clipped(name));
  }
  m_loading = true;  // a data set chosen here is loaded, not chosen: no defaults applied
  m_dataset->setCurrentIndex(index);
  loadModelGroup(c);
  loadPrivatizer(c.privacy);
  loadNoiseAndAccounting(c.privacy);
  loadTrainingGroup(c.training);
  loadBound(c);
  m_base = c;
  m_loading = false;
  m_stepConfig.reset();
  refreshModel();
  return {};
}

void ExperimentPanel::loadModelGroup(const train::ExperimentConfig& c) {
  const int model = m_model->findData(QString::fromStdString(c.model.preset));
  if (model >= 0) m_model->setCurrentIndex(model);
  selectEnum(m_optimizer, c.optimizer.options.kind);
}

void ExperimentPanel::writeModelGroup(train::ExperimentConfig& c) const {
  if (const QVariant preset = m_model->currentData(); preset.isValid())
    c.model.preset = preset.toString().toStdString();
  c.optimizer.options.kind = currentEnum<optim::OptimizerKind>(m_optimizer);
}

void ExperimentPanel::loadPrivatizer(const train::PrivacyConfig& c) {
  const auto& p = c.privatizer;
  selectEnum(m_privatizer, p.kind);
  m_clip->setValue(p.clipNorm);
  m_adaptiveC0->setValue(p.clipNorm);
  selectEnum(m_clipPolicy, p.clipPolicy);
}

void ExperimentPanel::writePrivatizer(train::PrivacyConfig& c) const {
  auto& p = c.privatizer;
  const privacy::PrivatizerKind loaded = p.kind;
  p.kind = currentEnum<privacy::PrivatizerKind>(m_privatizer);
  const bool adaptive = p.kind == privacy::PrivatizerKind::Adaptive;
  p.clipNorm = sliderValue(adaptive ? m_adaptiveC0 : m_clip, p.clipNorm);
  p.clipPolicy = currentEnum<privacy::ClipUpdatePolicy>(m_clipPolicy);
  // The baseline chosen here has no noise; a loaded one keeps the σ it was loaded with.
  if (p.kind != privacy::PrivatizerKind::None)
    c.noise.initial = sliderValue(m_sigma, c.noise.initial);
  else if (loaded != privacy::PrivatizerKind::None)
    c.noise.initial = 0.0;
}

void ExperimentPanel::loadNoiseAndAccounting(const train::PrivacyConfig& c) {
  // A baseline saved with σ = 0 leaves the slider where it was, for when clipping is chosen.
  if (c.privatizer.kind != privacy::PrivatizerKind::None || c.noise.initial > 0)
    m_sigma->setValue(c.noise.initial);
  m_targetMode->setChecked(false);
  selectEnum(m_schedule, c.noise.decay);
  int delta = m_delta->findData(c.delta);
  if (delta < 0) {
    m_delta->addItem(formatDelta(c.delta), c.delta);
    delta = m_delta->count() - 1;
  }
  m_delta->setCurrentIndex(delta);
  selectEnum(m_accountant, c.accountant);
  selectEnum(m_sampling, c.sampling);
}

void ExperimentPanel::writeNoiseAndAccounting(train::PrivacyConfig& c) const {
  c.noise.decay = currentEnum<privacy::NoiseDecay>(m_schedule);
  if (const QVariant delta = m_delta->currentData(); delta.isValid()) c.delta = delta.toDouble();
  c.accountant = currentEnum<privacy::AccountantKind>(m_accountant);
  c.sampling = currentEnum<train::SamplingKind>(m_sampling);
}

void ExperimentPanel::loadTrainingGroup(const train::TrainingConfig& t) {
  m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(t.seed, m_seed->maximum())));
}

void ExperimentPanel::writeTrainingGroup(train::TrainingConfig& t) const {
  // A seed beyond the box's range is shown at its maximum and kept until the box is changed.
  if (static_cast<std::uint64_t>(m_seed->value()) !=
      std::min<std::uint64_t>(t.seed, m_seed->maximum()))
    t.seed = static_cast<std::uint64_t>(m_seed->value());
}

std::vector<std::pair<const char*, QWidget*>> ExperimentPanel::boundControls() const {
  return {{"model.pca_dims", m_pcaDims},
          {"model.pca_noise", m_pcaNoise},
          {"model.pca_sample", m_pcaSample},
          {"optimizer.learning_rate", m_lr},
          {"optimizer.momentum", m_momentum},
          {"privacy.per_layer_clip", m_perLayer},
          {"privacy.tanh_c", m_tanhC},
          {"privacy.tanh_k", m_tanhK},
          {"privacy.target_quantile", m_quantile},
          {"privacy.clip_learning_rate", m_clipLr},
          {"privacy.noise_decay_rate", m_decayRate},
          {"privacy.microbatch_size", m_microbatch},
          {"privacy.secure_noise", m_secureNoise},
          {"training.lot_size", m_lot},
          {"training.epochs", m_epochs}};
}

void ExperimentPanel::loadBound(const train::ExperimentConfig& c) {
  for (const auto& [name, control] : boundControls()) {
    const train::ExperimentField& field = *train::fieldNamed(name);
    const train::FieldValue value = field.get(c);
    if (auto* check = qobject_cast<QCheckBox*>(control)) {
      check->setChecked(std::get<bool>(value));
      continue;
    }
    const double number = std::holds_alternative<long long>(value)
                              ? static_cast<double>(std::get<long long>(value))
                              : std::get<double>(value);
    if (auto* slider = qobject_cast<ParameterSlider*>(control))
      slider->setValue(number);
    else if (auto* box = qobject_cast<QDoubleSpinBox*>(control))
      box->setValue(number);
    else if (auto* box = qobject_cast<QSpinBox*>(control))
      box->setValue(static_cast<int>(number));
  }
}

void ExperimentPanel::writeBound(train::ExperimentConfig& c) const {
  for (const auto& [name, control] : boundControls()) {
    const train::ExperimentField& field = *train::fieldNamed(name);
    if (const auto* check = qobject_cast<const QCheckBox*>(control)) {
      field.set(c, check->isChecked());
      continue;
    }
    const train::FieldValue loaded = field.get(c);
    const bool integer = std::holds_alternative<long long>(loaded);
    const double before =
        integer ? static_cast<double>(std::get<long long>(loaded)) : std::get<double>(loaded);
    double value = before;
    if (const auto* slider = qobject_cast<const ParameterSlider*>(control))
      value = sliderValue(slider, before);
    else if (const auto* box = qobject_cast<const QDoubleSpinBox*>(control))
      value = valueOrLoaded(box, before);
    else if (const auto* box = qobject_cast<const QSpinBox*>(control))
      value = static_cast<double>(valueOrLoaded(box, std::get<long long>(loaded)));
    field.set(c, integer ? train::FieldValue(static_cast<long long>(std::llround(value)))
                         : train::FieldValue(value));
  }
}

void ExperimentPanel::applyDatasetDefaults() {
  const auto* info = currentDataset();
  if (!info) return;
  // What the panel held, on the data set it held it for: Undo brings it back exactly.
  train::ExperimentConfig before = config();
  before.dataset = m_base.dataset;
  const QString error = loadConfig(datasetDefaults(*info));
  if (!error.isEmpty()) return;
  m_beforeDefaults = before;
  const train::ExperimentConfig c = config();
  m_defaultsNote->setText(
      tr("Settings for %1 applied: %2 · %3 η %4 · σ %5 · C %6 · lot %7 · %8 epochs.")
          .arg(QString::fromStdString(info->name), QString::fromStdString(c.model.preset),
               m_optimizer->currentText(), formatNumber(c.optimizer.learningRate),
               formatNumber(c.privacy.noise.initial), formatNumber(c.privacy.privatizer.clipNorm))
          .arg(c.training.lotSize)
          .arg(formatNumber(c.training.epochs)));
  m_defaultsNote->show();
  m_undoDefaults->show();
}

void ExperimentPanel::undoDatasetDefaults() {
  if (!setConfig(m_beforeDefaults).isEmpty()) return;
  onChanged();
  onCommitted();
}

}  // namespace epsilon::ui
