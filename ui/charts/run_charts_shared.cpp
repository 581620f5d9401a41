// RunCharts: the work a redraw's four charts share. Which runs are drawn (every k-th past
// kMaxDrawnRuns), the grid's legend and whether the ε and loss axes are logarithmic do not
// depend on the chart; a live redraw draws one chart a turn (ChartPanel), so this is worked
// out at its first chart and reused by the other three while the runs stay the same.
#include <QObject>
#include <algorithm>
#include <utility>
#include <vector>

#include "ui/charts/run_charts.h"
#include "ui/charts/run_legend.h"

namespace epsilon::ui {

namespace {

// QtCharts' cost of adding a series grows with the series a chart has (its theme and axes
// visit them all), so 10,000 runs took minutes to draw; beyond this many visible runs every
// k-th one is drawn and the legend says so (the Runs table still lists them all).
constexpr std::size_t kMaxDrawnRuns = 400;

// Marks in `drawn` the runs the charts draw; returns the legend's note when they are thinned.
QString chooseDrawnRuns(const std::vector<RunRecord>& all, std::vector<char>& drawn) {
  drawn.assign(all.size(), 0);
  const auto visible = static_cast<std::size_t>(
      std::count_if(all.begin(), all.end(), [](const RunRecord& r) { return r.visible; }));
  // A power of two: while an opened session's runs arrive in chunks, the step only doubles
  // (every run drawn at step 2k was drawn at step k), so the series already drawn are kept
  // instead of the whole set changing with each chunk.
  std::size_t step = 1;
  while (step * kMaxDrawnRuns < visible) step *= 2;
  std::size_t index = 0, shown = 0;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].visible && index++ % step == 0) drawn[i] = 1, ++shown;
  if (step == 1) return {};
  return QObject::tr(
             "<div align=\"center\"><i>The charts show %1 of the %2 visible runs (every "
             "%3th); hide runs to see others.</i></div>")
      .arg(shown)
      .arg(visible)
      .arg(step);
}

bool sameRuns(const std::vector<std::pair<int, bool>>& ids, const std::vector<RunRecord>& runs) {
  if (ids.size() != runs.size()) return false;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (ids[i].first != runs[i].id || ids[i].second != runs[i].visible) return false;
  return true;
}

}  // namespace

void RunCharts::shareWork(const std::vector<RunRecord>& all, bool redo) {
  if (!redo && sameRuns(m_shared.runs, all)) return;
  ++m_shared.count;
  m_shared.runs.clear();
  m_shared.runs.reserve(all.size());
  for (const RunRecord& run : all) m_shared.runs.emplace_back(run.id, run.visible);
  const QString note = chooseDrawnRuns(all, m_shared.drawn);
  if (note.isEmpty()) {
    m_legendHtml = runLegendHtml(all);
  } else {  // the legend names the drawn runs only
    std::vector<RunRecord> drawn;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (m_shared.drawn[i]) drawn.push_back(all[i]);
    m_legendHtml = runLegendHtml(drawn) + note;
  }
  m_shared.logEpsilon = wantLogEpsilon(all, m_shared.drawn);
  m_shared.logLoss = wantLogLoss(all, m_shared.drawn);
}

}  // namespace epsilon::ui
