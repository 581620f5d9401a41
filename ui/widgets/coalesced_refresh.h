// The one way a view follows the RunModel without redrawing at every signal: bursts of signals
// become one refresh after an interval (as PlotJuggler coalesces its redraws). A view hidden in
// a shown window (a tab not current, a closed dock) does no work: it is marked stale and
// refreshes as it is shown, so it is never stale when looked at. A window never shown (tests,
// scripted exports) refreshes as before.
// A refresh may also wait while other work is due on the GUI thread (deferWhile: the privacy
// readout's calibration and preview while "Fix ε" is dragged), so that the two never share an
// event-loop turn: it then runs a frame after that work has been delivered (release()), or at
// the latest `maxDelayMs` after it was first asked, so the view stays live
// (docs/ARCHITECTURE.md, 'Threading').
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>

class QWidget;

namespace epsilon::ui {

class CoalescedRefresh : public QObject {
  Q_OBJECT
 public:
  // `refresh(live)`: live is true for a coalesced refresh of a view on screen, which may spread
  // its work over a few event-loop turns; false when asked now or on being shown (all at once).
  CoalescedRefresh(QWidget* view, int intervalMs, std::function<void(bool live)> refresh);

  // Something the view shows has changed: refresh within the interval (or when shown).
  void schedule();
  // Refreshes at once (tests, exports, a user's own choice) and clears what was pending.
  void now();
  // now(), or, hidden in a shown window, marks the view stale (a selection in another view).
  void nowIfShown();
  // Refreshes due while `busy` is true wait for release(), at most `maxDelayMs` after asked.
  void deferWhile(std::function<bool()> busy, int maxDelayMs);
  // The work waited for has been delivered: a waiting refresh runs one frame later.
  void release();
  // While `held` is true a due refresh is dropped: an open's runs still arriving in chunks
  // (RunModel::arriving), whose end signals the one refresh that draws them all.
  void holdWhile(std::function<bool()> held) { m_held = std::move(held); }

  int count() const { return m_count; }   // refreshes done
  bool stale() const { return m_stale; }  // hidden when asked: refreshes when shown

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool hiddenInShownWindow() const;
  void due();
  void run(bool live);

  QWidget* m_view;
  int m_interval;
  std::function<void(bool)> m_refresh;
  QTimer m_timer;
  std::function<bool()> m_busy;
  std::function<bool()> m_held;
  int m_maxDelay = 0;
  QElapsedTimer m_asked;    // since the first schedule() not yet refreshed
  bool m_stale = false;     // asked while hidden
  bool m_waiting = false;   // due, waiting for release()
  bool m_released = false;  // released: runs without asking `busy` again
  int m_count = 0;
};

}  // namespace epsilon::ui
