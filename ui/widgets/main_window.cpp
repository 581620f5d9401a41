#include "ui/widgets/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "base/io/experiment_json.h"
#include "base/session/dataset_store.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "base/session/session_history.h"
#include "base/session/target_calibrator.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/control_input_filter.h"
#include "ui/widgets/decision_boundary_view.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/file_dialogs.h"
#include "ui/widgets/image_strip.h"
#include "ui/widgets/privacy_readout.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_dialog.h"
#include "ui/widgets/tight_tabs.h"
#include "ui/widgets/training_controller.h"

void epsilonInitResources() {
  Q_INIT_RESOURCE(epsilonlab);
}

namespace epsilon::ui {

namespace {
constexpr int kLiveDebounceMs = 350;
}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(Options{}, parent) {}

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent),
      m_options(options),
      m_session(new Session(this)),
      m_runs(m_session->runs()),
      m_undo(m_session->history()),
      m_controller(new TrainingController(m_runs, this, options.threads)),
      m_liveDebounce(new QTimer(this)) {
  epsilonInitResources();
  ControlInputFilter::installOnce();
  setObjectName(QStringLiteral("EpsilonLabMainWindow"));
  m_charts = new ChartPanel(m_runs, this);
  buildDocks();
  buildGradientNormDock();
  buildCentralTabs();
  buildMenus();
  buildLessonsMenu();
  buildPaceMenu();
  buildSweepStatus();
  statusBar()->showMessage(
      tr("Move a slider: ε follows at once. Run (Ctrl+R) trains; live mode retrains on every "
         "release."));
  m_liveDebounce->setSingleShot(true);
  m_liveDebounce->setInterval(kLiveDebounceMs);
  connect(m_liveDebounce, &QTimer::timeout, this, [this] {
    if (m_panel->isCalibrating()) return m_liveDebounce->start();  // wait for the new σ
    startRun(true);
  });
  connectPanel();
  connectController();
  connectSessionOpener();
  connect(m_runs, &RunModel::runsChanged, this, &MainWindow::updateTitle);

  // The first window fits the screen's available area (a 1024×768 projector included), with
  // room for the window manager's frame.
  const QSize room = screen() ? screen()->availableGeometry().size() - QSize(8, 40) : QSize();
  resize(room.isValid() ? QSize(1500, 950).boundedTo(room) : QSize(1500, 950));
  if (m_options.useSettings) restoreSettings();
  // Live mode is off until turned on: a moved control must not replace a finished run unasked.
  if (!m_options.useSettings) m_panel->setLiveMode(false);
  onDatasetChanged();
  updateReadout();
  updateTitle();  // the window is named before any session is opened
  m_session->resetPanelConfig(m_panel->config());
  m_session->setRecoveryFile(m_options.recoveryFile);
  connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
  connectDataFolders();
  connect(m_session, &Session::recoveryFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 10000);
  });
  // Work a crash or a kill left behind comes first; then the last saved session.
  if (!m_options.recoveryFile.isEmpty() && QFileInfo::exists(m_options.recoveryFile))
    QTimer::singleShot(0, this, &MainWindow::offerRecovery);
  else if (m_options.offerLastSession)
    QTimer::singleShot(0, this, &MainWindow::askReopenLastSession);
}

void MainWindow::connectPanel() {
  connect(m_panel, &ExperimentPanel::configChanged, this, [this] {
    m_readoutRun = 0;  // a moved control: the readout describes the panel again
    updateReadout();
  });
  connect(m_panel, &ExperimentPanel::configCommitted, this, &MainWindow::onCommitted);
  // A run-charts redraw never shares an event-loop turn with the readout's calibration or
  // preview: it waits for the preview's delivery (at most 250 ms) and follows a frame later.
  m_charts->deferRedrawWhile(
      [this] { return m_panel->isCalibrating() || m_readout->isComputing(); });
  connect(m_readout, &PrivacyReadout::previewUpdated, m_charts, &ChartPanel::releaseRedraw);
  // Ctrl+Z after a slider move puts the value back (the session keeps the history).
  connect(m_session, &Session::panelConfigRestored, this,
          [this](const train::ExperimentConfig& config) {
            m_panel->setConfig(config);
            updateReadout();
          });
  connect(m_panel, &ExperimentPanel::runRequested, this, [this] { startRun(false); });
  connect(m_panel, &ExperimentPanel::datasetChanged, this, &MainWindow::onDatasetChanged);
  connect(m_panel, &ExperimentPanel::openDataFolderRequested, this, [this] {
    const QString dir = askFolder(this, FolderPurpose::DataFolders,
                                  tr("Open data folder (MNIST IDX or CIFAR-10 batches)"));
    if (!dir.isEmpty()) openDataFolder(dir);
  });
  connect(m_panel, &ExperimentPanel::liveModeChanged, this, [this](bool on) {
    if (m_liveAction) m_liveAction->setChecked(on);
    rememberLiveMode(on);
  });
  connect(m_runsView, &RunsView::cancelRequested, this, [this](const QList<int>& ids) {
    for (int id : ids) m_controller->cancel(id);
  });
  connect(m_runsView, &RunsView::cancelAllRequested, m_controller, &TrainingController::cancelAll);
  connect(m_runsView, &RunsView::rerunRequested, this, &MainWindow::rerun);
  connect(m_runsView, &RunsView::duplicateRequested, this, &MainWindow::duplicateIntoPanel);
  connect(m_runsView, &RunsView::compareRequested, this, &MainWindow::compareToNonPrivate);
}

