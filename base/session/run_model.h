// The runs of a session as a table (one row a run): colour and name, status with progress,
// the parameters that differ between runs, final accuracy, final ε, time. The charts, the
// Runs dock and the session file all read from here. Qt Core only (the Runs table adds
// the colour swatch and the red of a failed run); GUI thread only.
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <optional>
#include <vector>

#include "base/io/run_palette.h"
#include "base/io/run_record.h"

namespace epsilon::ui {

class RunModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    NameColumn,
    StatusColumn,
    ParametersColumn,
    AccuracyColumn,
    EpsilonColumn,
    ClassesColumn,  // the worst and best class at the last evaluation (who pays for privacy)
    TimeColumn,
    ColumnCount
  };
  // ColorRole: the run's "#rrggbb"; the views draw it (no Qt Gui here). SortRole: what a
  // column sorts by (numbers as numbers: accuracy, ε, worst class, seconds; a run without a
  // value last in ascending order of ε, first in ascending order of accuracy).
  enum Role { RunIdRole = Qt::UserRole + 1, ProgressRole, StatusRole, ColorRole, SortRole };

  explicit RunModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

  // Adds a run; assigns an id (if 0), a colour (if invalid) and a name (if empty).
  int addRun(RunRecord run);
  // Many runs at once (a session or folder opened): as addRun for each, with one signal.
  void addRuns(std::vector<RunRecord> runs);
  // Runs are arriving in chunks (an opened session, SessionOpener): the views that draw every
  // run (charts, Sweep map, tuning summary, Attack tab) wait for the last chunk instead of
  // redrawing all at each. Ending it emits runsChanged once.
  void setArriving(bool arriving);
  bool arriving() const { return m_arriving; }
  // Re-inserts a removed run at its old row (undo of a delete).
  void restoreRun(const RunRecord& run, int row);
  std::optional<RunRecord> takeRun(int id);  // removes and returns it
  void clear();

  const std::vector<RunRecord>& runs() const { return m_runs; }
  const RunRecord* run(int id) const;
  int rowOf(int id) const;
  int idAt(int row) const;

  void setStatus(int id, RunStatus status, const QString& message = {});
  // Emits dataChanged (the progress bar and the time), not runChanged: nothing a chart draws.
  void setProgress(int id, double progress, double elapsedSeconds);
  void setPrivacyLabel(int id, const QString& label);
  void appendEval(int id, const EvalPoint& point);
  void appendLosses(int id, const std::vector<LossPoint>& points);
  void setVisible(int id, bool visible);
  // The run's membership attack and canary audit results (the Attack tab shows them).
  void setAttack(int id, const AttackRecord& attack);
  void setLira(int id, const LiraRecord& lira);  // emits attackChanged
  void setCanaryAudit(int id, const CanaryAuditRecord& audit);
  void rename(int id, const QString& name);
  // A run trained elsewhere (a CLI batch, base/session/batch_runs.h) ended as `finished`: the
  // run takes its status, message, progress, settings, label, history and time; its id,
  // name, colour and visibility stay.
  void setResult(int id, const RunRecord& finished);

  // The colour the next run gets ("#rrggbb"): base/io/run_palette.h's first colour no run has.
  QString nextColor() const;

 Q_SIGNALS:
  // Points were added to a run's history (the charts coalesce these into one redraw).
  void historyChanged(int id);
  // Runs were added, removed, shown or hidden.
  void runsChanged();
  // A run's row changed in what the charts draw (status, name, visibility, an evaluation):
  // every dataChanged but a progress tick's (setProgress), several a second per training run.
  void runChanged(int id);
  // A run's attack or canary audit result was set.
  void attackChanged(int id);
  // The user renamed, showed or hid a run in the table (setData): the session records it.
  void renamedByUser(int id, const QString& before, const QString& after);
  void shownByUser(int id, bool visible);
  // A run left the model (takeRun or clear): whoever trains it lets it go.
  void runRemoved(int id);

 private:
  RunRecord* find(int id);
  void refreshDiffs();
  RunColorPicker colorPicker() const;  // counting the runs' colours
  // Its id, colour (from `colors`, which then counts it) and name when it has none.
  void prepareNewRun(RunRecord& run, RunColorPicker& colors);
  QVariant sortValue(const RunRecord& run, int column) const;
  void emitRowChanged(int row);

  std::vector<RunRecord> m_runs;
  QStringList m_differingKeys;
  QHash<int, QString> m_differs;  // run id -> the Differs column's text
  int m_nextId = 1;
  bool m_arriving = false;
  mutable long long m_lastRow = -1;  // the row rowOf found last (a hint only)
};

}  // namespace epsilon::ui
