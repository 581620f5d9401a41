// The Experiment panel: every parameter of a run — data set, network (and pca-mlp's DP-PCA
// projection), optimizer and learning rate, privatizer and its own parameters, noise and its
// schedule, lot size, epochs, δ, accountant, sampling, secure noise, seed — as sliders paired
// with spin boxes, with a tooltip on each saying what it does and its formula. It holds no maths:
// it produces an ExperimentConfig and says when it changed (while dragging) and when a change is
// final.
#pragma once

#include <QWidget>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "base/io/privacy_preview.h"
#include "base/jobs/job_service.h"
#include "base/session/target_calibrator.h"
#include "core/data/dataset_info.h"
#include "core/train/experiment_config.h"

class QComboBox;
class QCheckBox;
class QSpinBox;
class QDoubleSpinBox;
class QFormLayout;
class QGridLayout;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTimer;

namespace epsilon::ui {

class ParameterSlider;

class ExperimentPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ExperimentPanel(QWidget* parent = nullptr);

  // The config last loaded (or the one the data set opened with), with every field the
  // controls hold as they show it: nothing the panel has no control for is lost.
  train::ExperimentConfig config() const;
  // Loads a config into the controls (e.g. "Load into panel" of a run) and keeps it, so
  // config() gives it back unchanged until a control is changed; an error message if it
  // cannot. A data folder not in the list that no run has loaded yet is asked for with
  // dataFolderNeeded (the window loads it as a job) and the config follows when
  // addLoadedDataset brings it. Never applies the data set's defaults (choosing a data set in
  // the combo does, with an Undo beside it).
  QString setConfig(const train::ExperimentConfig& config);

  long long trainSize() const;
  long long parameterCount() const { return m_parameterCount; }
  QString modelProblem() const { return m_modelProblem; }  // why the network can't take the data
  const data::DatasetInfo* currentDataset() const;
  QString runName() const;  // a short name for a run of this config ("σ 1.1 · C 1 · clip")

  // Adds a loaded folder's data set to the list (once) and selects it; a config waiting for
  // this folder (setConfig) is loaded then.
  void addLoadedDataset(const QString& path, const std::shared_ptr<const data::Dataset>& dataset);
  bool selectDataset(const QString& name);
  // Every setting back to the current data set's defaults (core/train/teaching_defaults.h).
  void resetToDefaults();  // false if the list has no such set

  bool liveMode() const;
  void setLiveMode(bool on);
  bool targetEpsilonMode() const;
  // Presentation mode: each slider's label and value on one line above the slider, so the
  // panel is narrow and every value stays readable at a large font.
  void setCompactLayout(bool on);
  bool compactLayout() const { return m_compact; }
  // Also use the compact layout whenever `viewport` (the scroll area showing the panel) is
  // narrower than the one-line layout needs, so a narrow dock never hides values off its edge.
  void followViewportWidth(QWidget* viewport);

  ParameterSlider* noiseSlider() const { return m_sigma; }
  ParameterSlider* clipSlider() const { return m_clip; }
  ParameterSlider* epochsSlider() const { return m_epochs; }
  ParameterSlider* targetEpsilonSlider() const { return m_targetEpsilon; }
  QComboBox* datasetCombo() const { return m_dataset; }
  QComboBox* modelCombo() const { return m_model; }
  QComboBox* privatizerCombo() const { return m_privatizer; }
  QComboBox* accountantCombo() const { return m_accountant; }
  QComboBox* optimizerCombo() const { return m_optimizer; }
  QComboBox* scheduleCombo() const { return m_schedule; }
  QComboBox* samplingCombo() const { return m_sampling; }
  QComboBox* deltaCombo() const { return m_delta; }
  ParameterSlider* learningRateSlider() const { return m_lr; }
  ParameterSlider* lotSlider() const { return m_lot; }
  // Shown when choosing a data set applied its defaults; Undo restores what the panel held.
  QLabel* defaultsNote() const { return m_defaultsNote; }
  QPushButton* undoDefaultsButton() const { return m_undoDefaults; }
  QPushButton* runButton() const { return m_run; }
  QWidget* pcaControls() const { return m_pcaControls; }
  QSpinBox* pcaDimsBox() const { return m_pcaDims; }
  ParameterSlider* pcaNoiseSlider() const { return m_pcaNoise; }
  ParameterSlider* pcaSampleSlider() const { return m_pcaSample; }
  QCheckBox* secureNoiseBox() const { return m_secureNoise; }
  QCheckBox* targetModeBox() const { return m_targetMode; }  // "Fix ε instead and calibrate σ"
  QLabel* targetNote() const { return m_targetNote; }
  bool isCalibrating() const { return m_calibration.busy(); }
  // "Fix ε": calls `then` once config() holds the target's σ — at once when no calibration is
  // running, else when the newest one comes back (the GUI thread never waits for it). A later
  // call replaces an earlier `then` that has not run yet.
  void whenCalibrated(std::function<void()> then);

