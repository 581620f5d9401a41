// The cost of one chart update while runs train: 20 runs × 2,000 evaluations each (the four
// run charts), then each run gains one evaluation and the charts update — the redraw that
// live training asks for at most ten times a second. Also a full first draw for scale, and
// the longest of the four one-chart updates a live redraw in the window takes a turn each for
// (ChartPanel draws a chart a turn).
// Reports figures; never fails on a time.
//   bench_chart_update [RUNS] [POINTS] [UPDATES]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "base/io/run_record.h"
#include "ui/charts/run_charts.h"

using epsilon::ui::EvalPoint;
using epsilon::ui::RunRecord;

namespace {
// One copy of the arithmetic, not inlined: each inlined copy of a lambda may fuse its
// multiply-adds differently, and points that differ in their last bits cost Qt Charts' line
// shape (a stroke of each replaced line, for hovering) up to three times as much. Inlined
// twice, the whole updates and the one-chart turns below were timed on different data: a
// one-chart update read nearly as long as a whole update (see docs/ARCHITECTURE.md).
[[gnu::noinline]] void addPoint(RunRecord& run, int i) {
  EvalPoint p;
  p.step = 10 * (i + 1);
  p.epoch = 0.01 * (i + 1);
  p.testAccuracy = 0.5 + 0.4 * (1.0 - 1.0 / (1.0 + 0.01 * i)) + 0.001 * run.id;
  p.epsilon = 0.05 * std::sqrt(i + 1.0) * (1.0 + 0.1 * run.id);
  run.evals.push_back(p);
}
}  // namespace

int main(int argc, char* argv[]) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const int runCount = argc > 1 ? std::max(1, atoi(argv[1])) : 20;
  const int points = argc > 2 ? std::max(2, atoi(argv[2])) : 2000;
  const int updates = argc > 3 ? std::max(3, atoi(argv[3])) : 30;
  const char* palette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9"};
  std::vector<RunRecord> runs(static_cast<std::size_t>(runCount));
  for (int r = 0; r < runCount; ++r) {
    RunRecord& run = runs[static_cast<std::size_t>(r)];
    run.id = r + 1;
    run.name = QStringLiteral("σ %1 · C 1").arg(0.5 + 0.1 * r);
    run.color = QString::fromLatin1(palette[r % 5]);
    run.status = epsilon::ui::RunStatus::Running;
    for (int i = 0; i < points; ++i) addPoint(run, i);
  }
  epsilon::ui::RunCharts charts;
  QElapsedTimer t;
  t.start();
  charts.update(runs);
  const double first = t.nsecsElapsed() / 1e6;
  // What a redraw costs on screen: the update, then the four charts painted at 1280×720.
  QImage canvas(1280, 720, QImage::Format_ARGB32_Premultiplied);
  const auto paint = [&] {
    QPainter painter(&canvas);
    charts.renderGrid(painter, QRectF(0, 0, 1280, 720));
  };
  paint();
  std::vector<double> times;
  std::vector<double> drawn;
  for (int u = 0; u < updates; ++u) {
    for (RunRecord& run : runs) addPoint(run, static_cast<int>(run.evals.size()));
    t.restart();
    charts.update(runs);
    times.push_back(t.nsecsElapsed() / 1e6);
    paint();
    drawn.push_back(t.nsecsElapsed() / 1e6);
  }
  std::vector<double> turns;  // the longest one-chart update of each live redraw
  for (int u = 0; u < updates; ++u) {
    for (RunRecord& run : runs) addPoint(run, static_cast<int>(run.evals.size()));
    double longest = 0;
    for (epsilon::ui::ChartKind kind : epsilon::ui::kAllChartKinds) {
      t.restart();
      charts.update(runs, kind);
      longest = std::max(longest, t.nsecsElapsed() / 1e6);
    }
    turns.push_back(longest);
    paint();  // as the window paints between redraws
  }
  std::sort(turns.begin(), turns.end());
  std::sort(times.begin(), times.end());
  std::sort(drawn.begin(), drawn.end());
  std::printf(
      "%d runs × %d points: first draw %.1f ms; update with one new point per run: "
      "median %.2f ms, p90 %.2f ms, max %.2f ms (%d updates)\n",
      runCount, points, first, times[times.size() / 2], times[times.size() * 9 / 10], times.back(),
      updates);
  std::printf(
      "update + paint of the four charts at 1280×720: median %.1f ms, p90 %.1f ms, "
      "max %.1f ms\n",
      drawn[drawn.size() / 2], drawn[drawn.size() * 9 / 10], drawn.back());
  std::printf(
      "a chart a turn: the longest turn's update median %.2f ms, p90 %.2f ms, max %.2f ms\n",
      turns[turns.size() / 2], turns[turns.size() * 9 / 10], turns.back());
  return 0;
}
