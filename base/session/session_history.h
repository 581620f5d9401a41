// SessionHistory: the undo stack of a session's edits — runs added, deleted, renamed, hidden
// or replaced, and changes to the Experiment panel's settings — with the clean state that
// tells whether the session has unsaved work (docs/ARCHITECTURE.md, "Session model"). Qt 6
// keeps QUndoStack in Qt Gui, beside QAction; the session model is Qt Core only so that the
// CLI links it without Gui, so the history is this small stack and the Edit menu's actions
// bind to its signals. GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

namespace epsilon::ui {

// One edit: what it is called ("Delete 2 runs"), how to undo it and how to do it again.
struct SessionEdit {
  QString text;
  std::function<void()> undo;
  std::function<void()> redo;
};

class SessionHistory : public QObject {
  Q_OBJECT
 public:
  explicit SessionHistory(QObject* parent = nullptr);

  // Records an edit that has already been made (its redo() is not called now). Edits after
  // the current position (undone ones) are dropped.
  void push(SessionEdit edit);
  void undo();
  void redo();
  bool canUndo() const { return m_index > 0; }
  bool canRedo() const { return m_index < static_cast<int>(m_edits.size()); }
  QString undoText() const;  // the text of the edit undo() reverts ("" if none)
  QString redoText() const;
  int count() const { return static_cast<int>(m_edits.size()); }
  int index() const { return m_index; }  // edits in effect
  void clear();                          // forgets every edit; the session is clean

  // Saved: the current position is the saved state. Dirty: any edit since (or undone since).
  void setClean();
  bool isClean() const { return m_index == m_cleanIndex; }

 Q_SIGNALS:
  void changed();  // an edit was pushed, undone or redone, or the history was cleared
  void cleanChanged(bool clean);

 private:
  void moveTo(int index, bool wasClean);

  std::vector<SessionEdit> m_edits;
  int m_index = 0;       // edits [0, m_index) are in effect
  int m_cleanIndex = 0;  // -1: the saved state can no longer be reached
  bool m_busy = false;   // inside undo()/redo(): edits they cause are not recorded
};

}  // namespace epsilon::ui
