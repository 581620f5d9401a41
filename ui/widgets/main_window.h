// The main window: the Experiment panel and the live privacy readout on the left, the
// chart grid in the centre, the Runs table below, the model view (decision boundary or
// test images) and the Help page as docks; menus and shortcuts for runs, sessions and
// exports. It wires panels to the controller and holds no maths. Split by responsibility:
// main_window.cpp (window, docks, menus, settings), main_window_session.cpp (sessions and
// exports), main_window_sweeps.cpp (runs, sweeps, presets), main_window_view.cpp (the View
// menu: presentation, Focus view, chart text size) and one file per view or mode.
#pragma once

#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>

#include "base/session/cluster_sweeps.h"
#include "core/data/dataset.h"
#include "core/train/sweep.h"

class QTimer;
class QAction;
class QDockWidget;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace epsilon::cluster {
struct SlurmSettings;
}

namespace epsilon::ui {

class AttackController;
class AttackView;
class ClusterSweeps;
struct ClusterSweepRequest;
class ChartPanel;
class ClassAccuracyView;
class DecisionBoundaryView;
class ExperimentPanel;
class FocusView;
class FontSizeControl;
class GradientNormView;
class ImageStrip;
class PrivacyReadout;
class RunModel;
class Session;
class SessionHistory;
class SessionOpener;
struct OpenOutcome;
class RunsView;
class SweepDialog;
class SweepMapView;
class TargetCalibrator;
class TrainingController;
class TuningSummaryView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  struct Options {
    bool useSettings = true;  // restore layout and parameters from QSettings, save them on close
    bool offerLastSession = false;  // ask to reopen the last session (the app does; tests don't)
    int threads = 0;                // training threads (0 = all cores)
    // Closing with unsaved work asks Save / Discard / Cancel (the app does; tests don't).
    bool guardUnsavedWork = false;
    // Where the session's recovery copy is kept; offered at the next start if the app ended
    // without saving or discarding (a crash, a kill). Empty: no autosave.
    QString recoveryFile;
  };
  // The options of the app started with or without a session file and for a scripted
  // picture (--screenshot): a session given never triggers the "reopen last session" question.
  static Options startupOptions(bool sessionGiven, bool scripted);
  explicit MainWindow(QWidget* parent = nullptr);
  MainWindow(Options options, QWidget* parent = nullptr);
  ~MainWindow() override;

  ExperimentPanel* experimentPanel() const { return m_panel; }
  PrivacyReadout* privacyReadout() const { return m_readout; }
  ChartPanel* chartPanel() const { return m_charts; }
  RunModel* runModel() const { return m_runs; }
  RunsView* runsView() const { return m_runsView; }
  TrainingController* controller() const { return m_controller; }
  DecisionBoundaryView* boundaryView() const { return m_boundary; }
  ImageStrip* imageStrip() const { return m_images; }
  GradientNormView* gradientNormView() const { return m_gradientNorms; }
  AttackView* attackView() const { return m_attackView; }
  AttackController* attackController() const { return m_attackController; }
  SweepMapView* sweepMapView() const { return m_sweepMap; }
  TuningSummaryView* tuningSummaryView() const { return m_tuningSummary; }
  ClassAccuracyView* classAccuracyView() const { return m_classAccuracy; }
  // Selects the run in the Runs table (a click on the sweep map asks for it).
  void selectRunInTable(int runId);
  QTabWidget* centralTabs() const { return m_tabs; }
  FocusView* focusView() const { return m_focus; }
  FontSizeControl* fontSize() const { return m_fontSize; }
  // Shows the central tab whose title is `name` ("Charts", "Attack"; case-insensitive).
  bool showTab(const QString& name);
  SessionHistory* undoStack() const { return m_undo; }
  Session* session() const { return m_session; }
  ClusterSweeps* clusterSweeps() const { return m_clusterSweeps; }
  QString lastError() const { return m_lastError; }

