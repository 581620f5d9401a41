#include "ui/widgets/coalesced_refresh.h"

#include <QEvent>
#include <QWidget>

namespace epsilon::ui {

namespace {
constexpr int kFrameMs = 16;  // one frame at 60 Hz: the delivered work's layout and paint first
}

CoalescedRefresh::CoalescedRefresh(QWidget* view, int intervalMs, std::function<void(bool)> refresh)
    : QObject(view), m_view(view), m_interval(intervalMs), m_refresh(std::move(refresh)) {
  m_timer.setSingleShot(true);
  connect(&m_timer, &QTimer::timeout, this, &CoalescedRefresh::due);
  view->installEventFilter(this);
}

bool CoalescedRefresh::hiddenInShownWindow() const {
  return !m_view->isVisible() && m_view->window()->isVisible();
}

void CoalescedRefresh::schedule() {
  if (hiddenInShownWindow()) {
    m_stale = true;
    return;
  }
  if (!m_asked.isValid()) m_asked.start();
  if (!m_timer.isActive() && !m_waiting) m_timer.start(m_interval);
}

void CoalescedRefresh::due() {
  if (hiddenInShownWindow()) {  // hidden since it was asked
    m_stale = true;
    m_waiting = m_released = false;
    m_asked.invalidate();
    return;
  }
  if (m_held && m_held()) {  // the end of the hold schedules again
    m_waiting = m_released = false;
    m_asked.invalidate();
    return;
  }
  if (m_busy && !m_released && m_busy()) {
    const qint64 left = m_maxDelay - (m_asked.isValid() ? m_asked.elapsed() : 0);
    if (left > 0) {
      m_waiting = true;
      m_timer.start(static_cast<int>(left));
      return;
    }
  }
  run(true);
}

void CoalescedRefresh::now() {
  run(false);
}

void CoalescedRefresh::nowIfShown() {
  if (hiddenInShownWindow()) {
    m_timer.stop();
    m_stale = true;
    return;
  }
  now();
}

void CoalescedRefresh::run(bool live) {
  m_timer.stop();
  m_stale = m_waiting = m_released = false;
  m_asked.invalidate();
  ++m_count;
  m_refresh(live);
}

void CoalescedRefresh::deferWhile(std::function<bool()> busy, int maxDelayMs) {
  m_busy = std::move(busy);
  m_maxDelay = maxDelayMs;
}

void CoalescedRefresh::release() {
  if (!m_waiting) return;
  m_waiting = false;
  m_released = true;
  m_timer.start(kFrameMs);
}

bool CoalescedRefresh::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_view && event->type() == QEvent::Show && m_stale) now();
  return QObject::eventFilter(watched, event);
}

}  // namespace epsilon::ui
