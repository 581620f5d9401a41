// MainWindow: starting runs — one run from the panel, re-runs, loading a run into the panel,
// sweeps (with their progress in the status bar) and the built-in presets of the Presets menu,
// here or on a Slurm cluster.
#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <algorithm>

#include "base/io/experiment_json.h"
#include "base/io/number_format.h"
#include "base/io/preset_file.h"
#include "base/io/run_conversion.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/run_model.h"
#include "base/session/target_calibrator.h"
#include "core/data/registry.h"
#include "core/train/config_check.h"
#include "ui/charts/run_naming.h"
#include "ui/widgets/cluster_options.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_dialog.h"
#include "ui/widgets/training_controller.h"
#include "ui/widgets/tuning_summary_view.h"

namespace epsilon::ui {

int MainWindow::startRun(bool live) {
  if (!m_panel->modelProblem().isEmpty()) {
    showError(tr("Cannot start the run"), m_panel->modelProblem());
    return 0;
  }
  if (m_panel->isCalibrating()) {  // a run never starts with the σ of a superseded target
    statusBar()->showMessage(tr("The run starts as soon as σ is calibrated for the target ε…"));
    m_panel->whenCalibrated([this, live] { startRun(live); });
    return 0;
  }
  const train::ExperimentConfig config = m_panel->config();
  // What the panel shows at its controls (Run is disabled then; Ctrl+R and scripts land here).
  const auto issues = train::checkConfig(config, m_panel->trainSize());
  if (train::hasImpossible(issues)) {
    showError(tr("Cannot start the run"), QString::fromStdString(issues.front().message));
    return 0;
  }
  try {
    config.validate();
  } catch (const std::exception& e) {
    showError(tr("Cannot start the run"), QString::fromUtf8(e.what()));
    return 0;
  }
  const QString name = namesForNewRuns(*m_runs, {config}).front();
  return live ? startLiveRun(paced(config), name) : m_controller->start(paced(config), name);
}

void MainWindow::duplicateIntoPanel(int runId) {
  const RunRecord* run = m_runs->run(runId);
  if (!run) return;
  try {
    const QString error = m_panel->setConfig(run->config);
    if (!error.isEmpty()) showError(tr("Cannot load the run's parameters"), error);
  } catch (const std::exception& e) {
    showError(tr("Cannot load the run's parameters"), QString::fromUtf8(e.what()));
  }
}

void MainWindow::rerun(const QList<int>& ids) {
  startCopies(ids, [](const train::ExperimentConfig& config) { return config; });
}

QList<int> MainWindow::compareToNonPrivate(const QList<int>& ids) {
  QList<int> privateRuns;
  for (int id : ids)
    if (const RunRecord* run = m_runs->run(id); run && train::isPrivate(run->config))
      privateRuns << id;
  if (privateRuns.isEmpty()) {
    statusBar()->showMessage(tr("Compare to non-private: the selected runs have no privacy."),
                             10000);
    return {};
  }
  return startCopies(privateRuns, &train::withoutPrivacy);
}

QList<int> MainWindow::startCopies(
    const QList<int>& ids,
    const std::function<train::ExperimentConfig(const train::ExperimentConfig&)>& change) {
  QList<int> started;
  for (int id : ids) {
    const RunRecord* run = m_runs->run(id);
    if (!run) continue;
    try {
      // Copies: starting a run adds to the model, which may move the record `run` points to.
      const train::ExperimentConfig config = change(run->config);
      started << m_controller->start(config, namesForNewRuns(*m_runs, {config}).front(), false);
    } catch (const std::exception& e) {
      showError(tr("Cannot start a copy of %1").arg(run->name), QString::fromUtf8(e.what()));
    }
  }
  return started;
}

void MainWindow::buildSweepStatus() {
  m_sweepProgress = new QProgressBar(this);
  m_sweepProgress->setMaximumWidth(220);
  m_sweepProgress->setFormat(tr("sweep %v / %m"));
  m_sweepCancel = new QPushButton(tr("Cancel sweep"), this);
  m_sweepCancel->setToolTip(tr("Stop every run of the sweep that is still queued or training"));
  connect(m_sweepCancel, &QPushButton::clicked, this, &MainWindow::cancelSweep);
  m_clusterSweeps = new ClusterSweeps(m_runs, this);
  connect(m_clusterSweeps, &ClusterSweeps::failed, this,
          [this](const QString& folder, const QString& message) {
            showError(tr("Cannot send the sweep to Slurm (%1)").arg(folder), message);
          });
  connect(m_clusterSweeps, &ClusterSweeps::submitted, this,
          [this](const QString& folder, const QString& job) {
            statusBar()->showMessage(
                tr("Submitted Slurm job %1; its runs land in %2").arg(job, folder), 15000);
          });
  // The Runs table's Cancel: scancel for runs on a cluster (the controller stops the others).
  connect(m_runsView, &RunsView::cancelRequested, m_clusterSweeps, &ClusterSweeps::cancel);
  connect(m_runsView, &RunsView::cancelAllRequested, this, [this] {
    QList<int> ids;
    for (const RunRecord& run : m_runs->runs()) ids << run.id;
    m_clusterSweeps->cancel(ids);
  });
  // Runs on a cluster finish without the controller: the model's changes move the progress.
  connect(m_runs, &QAbstractItemModel::dataChanged, this, &MainWindow::updateSweepProgress);
  statusBar()->addPermanentWidget(m_sweepProgress);
  statusBar()->addPermanentWidget(m_sweepCancel);
  m_sweepProgress->hide();
  m_sweepCancel->hide();
}

void MainWindow::buildPresetsMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Presets"));
  menu->setToolTipsVisible(true);
  // The Sweep dialog's "Run on" choice, remembered for both (cluster_options.h).
  QMenu* where = menu->addMenu(tr("Run presets on"));
  auto* group = new QActionGroup(where);
  QAction* here = where->addAction(tr("This computer"));
  QAction* slurm = where->addAction(tr("Slurm cluster…"));
  slurm->setObjectName(QStringLiteral("presetsOnSlurm"));
  for (QAction* a : {here, slurm}) a->setCheckable(true), group->addAction(a);
  connect(menu, &QMenu::aboutToShow, this, [here, slurm] {
    (ClusterOptions::rememberedOnCluster() ? slurm : here)->setChecked(true);
  });
  connect(slurm, &QAction::toggled, this, &ClusterOptions::rememberOnCluster);
  menu->addSeparator();
  try {
    for (const Preset& preset : builtinPresets()) {
      QAction* action =
          menu->addAction(preset.title, this, [this, name = preset.name] { presetChosen(name); });
      action->setToolTip(QStringLiteral("%1\n%2").arg(preset.source, preset.reproduces));
    }
  } catch (const std::exception& e) {
    menu->addAction(tr("Presets unavailable: %1").arg(QString::fromUtf8(e.what())))
        ->setEnabled(false);
  }
}

