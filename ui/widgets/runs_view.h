// The Runs dock: a table over the RunModel with a progress bar in the status column and the
// run actions (delete with undo, cancel, cancel all, re-run, duplicate into the panel,
// compare to non-private, copy settings; all of them in the table's context menu). A click on
// a header sorts by that column; the "ε ≤" field keeps the runs within a budget and marks the
// best of them (base/session/run_table_proxy.h).
// It only asks; the main window and the controller do the work.
#pragma once

#include <QWidget>

class QTableView;
class QAction;
class QLineEdit;

namespace epsilon::ui {

class CoalescedRefresh;
class SessionHistory;

class RunModel;
class RunTableProxy;

class RunsView : public QWidget {
  Q_OBJECT
 public:
  RunsView(RunModel* model, SessionHistory* undoStack, QWidget* parent = nullptr);

  QTableView* table() const { return m_table; }
  QList<int> selectedRunIds() const;
  // What Cancel (Esc) stops: the selected runs still active, or else the newest active run.
  QList<int> cancelTargets() const;
  // Deletes the selected runs as one undoable step (cancelling any still training).
  void deleteSelected();

  QAction* deleteAction() const { return m_delete; }
  QAction* cancelAction() const { return m_cancel; }
  QAction* cancelAllAction() const { return m_cancelAll; }
  QAction* rerunAction() const { return m_rerun; }
  QAction* duplicateAction() const { return m_duplicate; }
  // "Compare to non-private": the selected runs' experiments again without privacy.
  QAction* compareAction() const { return m_compare; }
  // "Copy settings": the selected run's experiment file and its `epsilonlab-cli train` line.
  QAction* copySettingsAction() const { return m_copySettings; }
  // The "ε ≤" field: a number > 0 keeps the runs within it and marks the best; empty: all.
  QLineEdit* budgetField() const { return m_budget; }
  RunTableProxy* sortedRuns() const { return m_sorted; }
  // The table's row of a run (after sorting and filtering), or -1 when it is not shown.
  int tableRowOf(int runId) const;
  // How many times the columns were laid out again (tests: a progress tick lays out none).
  int columnFits() const;

  // Rows shown at the least (a 1024×768 projector, presentation mode too): compact rows, and
  // the view's minimum height holds the header and this many of them. With presentation
  // mode's larger font in a window under kRoomyHeight (a 720-pixel screen) only
  // kShortWindowRows: there the Privacy budget's sentence needs the height.
  static constexpr int kMinimumRows = 5;
  static constexpr int kShortWindowRows = 1;
  static constexpr int kRoomyHeight = 725;
  int minimumRows() const;
  // Lays the columns out in the table's width (it does this itself as the table, its font or
  // the runs change): the run's name, its accuracy and ε whole; what does not fit is taken
  // from the worst/best class and the differences, elided (their tooltips keep the text).
  void fitColumns();

 Q_SIGNALS:
  void cancelRequested(const QList<int>& ids);
  void cancelAllRequested();
  void rerunRequested(const QList<int>& ids);
  void duplicateRequested(int id);
  void compareRequested(const QList<int>& ids);

 protected:
  void changeEvent(QEvent* event) override;
  void showEvent(QShowEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void buildContextMenu();
  void setUpTable();
  QLineEdit* buildBudgetField();
  void updateActions();
  void fitRowsToFont();
  void fitHeightToRows();  // the table's minimum height: the header and minimumRows() rows
  void applyBudgetText();
  void copySettings();

  RunModel* m_model;
  SessionHistory* m_undo;
  QTableView* m_table;
  QAction* m_delete;
  QAction* m_cancel;
  QAction* m_cancelAll;
  QAction* m_rerun;
  QAction* m_duplicate;
  QAction* m_compare;
  QAction* m_copySettings;
  QLineEdit* m_budget;
  RunTableProxy* m_sorted;
  CoalescedRefresh* m_fitColumns = nullptr;  // the runs' values change many times a second
  bool m_columnsFit = false;                 // no horizontal scroll bar needed
};

}  // namespace epsilon::ui
