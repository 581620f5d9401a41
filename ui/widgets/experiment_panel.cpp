#include "ui/widgets/experiment_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <optional>
#include <utility>

#include "base/io/number_format.h"
#include "base/io/privacy_preview.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "ui/widgets/parameter_slider.h"

namespace epsilon::ui {

namespace {

QString shapeText(const data::SampleShape& s) {
  return s.isImage ? QStringLiteral("%1×%2×%3").arg(s.channels).arg(s.height).arg(s.width)
                   : QObject::tr("%1 features").arg(s.featureCount());
}

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(buildDataGroup());
  layout->addWidget(buildModelGroup());
  layout->addWidget(buildPrivacyGroup());
  layout->addWidget(buildTrainingGroup());
  fillChoiceCombos();

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
  loadConfig(openingConfig());  // the first config the panel keeps
}

void ExperimentPanel::connectControls() {
  for (ParameterSlider* s : findChildren<ParameterSlider*>()) {
    connect(s, &ParameterSlider::valueChanged, this, &ExperimentPanel::onChanged);
    connect(s, &ParameterSlider::valueCommitted, this, &ExperimentPanel::onCommitted);
  }
  for (QComboBox* c : findChildren<QComboBox*>()) {
    if (c == m_dataset) continue;  // below: its defaults come first
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
    if (!m_loading) applyDatasetDefaults();  // chosen by the user, not loaded
    Q_EMIT datasetChanged();
    onChanged();
    onCommitted();
  });
  connect(m_undoDefaults, &QPushButton::clicked, this, &ExperimentPanel::undoDatasetDefaults);
  connect(m_model, &QComboBox::currentIndexChanged, this, &ExperimentPanel::refreshModel);
  connect(m_pcaDims, &QSpinBox::valueChanged, this, &ExperimentPanel::refreshModel);  // k sets P
  // The stack shows the page of the chosen privatizer, and takes the size of that page, not of
  // its largest one.
  auto showPage = [this] {
    const QVariant kind = m_privatizer->currentData();
    for (int i = 0; i < m_privatizerPages->count(); ++i) {
      QWidget* page = m_privatizerPages->widget(i);
      const bool shown = page->property("privatizer") == kind;
      const auto policy = shown ? QSizePolicy::Preferred : QSizePolicy::Ignored;
      page->setSizePolicy(policy, policy);
      if (shown) m_privatizerPages->setCurrentWidget(page);
    }
    m_privatizerPages->adjustSize();
  };
  connect(m_privatizer, &QComboBox::currentIndexChanged, this, showPage);
  showPage();
}

int ExperimentPanel::datasetIndexByName(const QString& name) const {
  for (int i = 0; i < static_cast<int>(m_datasets.size()); ++i)
    if (QString::fromStdString(m_datasets[static_cast<std::size_t>(i)].name) == name) return i;
  return -1;
}

const data::DatasetInfo* ExperimentPanel::currentDataset() const {
  const int i = datasetIndexByName(m_dataset->currentData().toString());
  return i >= 0 ? &m_datasets[static_cast<std::size_t>(i)] : nullptr;
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
  refreshModel();
}

void ExperimentPanel::refreshModel() {
  m_stepConfig.reset();  // the network or data set changed before any onChanged
  const auto* info = currentDataset();
  m_modelProblem.clear();
  m_parameterCount = 0;
  if (info) {
    const ModelSize size = modelSize(config(), *info);  // counted as the trainer will build it
    m_parameterCount = size.parameterCount;
    m_modelProblem = size.problem;
  }
  m_modelInfo->setText(m_modelProblem.isEmpty()
                           ? tr("%1 parameters").arg(m_parameterCount)
                           : QStringLiteral("<span style='color:#c00'>%1</span>")
                                 .arg(m_modelProblem.toHtmlEscaped()));
  m_run->setEnabled(m_modelProblem.isEmpty());
  m_pcaControls->setVisible(m_model->currentData().toString() == QStringLiteral("pca-mlp"));
  refreshDerived();
  onChanged();
}

