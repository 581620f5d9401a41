// MainWindow, the central tabs: the chart grid, and the Attack tab with the controller that
// attacks every finished run and audits runs with canaries. The Attack tab follows the Runs
// table's selection (every shown run when nothing is selected).
#include <QItemSelectionModel>
#include <QTabWidget>
#include <QTableView>

#include "ui/widgets/attack_controller.h"
#include "ui/widgets/attack_view.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"

namespace epsilon::ui {

void MainWindow::buildCentralTabs() {
  m_attackController = new AttackController(m_runs, m_controller, this);
  m_attackView = new AttackView(m_runs, m_attackController);
  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName(QStringLiteral("centralTabs"));
  m_tabs->addTab(m_charts, tr("Charts"));
  const int attack = m_tabs->addTab(m_attackView, tr("Attack"));
  m_tabs->setTabToolTip(
      attack,
      tr("What a membership attacker learns from each run, under the bound its ε promises"));
  setCentralWidget(m_tabs);
  connect(m_runsView->table()->selectionModel(), &QItemSelectionModel::selectionChanged,
          m_attackView, [this] { m_attackView->setRuns(m_runsView->selectedRunIds()); });
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
