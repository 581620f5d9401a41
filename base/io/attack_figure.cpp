#include "base/io/attack_figure.h"

#include <algorithm>
#include <cmath>

namespace epsilon::ui {

namespace {

std::vector<QPointF> floored(const std::vector<QPointF>& points, bool logAxes) {
  if (!logAxes) return points;
  std::vector<QPointF> out;
  out.reserve(points.size());
  for (const QPointF& p : points) {
    // An empirical FPR of 0 only says "below 1/n" for n non-members: drawn at the floor it
    // would claim a TPR at FPR 1e-4 that was never measured, and could seem to cross the
    // bound there. The curve starts at its first measured FPR instead.
    if (p.x() <= 0.0) continue;
    out.emplace_back(std::max(kAttackRateFloor, p.x()), std::max(kAttackRateFloor, p.y()));
  }
  return out;
}

QString auditTitle(const audit::AuditResult& result, double confidence) {
  const privacy::PrivacyStatement& upper = result.upper;
  const QString measured = QStringLiteral("Measured ε̂ ≥ %1 (%2% confidence)")
                               .arg(result.bound.epsilonLowerBound, 0, 'f', 2)
                               .arg(confidence * 100.0, 0, 'g', 3);
  // Every ε shown carries its δ, accountant and sampling; a run without noise has no bound.
  const QString accountant =
      std::isfinite(upper.epsilon)
          ? QStringLiteral("accountant ε ≤ %1 (δ = %2, %3, %4)")
                .arg(upper.epsilon, 0, 'g', 3)
                .arg(upper.delta, 0, 'g', 3)
                .arg(QString::fromUtf8(privacy::accountantWords(upper.accountant)),
                     QString::fromUtf8(privacy::samplingWords(upper.sampling)))
          : QStringLiteral("no accountant bound (%1)")
                .arg(QString::fromUtf8(privacy::statusWords(upper.status)));
  return measured + QStringLiteral(" vs ") + accountant;
}

}  // namespace

std::vector<QPointF> curvePoints(std::span<const double> x, std::span<const double> y) {
  std::vector<QPointF> points;
  const std::size_t n = std::min(x.size(), y.size());
  points.reserve(n);
  for (std::size_t i = 0; i < n; ++i) points.emplace_back(x[i], y[i]);
  return points;
}

Figure attackFigure(const QString& title, const std::vector<AttackCurve>& curves, bool logAxes) {
  Figure figure;
  figure.title = title;
  const double low = logAxes ? kAttackRateFloor : 0.0;
  figure.x = {QStringLiteral("false-positive rate"), logAxes, low, 1.0};
  figure.y = {QStringLiteral("true-positive rate"), logAxes, low, 1.0};
  for (const AttackCurve& curve : curves) {
    if (curve.bound.empty()) continue;
    figure.series.push_back({QStringLiteral("bound: %1").arg(curve.name), FigureLine::Bold,
                             floored(curve.bound, logAxes), curve.color});
  }
  for (const AttackCurve& curve : curves) {
    std::vector<QPointF> roc = floored(curve.roc, logAxes);
    if (roc.empty()) continue;
    figure.series.push_back({curve.name, curve.line, std::move(roc), curve.color});
  }
  // Chance: an attacker who guesses "member" at random has TPR = FPR.
  FigureSeries chance{QStringLiteral("chance"), FigureLine::Dashed, {}, QStringLiteral("#808080")};
  if (logAxes) {
    for (const double fpr : audit::tradeoffFprGrid()) chance.points.emplace_back(fpr, fpr);
  } else {
    chance.points = {QPointF(0.0, 0.0), QPointF(1.0, 1.0)};
  }
  figure.series.push_back(chance);
  return figure;
}

Figure auditFigure(const audit::AuditResult& result, const audit::TradeoffBound& bound,
                   double confidence, const std::vector<AttackCurve>& moreAttacks) {
  AttackCurve members{QStringLiteral("members vs test (AUC %1)").arg(result.attack.auc, 0, 'f', 3),
                      QStringLiteral("#1f77b4"),
                      {},
                      curvePoints(bound.fpr, bound.tpr)};
  members.roc = curvePoints(result.attack.roc.fpr, result.attack.roc.tpr);
  AttackCurve canaries{QStringLiteral("canaries (AUC %1)").arg(result.canaryAuc, 0, 'f', 3),
                       QStringLiteral("#d62728"),
                       {},
                       {}};
  canaries.roc = curvePoints(result.canaryRoc.fpr, result.canaryRoc.tpr);
  std::vector<AttackCurve> curves{members, canaries};
  for (AttackCurve curve : moreAttacks) {
    curve.bound.clear();  // one bound for the one run
    curves.push_back(std::move(curve));
  }
  Figure figure = attackFigure(auditTitle(result, confidence), curves, true);
  // One bound for the one run: named as the accountant's, drawn in black.
  for (FigureSeries& s : figure.series) {
    if (s.line != FigureLine::Bold) continue;
    s.name = QStringLiteral("accountant's bound");
    s.color = QStringLiteral("#000000");
  }
  return figure;
}

}  // namespace epsilon::ui