void ExperimentPanel::refreshDerived() {
  const train::ExperimentConfig c = config();
  const long long n = trainSize();
  if (n > 0) m_lotInfo->setText(samplingLine(c, n));
  const bool noisy = c.privacy.privatizer.kind != privacy::PrivatizerKind::None;
  const bool constant = c.privacy.noise.decay == privacy::NoiseDecay::Constant;
  m_sigma->setEnabled(noisy && !m_targetMode->isChecked());
  m_momentum->setEnabled(c.optimizer.options.kind == optim::OptimizerKind::Momentum);
  m_decayRate->setEnabled(!constant);
  m_targetMode->setEnabled(noisy);  // a schedule is calibrated through σ₀ (run_planning.h)
}

void ExperimentPanel::applyTargetEpsilon() {
  const bool active = m_targetMode->isChecked() && m_targetMode->isEnabled();
  const long long n = trainSize();
  if (!active || n < 1) {
    m_calibration.cancel();
    m_targetNote->clear();
    m_targetNote->setVisible(false);
    runAfterCalibration();  // σ is the user's own again: a waiting run goes ahead with it
    return;
  }
  // In the background (a PLD calibration takes about a second): the newest target wins, and
  // σ moves when its calibration comes back.
  const train::ExperimentConfig c = config();
  const train::RunPlanInput input{n, std::max<long long>(1, m_parameterCount)};
  const double target = m_targetEpsilon->value();
  m_calibration.request(this, c, input, target, [this, c](const TargetCalibration& result) {
    showCalibration(c, result);
    runAfterCalibration();
  });
}

void ExperimentPanel::whenCalibrated(std::function<void()> then) {
  m_afterCalibration = std::move(then);
  if (!m_calibration.busy()) runAfterCalibration();
}

void ExperimentPanel::runAfterCalibration() {
  if (!m_afterCalibration) return;
  const std::function<void()> then = std::exchange(m_afterCalibration, {});
  then();
}

void ExperimentPanel::showCalibration(const train::ExperimentConfig& c,
                                      const TargetCalibration& result) {
  QString note;
  m_stepConfig.reset();  // σ is set below without a change signal
  if (result.sigma) {
    const QSignalBlocker block(m_sigma);
    m_sigma->setValue(std::min(*result.sigma, 20.0));
    if (result.pca)
      note = tr("σ calibrated with the PCA release held fixed: σ_pca %1 costs ε = %2 on its own; "
                "the steps get the rest.")
                 .arg(formatNumber(c.model.pcaNoise), formatEpsilon(result.pca->epsilon));
  } else if (c.model.usesPca()) {
    // Unreachable targets leave σ as it was; the readout states the ε that σ gives. With a
    // PCA release the reason is worth saying (it may spend the whole budget by itself).
    note = result.error;
  }
  m_targetNote->setText(note);
  m_targetNote->setVisible(!note.isEmpty());
  refreshIssues();
  Q_EMIT configChanged();
}

void ExperimentPanel::onChanged() {
  if (m_loading) return;
  holdStepConfig();
  refreshDerived();
  applyTargetEpsilon();
  refreshIssues();
  Q_EMIT configChanged();
}

void ExperimentPanel::onCommitted() {
  if (m_loading) return;
  Q_EMIT configCommitted();
  m_stepConfig.reset();
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

void ExperimentPanel::setCompactLayout(bool on) {
  m_forcedCompact = on;
  applyCompactLayout(on);
  // A projector shows only part of the panel: scroll so the noise σ is in view, with the
  // learning rate and the clip norm above it, once the dock has its new width.
  if (on) QTimer::singleShot(100, this, [this] { revealInScrollArea(m_sigma); });
  // Leaving presentation mode: the dock may still be too narrow for the one-line layout.
  QTimer::singleShot(0, this, &ExperimentPanel::followWidth);
}

void ExperimentPanel::followViewportWidth(QWidget* viewport) {
  m_viewport = viewport;
  viewport->installEventFilter(this);
}

bool ExperimentPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_viewport && event->type() == QEvent::Resize)
    QTimer::singleShot(0, this, &ExperimentPanel::followWidth);
  return QWidget::eventFilter(watched, event);
}

