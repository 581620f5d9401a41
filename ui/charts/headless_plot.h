// Charts without a window: renders runs into the same four charts the GUI shows (the same
// RunCharts code) and writes them as one PNG, SVG or PDF, so slides can be made from
// scripts (epsilonlab-plot, which epsilonlab-cli runs for --plot and reproduce). Needs a
// QApplication, which may use the offscreen platform.
#pragma once

#include <QSize>
#include <QString>
#include <vector>

#include "base/io/run_record.h"

namespace epsilon::ui {

// Writes the 2×2 chart grid for `runs` to `path` (format from the suffix). Returns an empty
// string on success, else a message naming the file. With `privacyCaption` every drawing
// carries the runs' δ, accountant and sampling under it (run_conversion.h, privacyCaption).
QString plotRunsToFile(const std::vector<RunRecord>& runs, const QString& path,
                       QSize size = {1600, 1100}, int dpi = 150, const QString& caption = {},
                       bool privacyCaption = false);

// One of the four charts alone, named by its file stem ("epsilon-vs-epoch", see
// chartFileStem), or the sweep map ("sweep-map", sweep_map_chart.h). Returns an empty string on
// success, else a message naming the chart or file.
QString plotChartToFile(const std::vector<RunRecord>& runs, const QString& chartStem,
                        const QString& path, QSize size = {1000, 650}, int dpi = 110,
                        const QString& caption = {}, bool privacyCaption = false);

// The runs' sweep map (sweep_map_chart.h); a set of runs that is not a sweep of one or two
// parameters draws the reason instead. Returns an empty string on success, else a message.
QString plotSweepMapToFile(const std::vector<RunRecord>& runs, const QString& path,
                           QSize size = {1200, 800}, int dpi = 110, bool privacyCaption = false);

}  // namespace epsilon::ui