void MainWindow::connectController() {
  connect(m_controller, &TrainingController::runModelUpdated, this, &MainWindow::showRunModel);
  connect(m_controller, &TrainingController::datasetLoaded, this,
          [this](const QString& name, std::shared_ptr<const data::Dataset> dataset) {
            if (name != QString::fromStdString(m_panel->config().dataset.name)) return;
            m_dataset = dataset;
            m_boundary->setDataset(*dataset);
            m_images->setDataset(*dataset);
            // Show the view that fits the data: a boundary for 2-D sets, images otherwise.
            m_boundary->setVisible(!dataset->shape.isImage);
            m_images->setVisible(dataset->shape.isImage);
            if (m_lastModelRun >= 0) showRunModel(m_lastModelRun);
          });
  connect(m_controller, &TrainingController::datasetFailed, this,
          [this](const QString& name, const QString& message) {
            showError(tr("Cannot load %1").arg(name), message);
          });
  connect(m_controller, &TrainingController::runFinished, this, &MainWindow::updateSweepProgress);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  setDockNestingEnabled(true);
  m_panel = new ExperimentPanel;
  auto* scroll = new QScrollArea;
  scroll->setWidget(m_panel);
  scroll->setWidgetResizable(true);
  // Narrow enough for a 1024-pixel projector; a narrower dock scrolls, it never cuts values.
  scroll->setMinimumWidth(300);
  m_panel->followViewportWidth(scroll->viewport());
  auto* panelDock = new QDockWidget(tr("Experiment"), this);
  panelDock->setObjectName(QStringLiteral("experimentDock"));
  panelDock->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, panelDock);

  QDockWidget* readoutDock = buildReadoutDock();

  auto* modelView = new QWidget;
  auto* modelLayout = new QVBoxLayout(modelView);
  modelLayout->setContentsMargins(2, 2, 2, 2);
  m_boundary = new DecisionBoundaryView;
  m_images = new ImageStrip;
  modelLayout->addWidget(m_boundary, 1);
  modelLayout->addWidget(m_images);
  auto* modelDock = new QDockWidget(tr("Model view"), this);
  modelDock->setObjectName(QStringLiteral("modelDock"));
  modelDock->setWidget(modelView);
  addDockWidget(Qt::RightDockWidgetArea, modelDock);

  // The left column runs the window's full height (the Runs table sits beside it): the
  // Experiment panel and, under it, a lesson's question and answer have the room at 1024×768.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  m_runsView = new RunsView(m_runs, m_undo);
  auto* runsDock = new QDockWidget(tr("Runs"), this);
  runsDock->setObjectName(QStringLiteral("runsDock"));
  runsDock->setWidget(m_runsView);
  addDockWidget(Qt::BottomDockWidgetArea, runsDock);

  auto* help = new QTextBrowser;
  help->setSource(QUrl(QStringLiteral("qrc:/help/dpsgd.html")));
  help->setOpenExternalLinks(true);
  auto* helpDock = new QDockWidget(tr("Help"), this);
  helpDock->setObjectName(QStringLiteral("helpDock"));
  helpDock->setWidget(help);
  addDockWidget(Qt::RightDockWidgetArea, helpDock);
  tabifyDockWidget(modelDock, helpDock);
  modelDock->raise();
  resizeDocks({readoutDock, modelDock}, {380, 420}, Qt::Vertical);
  resizeDocks({runsDock}, {230}, Qt::Vertical);
  resizeDocks({panelDock, readoutDock}, {340, 350},
              Qt::Horizontal);  // the readout's sentence unscrolled
}

