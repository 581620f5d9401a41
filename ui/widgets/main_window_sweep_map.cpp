// MainWindow: the Sweep map tab (issue 28, item 5) with the private-tuning summary under the
// map (item 3), and the Per class tab (item 4). A click on a run in the map selects it in the
// Runs table (through whatever sorting the table's model does); the Per class tab follows the
// one selected run.
#include <QItemSelectionModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "base/session/run_model.h"
#include "ui/widgets/class_accuracy_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_map_view.h"
#include "ui/widgets/tuning_summary_view.h"

namespace epsilon::ui {

void MainWindow::buildSweepMapTab() {
  auto* page = new QWidget;
  m_sweepMap = new SweepMapView(m_runs, page);
  m_tuningSummary = new TuningSummaryView(m_runs, page);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_sweepMap, 1);
  layout->addWidget(m_tuningSummary);
  const int tab = m_tabs->addTab(page, tr("Sweep map"));
  m_tabs->setTabToolTip(tab, tr("The shown runs of a one- or two-parameter sweep: final test "
                                "accuracy over the swept values, with iso-ε lines, and what "
                                "releasing the best of them costs"));
  connect(m_sweepMap, &SweepMapView::runClicked, this, &MainWindow::selectRunInTable);
  m_classAccuracy = new ClassAccuracyView(m_runs);
  const int perClass = m_tabs->addTab(m_classAccuracy, tr("Per class"));
  m_tabs->setTabToolTip(perClass, tr("The selected run's test accuracy per class over epochs: "
                                     "who pays for privacy"));
  connect(m_runsView->table()->selectionModel(), &QItemSelectionModel::selectionChanged,
          m_classAccuracy, [this] {
            const QList<int> ids = m_runsView->selectedRunIds();
            m_classAccuracy->setRun(ids.size() == 1 ? ids.front() : 0);
          });
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