  // The actions, without dialogs (tests and scripts call these).
  // The new run's id; 0 when it did not start — refused with a message, or waiting for "Fix ε"'s
  // calibration, after which it starts by itself.
  int startRun(bool live = false);
  // Starts every point of a sweep as a run; progress for the whole sweep shows in the status bar.
  QList<int> startSweep(const std::vector<train::SweepPoint>& points);
  // The Sweep dialog's sweep: here (startSweep) or sent to Slurm (ClusterSweeps::submit), the
  // runs queued at once either way.
  // With a target ε (the panel's "Fix ε", or a target_epsilon axis) each point's σ is first
  // calibrated for its own settings as a job: this returns no ids then, the runs start when
  // the calibration comes back (or its error is shown, nothing started).
  QList<int> startSweepFrom(const SweepDialog& dialog);
  // The panel's target ε when "Calibrate σ to a target ε" is on (and the run adds noise).
  std::optional<double> panelTargetEpsilon() const;
  void cancelSweep();
  // Runs a built-in preset (by name) as the document did: a sweep of runs, or for an
  // accountant-only preset its ε curves at once. Returns the runs' ids; empty with the
  // message shown on failure.
  QList<int> runPreset(const QString& name);
  // The same preset's runs sent to Slurm (ClusterSweeps::submit of `sweep --preset NAME
  // --dataset D`, D the data set planned here), followed like a cluster sweep of the Sweep
  // dialog; an accountant-only preset trains nothing and is drawn at once (runPreset).
  QList<int> runPresetOnCluster(const QString& name, const QString& folder, const QString& cli,
                                const cluster::SlurmSettings& settings);
  int sweepRemaining() const;
  // The runs' experiments again without privacy, as new runs (the Runs table's "Compare to
  // non-private"); non-private runs are skipped. Returns the new runs' ids.
  QList<int> compareToNonPrivate(const QList<int>& ids);
  // Opens a lesson file (the Lessons menu passes ":/lessons/…"): sets up the panel, starts
  // its runs and shows its paragraph and question. Returns the runs' ids; empty on failure.
  // A built-in lesson's name ("noise-and-epsilon") is accepted as well as a file.
  QList<int> openLesson(const QString& file);
  // Brings a dock to the front: "gradient-norms", "model", "help", "lesson"; false if unknown.
  bool raiseView(const QString& name);
  QString saveSessionTo(const QString& path);  // empty on success, else the message shown
  // Opens a session, run file or run folder and returns when its runs are in: empty on
  // success, else the message shown (the runs on screen are kept). The window paints
  // meanwhile (startOpeningSession, waited for in a local event loop).
  QString openSessionFrom(const QString& path);
  // File › Open session: reads and checks the runs as a job (progress in the status bar,
  // File › Cancel opening) and adds them in chunks; returns at once. sessionOpened follows.
  void startOpeningSession(const QString& path);
  bool openingSession() const;
  // Stops an open still reading: the runs on screen stay. False when there is none to stop.
  bool cancelOpeningSession();
  // -1: the grid. `privacyCaption`: the shown runs' δ, accountant and sampling under it.
  QString exportChartTo(int chartKind, const QString& path, QSize size, int dpi,
                        bool privacyCaption = false);
  QString exportHistoryTo(const QString& path);  // .csv or .json
  // Loads a folder of IDX or CIFAR-10 files as a job; dataFolderOpened(path, error) follows.
  void openDataFolder(const QString& path);
  void setPresentationMode(bool on);

 Q_SIGNALS:
  // A folder asked for with openDataFolder was added ("" error) or refused (the message).
  void dataFolderOpened(const QString& path, const QString& error);
  // An open of startOpeningSession ended: "" error when its runs are in; cancelled: nothing
  // changed.
  void sessionOpened(const QString& path, const QString& error, bool cancelled);

 protected:
  void closeEvent(QCloseEvent* event) override;
  // Tabs of tabified docks show their whole titles, spaced tightly (tight_tabs.h) so that
  // Model view, Help and Gradient norms sit side by side at 1024 pixels in presentation mode,
  // with scroll arrows when they still do not fit: an elided "M…" names nothing.
  void childEvent(QChildEvent* event) override;