QDockWidget* MainWindow::buildReadoutDock() {
  m_readout = new PrivacyReadout;
  auto* readoutDock = new QDockWidget(tr("Privacy budget"), this);
  readoutDock->setObjectName(QStringLiteral("privacyDock"));
  // The title says whose statement the readout shows: the panel's settings or a selected run.
  connect(m_readout, &PrivacyReadout::subjectChanged, readoutDock, [readoutDock](const QString& s) {
    readoutDock->setWindowTitle(tr("Privacy budget: %1").arg(s));
    readoutDock->setToolTip(
        tr("Select one run in the Runs table to see its statement; move a "
           "control to see the panel's settings again."));
  });
  auto* readoutScroll = new QScrollArea;
  readoutScroll->setWidget(m_readout);
  readoutScroll->setWidgetResizable(true);
  // The readout's text wraps to any width, so it never scrolls sideways (a horizontal bar
  // appeared with the vertical one and hid the end of the attacker sentence).
  readoutScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  readoutScroll->setMinimumWidth(300);
  readoutDock->setWidget(readoutScroll);
  addDockWidget(Qt::RightDockWidgetArea, readoutDock);
  return readoutDock;
}

void MainWindow::buildMenus() {
  buildFileMenu();
  buildEditMenu();
  buildRunMenu();
  buildPresetsMenu();
  buildViewMenu();
  buildHelpMenu();
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
    if (!settleUnsavedWork()) return;  // opening replaces the runs
    const QString path = askOpenFile(this, FolderPurpose::Sessions, tr("Open session"),
                                     tr("EpsilonLab sessions (*.json);;All files (*)"));
    if (!path.isEmpty()) startOpeningSession(path);  // the window stays responsive
  });
  m_cancelOpenAction =
      file->addAction(tr("&Cancel opening"), this, [this] { cancelOpeningSession(); });
  m_cancelOpenAction->setEnabled(false);
  file->addAction(tr("&Save session…"), QKeySequence::Save, this, &MainWindow::askSaveSession);
  file->addAction(tr("Open &data folder…"), this,
                  [this] { Q_EMIT m_panel->openDataFolderRequested(); });
  file->addSeparator();
  buildExportActions(file);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildEditMenu() {
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  // The actions say what they will undo or redo ("Undo Delete run"), as the history changes.
  QAction* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, m_undo, &SessionHistory::undo);
  QAction* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, m_undo, &SessionHistory::redo);
  const auto update = [this, undo, redo] {
    undo->setEnabled(m_undo->canUndo());
    undo->setText(m_undo->canUndo() ? tr("&Undo %1").arg(m_undo->undoText()) : tr("&Undo"));
    redo->setEnabled(m_undo->canRedo());
    redo->setText(m_undo->canRedo() ? tr("&Redo %1").arg(m_undo->redoText()) : tr("&Redo"));
  };
  connect(m_undo, &SessionHistory::changed, this, update);
  update();
  edit->addSeparator();
  edit->addAction(m_runsView->copySettingsAction());  // the selected run's file and train line
  QAction* reset = edit->addAction(tr("Reset settings to defaults"), this, [this] {
    m_panel->resetToDefaults();
    m_session->commitPanelConfig(m_panel->config());  // undoable like a slider move
    updateReadout();
  });
  reset->setToolTip(tr("Every setting of the Experiment panel back to the data set's defaults"));
  // A lesson starts on a clean page; the runs that were there wait here.
  QAction* back = edit->addAction(tr("Bring back runs set aside"),
                                  QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), m_session,
                                  &Session::bringBackRunsSetAside);
  back->setToolTip(tr("Put back the runs a lesson set aside when it started"));
  const auto updateBack = [back](int count) {
    back->setEnabled(count > 0);
    back->setText(count > 0 ? tr("Bring back %1 runs set aside").arg(count)
                            : tr("Bring back runs set aside"));
  };
  connect(m_session, &Session::runsSetAsideChanged, this, updateBack);
  updateBack(0);
}

