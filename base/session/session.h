// Session: what a user's work is, below the widgets (docs/ARCHITECTURE.md, "Session model"):
// the runs with their records, names and colours (RunModel), the history of edits
// (SessionHistory: runs deleted or replaced, the Experiment panel's settings changed), the
// panel's settings as last committed, whether there is unsaved work, and the autosave that
// keeps a recovery copy of it. The main window binds to it; tests drive it without widgets.
// GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "base/io/run_record.h"
#include "base/jobs/job_service.h"
#include "core/train/experiment_config.h"

class QTimer;

namespace epsilon::ui {

class RunModel;
class SessionHistory;

class Session : public QObject {
  Q_OBJECT
 public:
  explicit Session(QObject* parent = nullptr);

  RunModel* runs() const { return m_runs; }
  SessionHistory* history() const { return m_history; }

  // The panel's settings as last committed.
  const train::ExperimentConfig& panelConfig() const { return m_panelConfig; }
  // A committed change of the panel's settings: an undoable edit named after what changed
  // ("Change noise_multiplier"); undo and redo hand the settings back with panelConfigRestored.
  // Nothing is recorded when nothing changed.
  void commitPanelConfig(const train::ExperimentConfig& config);
  // Takes settings without recording an edit (the window's first settings, a loaded lesson).
  void resetPanelConfig(const train::ExperimentConfig& config);

  // A clean workspace (a lesson starting): every run is taken out and kept aside, as one
  // undoable edit named `text`; they train no further (like deleted runs). Nothing happens
  // when there are no runs.
  void setRunsAside(const QString& text);
  // Puts every run set aside back after the current ones, as one undoable edit.
  void bringBackRunsSetAside();
  // Forgets every run, those set aside too, and the history (a session is opened).
  void clear();
  int runsSetAside() const { return static_cast<int>(m_aside.size()); }
  const std::vector<RunRecord>& runsSetAsideList() const { return m_aside; }

  // Unsaved work: runs added, removed, renamed, hidden or trained further, or settings changed
  // since the last save (or since the start).
  bool isModified() const { return m_modified; }
  void setSaved();  // after a save, a Discard, or opening a session
  // File › Save session (and the CLI's `sweep --session`): the runs to `path` (atomically,
  // base/io/session_file.h), then saved. Throws SessionError naming the file; nothing changes.
  void save(const QString& path);
  // Runs recovered from the recovery copy: unsaved work, written back to the copy at once.
  void markRecovered();

  // The recovery copy: every change is written there (atomically, at most every
  // `delayMs`, as a job: the GUI thread only copies the runs), and the file is removed when
  // the work is saved or discarded. Empty: none.
  void setRecoveryFile(const QString& path, int delayMs = 2000);
  QString recoveryFile() const { return m_recoveryFile; }
  void
  writeRecoveryNow();  // the pending write, now and on this thread (tests; before a risky step)

 Q_SIGNALS:
  void panelConfigRestored(const epsilon::train::ExperimentConfig& config);
  void modifiedChanged(bool modified);
  void runsSetAsideChanged(int count);
  void recoveryFailed(const QString& message);  // the recovery copy could not be written

 private:
  void markModified();
  void writeRecoveryInBackground();
  std::vector<RunRecord> recoverySnapshot() const;  // the runs and, hidden, those set aside

  RunModel* m_runs;
  SessionHistory* m_history;
  QTimer* m_autosave;
  // Takes runs `ids` out of the model into `into` (stopped if they were training).
  void takeRuns(const QList<int>& ids, std::vector<RunRecord>& into);

  train::ExperimentConfig m_panelConfig;
  std::vector<RunRecord> m_aside;  // runs set aside, oldest first
  QString m_recoveryFile;
  bool m_modified = false;
  // Orders background writes of the recovery copy against its removal: a write that was
  // requested before the work was saved never brings the copy back.
  struct RecoveryGate;
  std::shared_ptr<RecoveryGate> m_gate;
  LatestRequest m_recoveryWrite;
};

}  // namespace epsilon::ui