// Compact when forced or when the viewport is narrower than the one-line layout, measured while
// that layout is in place (so the choice cannot flip back and forth at one width).
void ExperimentPanel::followWidth() {
  if (!m_viewport) return;
  if (!m_compact) m_oneLineWidth = minimumSizeHint().width();
  const bool compact = m_forcedCompact || m_viewport->width() < m_oneLineWidth;
  if (compact != m_compact) applyCompactLayout(compact);
}

void ExperimentPanel::applyCompactLayout(bool on) {
  m_compact = on;
  for (ParameterSlider* s : findChildren<ParameterSlider*>()) s->setCompact(on);
  // Labels above their fields when a row is too long: the width is the widest field, not the
  // widest label plus the widest field.
  for (QFormLayout* form : findChildren<QFormLayout*>())
    form->setRowWrapPolicy(on ? QFormLayout::WrapLongRows : QFormLayout::DontWrapRows);
  // ρ goes below the schedule's name: side by side they set the privacy group's width.
  QLayoutItem* rho = m_scheduleRow->itemAtPosition(on ? 0 : 1, on ? 2 : 0);
  QWidget* rhoLabel = rho ? rho->widget() : nullptr;
  if (rhoLabel) {
    m_scheduleRow->removeWidget(rhoLabel);
    m_scheduleRow->removeWidget(m_decayRate);
    m_scheduleRow->addWidget(rhoLabel, on ? 1 : 0, on ? 0 : 2, Qt::AlignRight);
    m_scheduleRow->addWidget(m_decayRate, on ? 1 : 0, on ? 1 : 3);
  }
  // A combo never shows its choice cut: narrower than its text, its row wraps instead.
  for (QComboBox* combo : findChildren<QComboBox*>())
    combo->setMinimumWidth(on ? combo->sizeHint().width() : 0);
  // Check boxes do not wrap: in compact form they say less, and their tooltips say the rest.
  const std::pair<QCheckBox*, QString> shortTexts[] = {
      {m_perLayer, tr("Per layer (C/√layers)")},
      {m_targetMode, tr("Calibrate σ to a target ε")},
      {m_secureNoise, tr("Secure noise (OS)")}};
  for (const auto& [box, shortText] : shortTexts) {
    if (!box->property("fullText").isValid()) box->setProperty("fullText", box->text());
    box->setText(on ? shortText : box->property("fullText").toString());
  }
  // Layouts cache their items' sizes: have every one ask again.
  for (QLayout* layout : findChildren<QLayout*>()) layout->invalidate();
  for (QWidget* w : findChildren<QWidget*>()) w->updateGeometry();
  updateGeometry();
}

void ExperimentPanel::revealInScrollArea(QWidget* control) {
  for (QWidget* w = parentWidget(); w; w = w->parentWidget())
    if (auto* area = qobject_cast<QScrollArea*>(w)) {
      area->ensureWidgetVisible(control, 0, 8);
      return;
    }
}

void ExperimentPanel::resetToDefaults() {
  setConfig(openingConfig());
}

bool ExperimentPanel::selectDataset(const QString& name) {
  const int existing = datasetIndexByName(name);
  if (existing >= 0) m_dataset->setCurrentIndex(existing);
  return existing >= 0;
}

void ExperimentPanel::addLoadedDataset(const QString& path,
                                       const std::shared_ptr<const data::Dataset>& dataset) {
  if (m_configAwaitingFolder && m_configAwaitingFolder->dataset.name == path.toStdString()) {
    const train::ExperimentConfig waiting = *std::exchange(m_configAwaitingFolder, std::nullopt);
    addLoadedDataset(path, dataset);
    setConfig(waiting);
    return;
  }
  if (selectDataset(path)) return;
  data::DatasetInfo info;
  info.name = path.toStdString();
  info.description = dataset->name;
  info.provenance = dataset->provenance;
  info.location = path.toStdString();
  info.trainSize = static_cast<long>(dataset->train.size());
  info.testSize = static_cast<long>(dataset->test.size());
  info.shape = dataset->shape;
  info.classCount = dataset->classCount();
  m_datasets.push_back(info);
  m_dataset->addItem(path, path);
  m_dataset->setCurrentIndex(m_dataset->count() - 1);
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
