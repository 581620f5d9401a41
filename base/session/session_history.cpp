#include "base/session/session_history.h"

namespace epsilon::ui {

SessionHistory::SessionHistory(QObject* parent) : QObject(parent) {}

void SessionHistory::push(SessionEdit edit) {
  if (m_busy) return;  // an undo or redo replaying itself
  const bool wasClean = isClean();
  if (m_cleanIndex > m_index) m_cleanIndex = -1;  // the saved state was among the undone edits
  m_edits.resize(static_cast<std::size_t>(m_index));
  m_edits.push_back(std::move(edit));
  moveTo(m_index + 1, wasClean);
}

void SessionHistory::undo() {
  if (!canUndo()) return;
  const bool wasClean = isClean();
  m_busy = true;
  m_edits[static_cast<std::size_t>(m_index - 1)].undo();
  m_busy = false;
  moveTo(m_index - 1, wasClean);
}

void SessionHistory::redo() {
  if (!canRedo()) return;
  const bool wasClean = isClean();
  m_busy = true;
  m_edits[static_cast<std::size_t>(m_index)].redo();
  m_busy = false;
  moveTo(m_index + 1, wasClean);
}

QString SessionHistory::undoText() const {
  return canUndo() ? m_edits[static_cast<std::size_t>(m_index - 1)].text : QString();
}

QString SessionHistory::redoText() const {
  return canRedo() ? m_edits[static_cast<std::size_t>(m_index)].text : QString();
}

void SessionHistory::clear() {
  const bool wasClean = isClean();
  m_edits.clear();
  m_cleanIndex = 0;
  moveTo(0, wasClean);
}

void SessionHistory::setClean() {
  const bool wasClean = isClean();
  m_cleanIndex = m_index;
  if (!wasClean) Q_EMIT cleanChanged(true);
}

void SessionHistory::moveTo(int index, bool wasClean) {
  m_index = index;
  Q_EMIT changed();
  if (isClean() != wasClean) Q_EMIT cleanChanged(isClean());
}

}  // namespace epsilon::ui