  // The controls that show one field of the experiment schema each, by the field's name
  // (core/train/experiment_schema.h): the one list of them. Loaded and read back through the
  // field's accessors and flagged by the checks; a combo of a choice field lists the field's
  // choices in the schema's order, each item carrying the choice's word (its text is the
  // panel's label for it). Bound by hand, for rules of their own: the data set (a folder is
  // loaded as a job first, and choosing one applies its defaults), the clip norm (shown by C
  // or, for adaptive clipping, C₀) and σ (0 for a baseline chosen here, calibrated by "Fix ε").
  std::vector<std::pair<const char*, QWidget*>> boundControls() const;
  ParameterSlider* initialClipSlider() const { return m_adaptiveC0; }  // adaptive clipping's C₀
  QCheckBox* liveModeBox() const { return m_live; }

 Q_SIGNALS:
  // Any parameter moved (also during a slider drag): the privacy readout follows it.
  void configChanged();
  // A change is final (slider released, value typed, choice made): live mode starts a run.
  void configCommitted();
  void runRequested();
  void datasetChanged();
  void openDataFolderRequested();
  void dataFolderNeeded(const QString& path);  // setConfig named a folder not loaded yet
  void liveModeChanged(bool on);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void applyCompactLayout(bool on);
  void followWidth();
  // The groups and their controls (experiment_panel_groups.cpp).
  QWidget* buildDataGroup();
  QWidget* buildModelGroup();
  QWidget* buildPcaControls(QWidget* parent);
  QWidget* buildPrivacyGroup();
  QWidget* buildPrivatizerPages(QWidget* parent);
  QWidget* buildClipPage();
  QWidget* buildTanhPage();
  QWidget* buildAdaptivePage();
  void addNoiseRows(QWidget* box, QFormLayout* form);
  void addAccountingRows(QWidget* box, QFormLayout* form);
  QWidget* buildTrainingGroup();
  void buildDefaultsNote(QWidget* box, QFormLayout* form);
  // Loading and reading back, group by group (experiment_panel_config.cpp).
  static train::ExperimentConfig datasetDefaults(const data::DatasetInfo& info);
  train::ExperimentConfig openingConfig() const;
  QString loadConfig(const train::ExperimentConfig& config);
  void loadBound(const train::ExperimentConfig& config);
  void writeBound(train::ExperimentConfig& config) const;
  // The clip norm and σ, bound by hand: see boundControls.
  void loadClipAndNoise(const train::PrivacyConfig& config);
  void writeClipAndNoise(train::PrivacyConfig& config, privacy::PrivatizerKind loaded) const;
  // Gives each combo bound to a choice field one item per choice (boundControls).
  void fillChoiceCombos();
  void revealInScrollArea(QWidget* control);  // scrolls the dock's scroll area to it
  void applyDatasetDefaults();                // the user chose a data set
  void undoDatasetDefaults();
  // Every control reports changes the same way: configChanged while moving, configCommitted when
  // final.
  void connectControls();
  void refreshDatasetInfo();
  void refreshModel();
  void refreshDerived();
  void refreshIssues();  // experiment_panel_checks.cpp
  QWidget* controlFor(const std::string& field) const;
  void applyTargetEpsilon();
  void runAfterCalibration();
  void showCalibration(const train::ExperimentConfig& config, const TargetCalibration& result);
  void onChanged();
  void onCommitted();
  // config() read from the controls; onChanged keeps one for the rest of the step.
  train::ExperimentConfig buildConfig() const;
  void holdStepConfig();
  int datasetIndexByName(const QString& name) const;

