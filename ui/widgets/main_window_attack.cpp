// MainWindow, the central tabs: the chart grid, and the Attack tab with the controller that
// attacks every finished run and audits runs with canaries. The Attack tab follows the Runs
// table's selection (every shown run when nothing is selected).
#include <QItemSelectionModel>
#include <QTabWidget>
#include <QTableView>
#include <algorithm>
#include <cmath>
#include <map>

#include "base/io/lira_shadow_file.h"
#include "core/data/registry.h"
#include "core/data/synthetic.h"
#include "ui/widgets/attack_controller.h"
#include "ui/widgets/attack_view.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/tight_tabs.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

namespace {
// The registry's training-set sizes (default options), listed once: data folders are scanned.
long long listedTrainSize(const std::string& name) {
  static const std::map<std::string, long long> sizes = [] {
    std::map<std::string, long long> out;
    for (const data::DatasetInfo& info : data::listDatasets()) out[info.name] = info.trainSize;
    return out;
  }();
  const auto it = sizes.find(name);
  return it == sizes.end() ? 0 : it->second;
}

long long trainingSetSize(const TrainingController& training, const RunRecord& run) {
  // The set as loaded with the default options (this session's copy, else the registry's
  // size), cut as the run's options cut it; 0 when not known (a folder not loaded yet).
  train::ExperimentConfig whole = run.config;
  whole.dataset.options = {};
  const auto loaded = training.cachedDataset(whole);
  const data::DatasetOptions& o = run.config.dataset.options;
  long long n = loaded ? loaded->train.size() : listedTrainSize(run.config.dataset.name);
  if (data::syntheticKindFromName(run.config.dataset.name))
    n = std::lround(o.trainFraction * o.size);
  if (o.maxTrain > 0 && n > 0) n = std::min<long long>(n, o.maxTrain);
  return n;
}

}  // namespace

void MainWindow::buildCentralTabs() {
  m_attackController = new AttackController(m_runs, m_controller, this);
  // LiRA's shadows are kept with the session (or the app's data folder before it is saved).
  m_attackController->setShadowFolder([this] { return liraShadowFolder(m_sessionPath); });
  m_attackView = new AttackView(m_runs, m_attackController);
  m_attackView->setTrainingSetSize(
      [training = m_controller](const RunRecord& run) { return trainingSetSize(*training, run); });
  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName(QStringLiteral("centralTabs"));
  useTightTabs(m_tabs->tabBar());  // all four names in view at 1024 pixels (tight_tabs.h)
  m_tabs->addTab(m_charts, tr("Charts"));
  const int attack = m_tabs->addTab(m_attackView, tr("Attack"));
  m_tabs->setTabToolTip(
      attack,
      tr("What a membership attacker learns from each run, under the bound its ε promises"));
  buildSweepMapTab();
  setCentralWidget(m_tabs);
  connect(m_runsView->table()->selectionModel(), &QItemSelectionModel::selectionChanged,
          m_attackView, [this] { m_attackView->setRuns(m_runsView->selectedRunIds()); });
  // The Privacy budget readout follows a single selected run, and says so.
  connect(m_runsView->table()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] {
            const QList<int> ids = m_runsView->selectedRunIds();
            const int run = ids.size() == 1 ? ids.front() : 0;
            if (run != 0) showGradientNorms(run);
            if (run == m_readoutRun) return;
            m_readoutRun = run;
            updateReadout();
          });
}

bool MainWindow::showTab(const QString& name) {
  for (int i = 0; i < m_tabs->count(); ++i) {
    if (m_tabs->tabText(i).compare(name, Qt::CaseInsensitive) == 0) {
      m_tabs->setCurrentIndex(i);
      return true;
    }
  }
  return false;
}

}  // namespace epsilon::ui
