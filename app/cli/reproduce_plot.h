// Charts of a family of runs, drawn by the GUI's own chart code (ui/run_charts.h) without a
// window: the 2×2 grid for `sweep --plot`, and single charts for the reproduction report.
#pragma once

#include <QSize>
#include <QString>

#include <vector>

#include "core/train/progress.h"
#include "core/train/sweep.h"
#include "ui/run_charts.h"

namespace epsilon::cli {

// A QApplication exists (main() makes one for --plot and reproduce); throws std::runtime_error
// naming `flag` otherwise.
void requirePlotting(const char* flag);

// The four charts of the runs (named by their point labels) into one PNG, SVG or PDF.
// Returns an empty string on success, else a message naming the file.
QString plotRunGrid(const std::vector<train::SweepPoint>& points, const std::vector<train::RunResult>& results,
                    const QString& path, const QString& caption, QSize size = {1400, 950}, int dpi = 110);

// One of the four charts alone (e.g. ε vs epoch for an accountant-only preset).
QString plotOneChart(const std::vector<train::SweepPoint>& points, const std::vector<train::RunResult>& results,
                     ui::ChartKind kind, const QString& path, const QString& caption, QSize size = {1000, 650},
                     int dpi = 110);

}  // namespace epsilon::cli