QList<int> MainWindow::runPreset(const QString& name) {
  return runPresetOn(name, nullptr);
}

QList<int> MainWindow::runPresetOnCluster(const QString& name, const QString& folder,
                                          const QString& cli,
                                          const cluster::SlurmSettings& settings) {
  ClusterSweepRequest request;
  request.folder = folder;
  request.cli = cli;
  request.settings = settings;
  return runPresetOn(name, &request);
}

QList<int> MainWindow::runPresetOn(const QString& name, ClusterSweepRequest* cluster) {
  try {
    const Preset preset = findPreset(name);
    QString note;
    const PresetPlan plan = planPreset(preset, chooseDataset(preset, &note), false);
    m_panel->setConfig(plan.base);
    statusBar()->showMessage(QStringLiteral("%1 — %2 %3").arg(preset.title, preset.source, note),
                             15000);
    if (preset.kind == PresetKind::Accountant) {
      // ε over epochs needs no training (nor a cluster): each point becomes a finished run.
      QList<int> ids;
      for (const auto& point : plan.points)
        ids << m_runs->addRun(accountantOnlyRecord(point, plan.input));
      return ids;
    }
    if (!cluster) return startSweep(plan.points);
    // The nodes run a built-in preset by its name, a preset file by its path, on the data set
    // planned here (a node would otherwise choose its own).
    cluster->base = plan.base;
    cluster->preset = preset.file.startsWith(QLatin1Char(':'))
                          ? preset.name
                          : QFileInfo(preset.file).absoluteFilePath();
    cluster->dataset = QString::fromStdString(plan.base.dataset.name);
    cluster->points = plan.points;
    return sendToCluster(std::move(*cluster));
  } catch (const std::exception& e) {
    showError(tr("Cannot run the preset %1").arg(name), QString::fromUtf8(e.what()));
    return {};
  }
}

void MainWindow::presetChosen(const QString& name) {
  if (!ClusterOptions::rememberedOnCluster()) {
    runPreset(name);
    return;
  }
  ClusterOptionsDialog dialog(tr("Run the preset %1").arg(name), name, this);
  if (dialog.exec() != QDialog::Accepted) return;
  const ClusterOptions* o = dialog.options();
  if (o->runOnCluster())
    runPresetOnCluster(name, o->jobFolder(), o->nodeCli(), o->slurmSettings());
  else
    runPreset(name);
}

