// `epsilonlab-cli train --plot`'s second figure: the GUI's gradient-norm view as a figure file
// (base/io/figure_file.h) — the last lot's per-example norms before clipping as a histogram, the
// clip norm C (C_t for adaptive clipping) as a vertical line, the fraction clipped in the title
// and, for the tanh filter, the filter's curve.
#pragma once

#include <QString>

#include "core/privacy/privatizer.h"
#include "core/train/gradient_norms.h"
#include "base/io/figure_file.h"

namespace epsilon::cli {

// The figure for one lot's `sample` of a run named `runName` privatized with `options`.
ui::Figure gradientNormFigure(const train::GradientNormSample& sample,
                              const privacy::PrivatizerOptions& options, const QString& runName);

// `charts.png` → `charts-gradient-norms.png`: where --plot writes the gradient-norm figure.
QString gradientNormPlotPath(const QString& plotPath);

}  // namespace epsilon::cli
