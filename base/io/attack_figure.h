// The Attack chart as data (a ui::Figure): membership attacks' empirical ROC curves over the
// accountant's trade-off bound, with the chance line. The GUI's Attack tab draws it live and
// `epsilonlab-cli audit --plot` writes it for epsilonlab-plot, so both are the same chart.
#pragma once

#include <QPointF>
#include <QString>
#include <span>
#include <vector>

#include "base/io/figure_file.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/run_attack.h"

namespace epsilon::ui {

// One run's curves: its ROC (FPR, TPR) and, for a DP run, its accountant's bound.
struct AttackCurve {
  QString name;   // the legend entry of the ROC
  QString color;  // "#rrggbb"; empty: the palette's
  std::vector<QPointF> roc;
  std::vector<QPointF> bound;           // empty: no bound drawn (a run without noise has none)
  FigureLine line = FigureLine::Solid;  // the ROC's (two attacks on one run: solid and dashed)
};

// Log axes cannot show 0: on them rates are drawn from this floor up.
inline constexpr double kAttackRateFloor = 1e-4;

// Points (x_i, y_i).
std::vector<QPointF> curvePoints(std::span<const double> x, std::span<const double> y);

// The chart: for each curve its bound (bold, the run's colour) and its ROC (its line), then the
// chance line (dashed). Log-log axes from kAttackRateFloor to 1 (rates below it drawn at it; ROC
// points at FPR 0 left out, as unmeasurable there), or linear axes from 0 to 1.
Figure attackFigure(const QString& title, const std::vector<AttackCurve>& curves, bool logAxes);

// The CLI's audit chart: the real members' and the canaries' ROC over the audited run's
// bound, titled "Measured ε̂ ≥ x (c% confidence) vs accountant ε ≤ y (δ, accountant, sampling)".
// `moreAttacks` (LiRA on the same members) are drawn after them, without bounds of their own.
Figure auditFigure(const audit::AuditResult& result, const audit::TradeoffBound& bound,
                   double confidence, const std::vector<AttackCurve>& moreAttacks = {});

}  // namespace epsilon::ui