 private:
  void buildDocks();
  QDockWidget* buildReadoutDock();  // the Privacy budget readout, titled by what it shows
  void buildGradientNormDock();
  void buildCentralTabs();
  void buildSweepMapTab();  // main_window_sweep_map.cpp
  // Starts the points here, or sends them to Slurm as `cluster` asks.
  QList<int> launchSweep(const std::vector<train::SweepPoint>& points,
                         std::optional<ClusterSweepRequest> cluster);
  void connectPanel();
  void connectController();
  void buildMenus();
  void buildFileMenu();
  void buildEditMenu();
  void buildRunMenu();
  void buildViewMenu();
  void buildHelpMenu();
  // main_window_session.cpp: the File menu's exports and the session dialogs.
  void buildExportActions(QMenu* file);
  void askSaveSession();
  void copyChartGrid();
  void buildSweepStatus();
  void buildPresetsMenu();
  // A preset chosen in the menu: here, or (Presets › Run presets on › Slurm cluster) the
  // Slurm dialog first (cluster_options.h).
  void presetChosen(const QString& name);
  // runPreset (cluster null) and runPresetOnCluster (where the request says).
  QList<int> runPresetOn(const QString& name, ClusterSweepRequest* cluster);
  // Names the request's runs, submits it and shows its progress as the sweep's.
  QList<int> sendToCluster(ClusterSweepRequest request);
  void buildLessonsMenu();
  void buildPaceMenu();
  // The config with the Pace menu's choice (kept as it is while the choice is "as set").
  train::ExperimentConfig paced(train::ExperimentConfig config) const;
  QDockWidget* lessonDock();
  void updateReadout();
  void onCommitted();
  void onDatasetChanged();
  void showRunModel(int runId);
  void duplicateIntoPanel(int runId);
  void rerun(const QList<int>& ids);
  // Starts, for each run, `change`(its config) as a new run named among the others (re-run,
  // compare to non-private); returns the new runs' ids.
  QList<int> startCopies(
      const QList<int>& ids,
      const std::function<train::ExperimentConfig(const train::ExperimentConfig&)>& change);
  void showError(const QString& title, const QString& message);
  void fitDocksToFont();
  void applyChartFonts();  // the text size control's step and the mode's size, every chart  //
                           // after a font change (presentation mode): docks sized to content
  void restoreSettings();
  void saveSettings();
  void askReopenLastSession();
  void updateTitle();
  void updateSweepProgress();
  int startLiveRun(const train::ExperimentConfig& config, const QString& name);
  void rememberLiveMode(bool on);

  // Asks Save / Discard / Cancel for unsaved work; false: stay open.
  bool settleUnsavedWork();
  void offerRecovery();
  void showGradientNorms(int runId);  // the run's last lot, if the controller holds one
  void connectDataFolders();
  void onFolderLoaded(const QString& name, const std::shared_ptr<const data::Dataset>& dataset);
  void onFolderFailed(const QString& name, const QString& message);
  void connectSessionOpener();
  void onSessionOpened(const OpenOutcome& outcome);

  Options m_options;
  Session* m_session;
  RunModel* m_runs;
  SessionHistory* m_undo;
  TrainingController* m_controller;
  ExperimentPanel* m_panel = nullptr;
  PrivacyReadout* m_readout = nullptr;
  ChartPanel* m_charts = nullptr;
  RunsView* m_runsView = nullptr;
  DecisionBoundaryView* m_boundary = nullptr;
  ImageStrip* m_images = nullptr;
  GradientNormView* m_gradientNorms = nullptr;
  QTabWidget* m_tabs = nullptr;
  AttackView* m_attackView = nullptr;
  AttackController* m_attackController = nullptr;
  SweepMapView* m_sweepMap = nullptr;
  TuningSummaryView* m_tuningSummary = nullptr;
  ClassAccuracyView* m_classAccuracy = nullptr;
  QTimer* m_liveDebounce;
  QAction* m_liveAction = nullptr;
  QAction* m_presentationAction = nullptr;
  FocusView* m_focus = nullptr;
  FontSizeControl* m_fontSize = nullptr;
  std::unique_ptr<TargetCalibrator> m_sweepCalibration;  // a sweep's σ per point, as a job
  QProgressBar* m_sweepProgress = nullptr;
  QPushButton* m_sweepCancel = nullptr;
  QList<int> m_sweepRuns;
  ClusterSweeps* m_clusterSweeps = nullptr;  // sweeps sent to Slurm, followed as they land
  SessionOpener* m_opener = nullptr;         // File › Open session, as a job
  QAction* m_cancelOpenAction = nullptr;
  double m_paceSeconds = -1.0;  // < 0: each config's own pace
  QString m_sessionPath;        // the session (or run file, run folder) last opened or saved
  QString m_saveSuggestion;     // what Save session proposes (never a run file or folder)
  QString m_lastError;
  QString m_pendingFolder;
  int m_readoutRun = 0;  // the run the Privacy budget readout describes (0: the panel's settings)
                         // // the data folder being loaded for the list
  QString m_shownDataset;
  std::shared_ptr<const data::Dataset> m_dataset;
  // The run whose model was updated last: shown again when its data set arrives after it (a
  // run on a small set can finish before the set's own load for the model view returns).
  int m_lastModelRun = -1;
};

}  // namespace epsilon::ui
