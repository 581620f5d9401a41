#include "base/session/run_table_proxy.h"

#include <vector>

#include "base/io/number_format.h"
#include "base/io/sweep_map.h"
#include "base/session/run_model.h"

namespace epsilon::ui {

RunTableProxy::RunTableProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(RunModel::SortRole);
  setSortCaseSensitivity(Qt::CaseInsensitive);
  setDynamicSortFilter(true);
}

RunModel* RunTableProxy::runs() const {
  return qobject_cast<RunModel*>(sourceModel());
}

void RunTableProxy::setSourceModel(QAbstractItemModel* model) {
  if (sourceModel()) disconnect(sourceModel(), nullptr, this, nullptr);
  QSortFilterProxyModel::setSourceModel(model);
  if (!model) return;
  // A run finishing, arriving or leaving may change which run is best under the budget.
  connect(model, &QAbstractItemModel::dataChanged, this, &RunTableProxy::updateBest);
  connect(model, &QAbstractItemModel::rowsInserted, this, &RunTableProxy::updateBest);
  connect(model, &QAbstractItemModel::rowsRemoved, this, &RunTableProxy::updateBest);
  connect(model, &QAbstractItemModel::modelReset, this, &RunTableProxy::updateBest);
  updateBest();
}

void RunTableProxy::setBudget(std::optional<double> budget) {
  if (budget == m_budget) return;
  m_budget = budget;
  invalidateRowsFilter();
  updateBest();
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

bool RunTableProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (!m_budget) return true;
  const QModelIndex epsilon =
      sourceModel()->index(sourceRow, RunModel::EpsilonColumn, sourceParent);
  return epsilon.data(RunModel::SortRole).toDouble() <= *m_budget;
}

void RunTableProxy::updateBest() {
  const RunModel* model = runs();
  int best = 0;
  if (model && m_budget) {
    std::vector<double> accuracy, epsilon;
    for (const RunRecord& run : model->runs()) {
      const EvalPoint* last = run.lastEval();
      const bool done = run.status == RunStatus::Done && last;
      accuracy.push_back(done ? last->testAccuracy : kNaN);
      epsilon.push_back(done ? last->epsilon : kNaN);
    }
    const int i = bestUnderBudget(accuracy, epsilon, *m_budget);
    if (i >= 0) best = model->runs()[static_cast<std::size_t>(i)].id;
  }
  if (best == m_bestId) return;
  const int before = m_bestId;
  m_bestId = best;
  for (int id : {before, best}) {
    if (id == 0 || !model) continue;
    const QModelIndex left = mapFromSource(model->index(model->rowOf(id), 0));
    if (left.isValid()) Q_EMIT dataChanged(left, left.siblingAtColumn(columnCount() - 1));
  }
}

QVariant RunTableProxy::data(const QModelIndex& index, int role) const {
  const bool best = m_bestId != 0 && index.isValid() &&
                    QSortFilterProxyModel::data(index, RunModel::RunIdRole).toInt() == m_bestId;
  if (role == kBestRole) return best;
  if (!m_budget || !index.isValid()) return QSortFilterProxyModel::data(index, role);
  const QModelIndex source = mapToSource(index);
  if (index.column() == RunModel::EpsilonColumn && role == Qt::DisplayRole) {
    const RunRecord* run = runs() ? runs()->run(source.data(RunModel::RunIdRole).toInt()) : nullptr;
    if (run && run->lastEval()) return formatEpsilonAgainst(run->lastEval()->epsilon, *m_budget);
  }
  if (best && index.column() == RunModel::AccuracyColumn) {
    if (role == Qt::DisplayRole)
      return QStringLiteral("★ ") + QSortFilterProxyModel::data(index, role).toString();
    if (role == Qt::ToolTipRole)
      return tr("Best final test accuracy among the finished runs with ε ≤ %1")
          .arg(formatEpsilon(*m_budget));
  }
  return QSortFilterProxyModel::data(index, role);
}

}  // namespace epsilon::ui
