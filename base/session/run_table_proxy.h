// The Runs table's view of the RunModel for exploring to a budget: sorted by any column (the
// model's SortRole: numbers as numbers), filtered to the runs whose ε ≤ a budget X, and the
// best of them marked (the best final test accuracy among finished runs with ε ≤ X, the rule
// of the sweep map's best cell, sweep_map.h). Near the budget an ε is written with the digits
// that tell its side (formatEpsilonAgainst). Qt Core only; GUI thread only.
#pragma once

#include <QSortFilterProxyModel>
#include <optional>

namespace epsilon::ui {

class RunModel;

class RunTableProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  // BestRole: true on every column of the best run under the budget.
  static constexpr int kBestRole = Qt::UserRole + 100;

  explicit RunTableProxy(QObject* parent = nullptr);
  void setSourceModel(QAbstractItemModel* model) override;

  // No budget: every run shown, none marked.
  void setBudget(std::optional<double> budget);
  std::optional<double> budget() const { return m_budget; }
  int bestRunId() const { return m_bestId; }  // 0: no finished run within the budget

  QVariant data(const QModelIndex& index, int role) const override;

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  void updateBest();
  RunModel* runs() const;

  std::optional<double> m_budget;
  int m_bestId = 0;
};

}  // namespace epsilon::ui
