// MainWindow: the Sweep map tab (issue 28, item 5). A click on a run in the map selects it in
// the Runs table (through whatever sorting the table's model does).
#include <QItemSelectionModel>
#include <QTabWidget>
#include <QTableView>

#include "base/session/run_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_map_view.h"

namespace epsilon::ui {

void MainWindow::buildSweepMapTab() {
  m_sweepMap = new SweepMapView(m_runs);
  const int tab = m_tabs->addTab(m_sweepMap, tr("Sweep map"));
  m_tabs->setTabToolTip(tab, tr("The shown runs of a one- or two-parameter sweep: final test "
                                "accuracy over the swept values, with iso-ε lines"));
  connect(m_sweepMap, &SweepMapView::runClicked, this, &MainWindow::selectRunInTable);
}

void MainWindow::selectRunInTable(int runId) {
  QTableView* table = m_runsView->table();
  QAbstractItemModel* model = table->model();
  const QModelIndexList found =
      model->match(model->index(0, 0), RunModel::RunIdRole, runId, 1, Qt::MatchExactly);
  if (found.isEmpty()) return;
  table->selectionModel()->select(found.front(),
                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table->setCurrentIndex(found.front());
  table->scrollTo(found.front());
}

}  // namespace epsilon::ui