  train::ExperimentConfig m_base;  // last loaded; config() starts from it
  // The settings of the control change being handled: built once by onChanged and read by
  // the panel's checks, the calibration, the readout and the session's commit alike (each
  // built them again: 5 times a slider step). Dropped after the commit, when controls are set
  // without a change signal (a config loaded, a calibrated σ, a network) and at the end of
  // the event loop's pass, so it never outlives the change.
  std::optional<train::ExperimentConfig> m_stepConfig;
  bool m_stepConfigDropQueued = false;
  train::ExperimentConfig m_beforeDefaults;  // what Undo restores after a data set's defaults
  std::vector<data::DatasetInfo> m_datasets;
  // What a combo of a choice field shows for a word (fillChoiceCombos); a word not listed
  // shows as itself.
  std::map<const QComboBox*, std::map<std::string, QString>> m_choiceLabels;
  QLabel* m_defaultsNote = nullptr;
  QPushButton* m_undoDefaults = nullptr;
  QComboBox* m_dataset = nullptr;
  QLabel* m_datasetInfo = nullptr;
  QComboBox* m_model = nullptr;
  QLabel* m_modelInfo = nullptr;
  QComboBox* m_optimizer = nullptr;
  ParameterSlider* m_lr = nullptr;
  QDoubleSpinBox* m_momentum = nullptr;
  QWidget* m_pcaControls = nullptr;  // pca-mlp's DP-PCA projection: k, σ_pca, f
  QSpinBox* m_pcaDims = nullptr;
  ParameterSlider* m_pcaNoise = nullptr;
  ParameterSlider* m_pcaSample = nullptr;
  QComboBox* m_privatizer = nullptr;
  QStackedWidget* m_privatizerPages = nullptr;
  ParameterSlider* m_clip = nullptr;
  QCheckBox* m_perLayer = nullptr;
  ParameterSlider* m_tanhC = nullptr;
  ParameterSlider* m_tanhK = nullptr;
  ParameterSlider* m_adaptiveC0 = nullptr;
  ParameterSlider* m_quantile = nullptr;
  ParameterSlider* m_clipLr = nullptr;
  QComboBox* m_clipPolicy = nullptr;
  ParameterSlider* m_sigma = nullptr;
  QCheckBox* m_targetMode = nullptr;
  ParameterSlider* m_targetEpsilon = nullptr;
  QLabel* m_targetNote = nullptr;
  QComboBox* m_schedule = nullptr;
  QDoubleSpinBox* m_decayRate = nullptr;
  QGridLayout* m_scheduleRow = nullptr;  // the schedule, then ρ (below it when compact)
  QSpinBox* m_microbatch = nullptr;
  ParameterSlider* m_lot = nullptr;
  QLabel* m_lotInfo = nullptr;
  ParameterSlider* m_epochs = nullptr;
  QComboBox* m_delta = nullptr;
  QComboBox* m_accountant = nullptr;
  QComboBox* m_sampling = nullptr;
  QCheckBox* m_secureNoise = nullptr;
  QSpinBox* m_seed = nullptr;
  QCheckBox* m_live = nullptr;
  QPushButton* m_run = nullptr;
  QLabel* m_issues = nullptr;         // checkConfig's messages, above Run
  QList<QWidget*> m_flaggedControls;  // controls framed for an issue
  long long m_parameterCount = 0;
  TargetCalibrator m_calibration;            // "Fix ε": σ₀ for the target, off the GUI thread
  std::function<void()> m_afterCalibration;  // whenCalibrated()'s waiting continuation
  std::optional<train::ExperimentConfig> m_configAwaitingFolder;  // setConfig's, see there
  QString m_modelProblem;
  bool m_loading = false;
  bool m_compact = false;
  bool m_forcedCompact = false;   // presentation mode
  int m_oneLineWidth = 0;         // the one-line layout's minimum width at the current font
  QWidget* m_viewport = nullptr;  // followViewportWidth's scroll area viewport
};

}  // namespace epsilon::ui