QList<int> MainWindow::startSweep(const std::vector<train::SweepPoint>& points) {
  QList<int> ids;
  std::vector<train::ExperimentConfig> configs;
  for (const auto& point : points) configs.push_back(point.config);
  const QStringList names = namesForNewRuns(*m_runs, configs);
  for (std::size_t i = 0; i < points.size(); ++i)
    ids << m_controller->start(paced(points[i].config), names[static_cast<int>(i)], false);
  m_sweepRuns = ids;
  m_tuningSummary->setTuningSweep({}, std::nullopt, {});  // a fixed sweep, unless told otherwise
  updateSweepProgress();
  return ids;
}

std::optional<double> MainWindow::panelTargetEpsilon() const {
  if (!m_panel->targetEpsilonMode() || !m_panel->targetModeBox()->isEnabled()) return {};
  return m_panel->targetEpsilonSlider()->value();
}

QList<int> MainWindow::startSweepFrom(const SweepDialog& dialog) {
  QString error;
  std::vector<train::SweepPoint> points = dialog.points(&error);
  if (points.empty()) {
    showError(tr("Cannot start the sweep"), error);
    return {};
  }
  const ClusterOptions& where = *dialog.clusterOptions();
  std::optional<ClusterSweepRequest> cluster;
  if (where.runOnCluster()) {
    cluster.emplace();
    cluster->base = m_panel->config();
    cluster->axes = dialog.axes();
    cluster->targetEpsilon = dialog.targetEpsilon();  // the nodes calibrate each point again
    cluster->folder = where.jobFolder();
    cluster->cli = where.nodeCli();
    cluster->settings = where.slurmSettings();
  }
  // A private tuning's summary covers its K runs, with the law K was drawn from.
  const auto tuning = dialog.privateTuning();
  const std::vector<train::SweepPoint> grid =
      tuning ? dialog.grid() : std::vector<train::SweepPoint>{};
  const auto launch = [this, cluster, tuning, grid](const std::vector<train::SweepPoint>& pts) {
    const QList<int> ids = launchSweep(pts, cluster);
    if (!cluster) m_tuningSummary->setTuningSweep(tuning ? ids : QList<int>{}, tuning, grid);
    return ids;
  };
  if (std::none_of(points.begin(), points.end(),
                   [](const train::SweepPoint& p) { return p.targetEpsilon.has_value(); }))
    return launch(points);
  // Never one σ for all: each point's σ for its own settings, off the GUI thread.
  if (!m_sweepCalibration) m_sweepCalibration = std::make_unique<TargetCalibrator>();
  statusBar()->showMessage(tr("Calibrating σ to the target ε for each of the %n sweep run(s)…",
                              nullptr, static_cast<int>(points.size())));
  m_sweepCalibration->requestSweep(
      this, std::move(points), [this, launch](const SweepCalibration& result) {
        if (!result.error.isEmpty())
          showError(tr("Cannot calibrate the sweep to its target ε"), result.error);
        else
          launch(result.points);
      });
  return {};
}

QList<int> MainWindow::launchSweep(const std::vector<train::SweepPoint>& points,
                                   std::optional<ClusterSweepRequest> cluster) {
  if (!cluster) return startSweep(points);
  cluster->points = points;
  return sendToCluster(std::move(*cluster));
}

QList<int> MainWindow::sendToCluster(ClusterSweepRequest request) {
  std::vector<train::ExperimentConfig> configs;
  for (const auto& point : request.points) configs.push_back(point.config);
  request.names = namesForNewRuns(*m_runs, configs);
  m_sweepRuns = m_clusterSweeps->submit(request);
  updateSweepProgress();
  return m_sweepRuns;
}

void MainWindow::cancelSweep() {
  for (int id : m_sweepRuns) m_controller->cancel(id);
  m_clusterSweeps->cancel(m_sweepRuns);  // scancel, for runs on a cluster
}

int MainWindow::sweepRemaining() const {
  int remaining = 0;
  for (int id : m_sweepRuns)
    if (const RunRecord* r = m_runs->run(id); r && r->isActive()) ++remaining;
  return remaining;
}

void MainWindow::updateSweepProgress() {
  const int remaining = sweepRemaining();
  const bool show = !m_sweepRuns.isEmpty() && remaining > 0;
  m_sweepProgress->setVisible(show);
  m_sweepCancel->setVisible(show);
  m_sweepProgress->setRange(0, static_cast<int>(m_sweepRuns.size()));
  m_sweepProgress->setValue(static_cast<int>(m_sweepRuns.size()) - remaining);
  if (!show && !m_sweepRuns.isEmpty()) {
    statusBar()->showMessage(tr("Sweep finished: %1 runs.").arg(m_sweepRuns.size()), 5000);
    m_sweepRuns.clear();
  }
}

}  // namespace epsilon::ui
