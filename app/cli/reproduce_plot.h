// Charts of a family of runs for `train --plot`, `sweep --plot` and `reproduce`. They are
// drawn by epsilonlab-plot (the GUI's chart code, offscreen), which this runs on a temporary
// session file: the CLI itself links Qt Core only, so a headless node needs no widget library.
#pragma once

#include <QSize>
#include <QString>
#include <vector>

#include "base/io/figure_file.h"
#include "base/io/run_record.h"
#include "core/train/progress.h"
#include "core/train/sweep.h"

namespace epsilon::cli {

// Throws UsageError naming `flag` when `path` is not a .png, .svg or .pdf file, or when
// epsilonlab-plot is not installed beside epsilonlab-cli (a build with EPSILON_BUILD_GUI=OFF).
void requirePlotting(const char* flag, const QString& path);
void requirePlotTool(const char* flag);  // the second half of requirePlotting

// Draws `runs` into `path`: the 2×2 grid, or the one chart named by `chart` ("epsilon-vs-epoch").
// Returns an empty string on success, else a message naming the file. `privacyCaption`: the
// runs' δ, accountant and sampling under the drawing (epsilonlab-plot --privacy-caption).
QString plotRecords(const std::vector<ui::RunRecord>& runs, const QString& path,
                    const QString& caption, const QString& chart = {}, QSize size = {1600, 1100},
                    int dpi = 150, bool privacyCaption = false);

// A described line chart (base/io/figure_file.h) into a PNG, SVG or PDF.
QString plotFigure(const ui::Figure& figure, const QString& path, QSize size = {1100, 800},
                   int dpi = 110);

// The four charts of the points' runs, as the session model holds them (runs[i] is
// points[i]'s; base/session/batch_runs.h), named by their point labels, into one PNG, SVG or PDF.
QString plotRunGrid(const std::vector<train::SweepPoint>& points,
                    const std::vector<ui::RunRecord>& runs, const QString& path,
                    const QString& caption, QSize size = {1400, 950}, int dpi = 110,
                    bool privacyCaption = false);

// The sweep map of the runs (ui/charts/sweep_map_chart.h): final accuracy over the swept
// parameters with iso-ε lines. sweepMapPath: where `sweep --plot FILE` puts it, FILE-map.EXT.
QString sweepMapPath(const QString& plotPath);
QString plotSweepMap(const std::vector<train::SweepPoint>& points,
                     const std::vector<ui::RunRecord>& runs, const QString& path,
                     QSize size = {1200, 800}, int dpi = 110, bool privacyCaption = false);

// One of the four charts alone (e.g. "epsilon-vs-epoch" for an accountant-only preset).
QString plotOneChart(const std::vector<train::SweepPoint>& points,
                     const std::vector<ui::RunRecord>& runs, const QString& chart,
                     const QString& path, const QString& caption, QSize size = {1000, 650},
                     int dpi = 110);

}  // namespace epsilon::cli
