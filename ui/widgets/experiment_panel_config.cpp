// ExperimentPanel: loading a config into the controls and reading it back: the controls that
// show one schema field each through the binding table (boundControls), then the clip norm and
// σ by hand.
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

double numberOf(const train::FieldValue& value) {
  return std::holds_alternative<long long>(value) ? static_cast<double>(std::get<long long>(value))
                                                  : std::get<double>(value);
}

// A combo's items carry a choice's word, or a number (δ): selects the item carrying `value`,
// adding a number not listed yet.
void selectValue(QComboBox* combo, const train::FieldValue& value) {
  if (const auto* word = std::get_if<std::string>(&value)) {
    const int index = combo->findData(QString::fromStdString(*word));
    if (index >= 0) combo->setCurrentIndex(index);  // the combo lists the field's choices
    return;
  }
  const double number = numberOf(value);
  if (combo->findData(number) < 0) combo->addItem(formatDelta(number), number);
  combo->setCurrentIndex(combo->findData(number));
}

// Shows a field's value in the control bound to it (ExperimentPanel::boundControls).
void showValue(QWidget* control, const train::FieldValue& value) {
  if (auto* check = qobject_cast<QCheckBox*>(control))
    check->setChecked(std::get<bool>(value));
  else if (auto* combo = qobject_cast<QComboBox*>(control))
    selectValue(combo, value);
  else if (auto* integer = qobject_cast<QSpinBox*>(control))  // a seed beyond int's: clamped
    integer->setValue(static_cast<int>(
        std::clamp<long long>(std::get<long long>(value), integer->minimum(), integer->maximum())));
  else if (auto* slider = qobject_cast<ParameterSlider*>(control))
    slider->setValue(numberOf(value));
  else if (auto* box = qobject_cast<QDoubleSpinBox*>(control))
    box->setValue(numberOf(value));
}

// The value the control holds for its field: `loaded` while it still shows it as loading it
// displayed it (rounded or clamped), else what the user set.
train::FieldValue shownOrLoaded(const QWidget* control, const train::FieldValue& loaded) {
  if (const auto* check = qobject_cast<const QCheckBox*>(control)) return check->isChecked();
  if (const auto* combo = qobject_cast<const QComboBox*>(control)) {
    const QVariant data = combo->currentData();
    if (!data.isValid()) return loaded;
    if (std::holds_alternative<std::string>(loaded)) return data.toString().toStdString();
    return data.toDouble();
  }
  if (const auto* box = qobject_cast<const QSpinBox*>(control))
    return valueOrLoaded(box, std::get<long long>(loaded));
  double value = numberOf(loaded);
  if (const auto* slider = qobject_cast<const ParameterSlider*>(control))
    value = sliderValue(slider, value);
  else if (const auto* box = qobject_cast<const QDoubleSpinBox*>(control))
    value = valueOrLoaded(box, value);
  if (std::holds_alternative<long long>(loaded)) return static_cast<long long>(std::llround(value));
  return value;
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
  const privacy::PrivatizerKind loaded = c.privacy.privatizer.kind;
  writeBound(c);
  writeClipAndNoise(c.privacy, loaded);
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
  loadBound(c);
  loadClipAndNoise(c.privacy);
  m_base = c;
  m_loading = false;
  m_stepConfig.reset();
  refreshModel();
  return {};
}

void ExperimentPanel::loadClipAndNoise(const train::PrivacyConfig& c) {
  m_clip->setValue(c.privatizer.clipNorm);
  m_adaptiveC0->setValue(c.privatizer.clipNorm);
  // A baseline saved with σ = 0 leaves the slider where it was, for when clipping is chosen.
  if (c.privatizer.kind != privacy::PrivatizerKind::None || c.noise.initial > 0)
    m_sigma->setValue(c.noise.initial);
  m_targetMode->setChecked(false);
}

// After writeBound: the privatizer is the one chosen, `loaded` the one loaded.
void ExperimentPanel::writeClipAndNoise(train::PrivacyConfig& c,
                                        privacy::PrivatizerKind loaded) const {
  auto& p = c.privatizer;
  const bool adaptive = p.kind == privacy::PrivatizerKind::Adaptive;
  p.clipNorm = sliderValue(adaptive ? m_adaptiveC0 : m_clip, p.clipNorm);
  // The baseline chosen here has no noise; a loaded one keeps the σ it was loaded with.
  if (p.kind != privacy::PrivatizerKind::None)
    c.noise.initial = sliderValue(m_sigma, c.noise.initial);
  else if (loaded != privacy::PrivatizerKind::None)
    c.noise.initial = 0.0;
}

std::vector<std::pair<const char*, QWidget*>> ExperimentPanel::boundControls() const {
  return {{"model.preset", m_model},
          {"model.pca_dims", m_pcaDims},
          {"model.pca_noise", m_pcaNoise},
          {"model.pca_sample", m_pcaSample},
          {"privacy.privatizer", m_privatizer},
          {"privacy.per_layer_clip", m_perLayer},
          {"privacy.tanh_c", m_tanhC},
          {"privacy.tanh_k", m_tanhK},
          {"privacy.target_quantile", m_quantile},
          {"privacy.clip_learning_rate", m_clipLr},
          {"privacy.clip_policy", m_clipPolicy},
          {"privacy.noise_schedule", m_schedule},
          {"privacy.noise_decay_rate", m_decayRate},
          {"privacy.microbatch_size", m_microbatch},
          {"privacy.delta", m_delta},
          {"privacy.accountant", m_accountant},
          {"privacy.sampling", m_sampling},
          {"privacy.secure_noise", m_secureNoise},
          {"optimizer.name", m_optimizer},
          {"optimizer.learning_rate", m_lr},
          {"optimizer.momentum", m_momentum},
          {"training.lot_size", m_lot},
          {"training.epochs", m_epochs},
          {"training.seed", m_seed}};
}

void ExperimentPanel::fillChoiceCombos() {
  for (const auto& [name, control] : boundControls()) {
    auto* combo = qobject_cast<QComboBox*>(control);
    const train::ExperimentField& field = *train::fieldNamed(name);
    if (!combo || !field.choices) continue;
    const auto& labels = m_choiceLabels[combo];
    for (const std::string& word : field.choices()) {
      const auto label = labels.find(word);
      combo->addItem(label != labels.end() ? label->second : QString::fromStdString(word),
                     QString::fromStdString(word));
    }
  }
}

void ExperimentPanel::loadBound(const train::ExperimentConfig& c) {
  for (const auto& [name, control] : boundControls())
    showValue(control, train::fieldNamed(name)->get(c));
}

void ExperimentPanel::writeBound(train::ExperimentConfig& c) const {
  for (const auto& [name, control] : boundControls()) {
    const train::ExperimentField& field = *train::fieldNamed(name);
    field.set(c, shownOrLoaded(control, field.get(c)));
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