void MainWindow::buildRunMenu() {
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QAction* start = run->addAction(tr("&Run experiment"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                                  [this] { startRun(false); });
  start->setToolTip(tr("Train the panel's experiment as a new run"));
  run->addAction(tr("&Sweep…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this, [this] {
    SweepDialog dialog(m_panel->config(), this);
    dialog.setTargetEpsilon(panelTargetEpsilon());
    if (dialog.exec() == QDialog::Accepted) startSweepFrom(dialog);
  });
  m_liveAction = run->addAction(tr("&Live mode"));
  m_liveAction->setCheckable(true);
  m_liveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  m_liveAction->setChecked(m_panel->liveMode());
  connect(m_liveAction, &QAction::toggled, m_panel, &ExperimentPanel::setLiveMode);
  run->addAction(m_runsView->cancelAction());
  run->addAction(m_runsView->cancelAllAction());
  run->addAction(m_runsView->rerunAction());
  run->addAction(m_runsView->duplicateAction());
  run->addAction(m_runsView->compareAction());
  run->addAction(m_runsView->deleteAction());
  // On the window as well, so the shortcuts work while the Runs dock floats or is hidden.
  addActions(
      {m_runsView->cancelAction(), m_runsView->cancelAllAction(), m_runsView->deleteAction()});
}

void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("DP-SGD in one page"), QKeySequence::HelpContents, this, [this] {
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("helpDock"))) {
      dock->show();
      dock->raise();
    }
  });
  help->addAction(tr("&About EpsilonLab"), this, [this] {
    QMessageBox::about(
        this, tr("About EpsilonLab"),
        tr("<b>EpsilonLab %1</b><p>See the privacy–utility trade-off of differentially private "
           "deep learning: train with DP-SGD and watch accuracy against ε.</p><p>Data: MNIST "
           "(Y. LeCun, C. Cortes, C. J. C. Burges; CC BY-SA 3.0), UCI digits and breast cancer "
           "(CC BY 4.0), Fashion-MNIST (Zalando Research, MIT).</p>")
            .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::updateReadout() {
  PrivacyPreviewInput input;
  // One selected run: its own statement (the ε its settings give at its end); else the panel's.
  if (const RunRecord* run = m_runs->run(m_readoutRun)) {
    input.config = run->config;
    input.sizesFromConfig = true;
    m_readout->setTargetEpsilon(std::nullopt);
    m_readout->setInput(input, run->name);
    return;
  }
  m_readout->setTargetEpsilon(panelTargetEpsilon());
  input.config = m_panel->config();
  input.trainSize = m_panel->trainSize();
  input.parameterCount = m_panel->parameterCount();
  m_readout->setInput(input);
}

void MainWindow::onCommitted() {
  m_session->commitPanelConfig(m_panel->config());
  if (m_panel->liveMode()) m_liveDebounce->start();
}

void MainWindow::onDatasetChanged() {
  const QString name = QString::fromStdString(m_panel->config().dataset.name);
  if (name == m_shownDataset) return;
  m_shownDataset = name;
  m_dataset.reset();
  m_boundary->setDataset(data::Dataset{});
  m_images->setDataset(data::Dataset{});
  m_controller->requestDataset(name);
  updateReadout();
}

void MainWindow::showRunModel(int runId) {
  m_lastModelRun = runId;
  const RunRecord* run = m_runs->run(runId);
  const auto model = m_controller->latestModel(runId);
  if (!run || !model || !m_dataset) return;
  if (QString::fromStdString(run->config.dataset.name) != m_shownDataset) return;
  m_boundary->setModel(*model);
  m_images->setModel(*model);
}

void MainWindow::showError(const QString& title, const QString& message) {
  m_lastError = message;
  statusBar()->showMessage(message, 10000);
  // Window-modal and non-blocking: the app keeps running (and tests keep going).
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::childEvent(QChildEvent* event) {
  QMainWindow::childEvent(event);
  if (!event->polished()) return;
  if (auto* bar = qobject_cast<QTabBar*>(event->child())) {
    bar->setElideMode(Qt::ElideNone);
    bar->setUsesScrollButtons(true);
    useTightTabs(bar);  // Model view, Help and Gradient norms side by side at 1024 pixels
  }
}

void MainWindow::updateTitle() {
  // "[*]" shows as "*" while the session has unsaved work.
  setWindowTitle(m_sessionPath.isEmpty()
                     ? tr("EpsilonLab[*]")
                     : tr("EpsilonLab — %1[*]").arg(QFileInfo(m_sessionPath).fileName()));
  setWindowModified(m_session->isModified());
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
  const QByteArray last = settings.value(QStringLiteral("lastExperiment")).toByteArray();
  if (!last.isEmpty()) {
    try {
      m_panel->setConfig(experimentFromJson(QJsonDocument::fromJson(last).object()));
    } catch (const std::exception&) {
      // Parameters from an older version that no longer validate: keep the defaults.
    }
  }
  m_panel->setLiveMode(settings.value(QStringLiteral("liveMode"), false).toBool());
}

void MainWindow::saveSettings() {
  QSettings settings;
  settings.setValue(QStringLiteral("geometry"), saveGeometry());
  settings.setValue(QStringLiteral("windowState"), saveState());
  settings.setValue(QStringLiteral("liveMode"), m_panel->liveMode());
  settings.setValue(
      QStringLiteral("lastExperiment"),
      QJsonDocument(experimentToJson(m_panel->config())).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!settleUnsavedWork()) {
    event->ignore();
    return;
  }
  if (m_options.useSettings) saveSettings();
  m_controller->cancelAll();
  event->accept();
}

}  // namespace epsilon::ui
