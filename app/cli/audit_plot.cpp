#include "audit_plot.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "reproduce_plot.h"
#include "ui/io/figure_file.h"

namespace epsilon::cli {

namespace {

// Log axes cannot show 0: rates are drawn from 1e-4 up (a rate of 0 sits on the axis).
constexpr double kFloor = 1e-4;

ui::FigureSeries rocSeries(const audit::RocCurve& roc, const QString& name) {
  ui::FigureSeries series{name, ui::FigureLine::Solid, {}};
  for (std::size_t i = 0; i < roc.fpr.size(); ++i)
    series.points.emplace_back(std::max(kFloor, roc.fpr[i]), std::max(kFloor, roc.tpr[i]));
  return series;
}

QString auditTitle(const audit::AuditResult& result, double confidence) {
  const train::PrivacySpent& upper = result.upper;
  const QString measured = QStringLiteral("Measured ε̂ ≥ %1 (%2% confidence)")
                               .arg(result.bound.epsilonLowerBound, 0, 'f', 2)
                               .arg(confidence * 100.0, 0, 'g', 3);
  // Every ε shown carries its δ, accountant and sampling; a run without noise has no bound.
  const QString accountant =
      std::isfinite(upper.epsilon)
          ? QStringLiteral("accountant ε ≤ %1 (δ = %2, %3, %4)")
                .arg(upper.epsilon, 0, 'g', 3)
                .arg(upper.delta, 0, 'g', 3)
                .arg(QString::fromStdString(upper.accountant),
                     QString::fromStdString(upper.sampling))
          : QStringLiteral("no accountant bound (%1)").arg(QString::fromStdString(upper.status));
  return measured + QStringLiteral(" vs ") + accountant;
}

}  // namespace

ui::Figure auditFigure(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                       double confidence) {
  ui::Figure figure;
  figure.title = auditTitle(result, confidence);
  figure.x = {QStringLiteral("false-positive rate"), true, kFloor, 1.0};
  figure.y = {QStringLiteral("true-positive rate"), true, kFloor, 1.0};
  std::vector<double> fprs;
  for (int i = 0; i <= 80; ++i) fprs.push_back(std::pow(10.0, -4.0 + 4.0 * i / 80.0));
  const std::vector<double> bound = privacy::tprBoundCurve(profile, fprs);
  ui::FigureSeries boundSeries{QStringLiteral("accountant's bound"), ui::FigureLine::Bold, {}};
  ui::FigureSeries chance{QStringLiteral("chance"), ui::FigureLine::Dashed, {}};
  for (std::size_t i = 0; i < fprs.size(); ++i) {
    boundSeries.points.emplace_back(fprs[i], std::max(kFloor, bound[i]));
    chance.points.emplace_back(fprs[i], fprs[i]);
  }
  figure.series = {boundSeries, chance,
                   rocSeries(result.attack.roc,
                             QStringLiteral("members vs test (AUC %1)").arg(result.attack.auc, 0, 'f', 3)),
                   rocSeries(result.canaryRoc, QStringLiteral("canaries (AUC %1)").arg(result.canaryAuc, 0, 'f', 3))};
  return figure;
}

QString plotAudit(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                  double confidence, const QString& path) {
  return plotFigure(auditFigure(result, profile, confidence), path);
}

}  // namespace epsilon::cli
