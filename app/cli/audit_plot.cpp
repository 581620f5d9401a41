#include "audit_plot.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "ui/chart_export.h"
#include "ui/run_charts.h"

namespace epsilon::cli {

namespace {

// Log axes cannot show 0: rates are drawn from 1e-4 up (a rate of 0 sits on the axis).
constexpr double kFloor = 1e-4;

QLineSeries* rocSeries(const audit::RocCurve& roc, const QString& name) {
  auto* series = new QLineSeries;
  series->setName(name);
  for (std::size_t i = 0; i < roc.fpr.size(); ++i) {
    series->append(std::max(kFloor, roc.fpr[i]), std::max(kFloor, roc.tpr[i]));
  }
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

QString plotAudit(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                  double confidence, const QString& path) {
  auto chart = std::make_unique<QChart>();
  chart->setTitle(auditTitle(result, confidence));

  std::vector<double> fprs;
  for (int i = 0; i <= 80; ++i) fprs.push_back(std::pow(10.0, -4.0 + 4.0 * i / 80.0));
  const std::vector<double> bound = privacy::tprBoundCurve(profile, fprs);
  auto* boundSeries = new QLineSeries;
  boundSeries->setName(QStringLiteral("accountant's bound"));
  auto* chance = new QLineSeries;
  chance->setName(QStringLiteral("chance"));
  for (std::size_t i = 0; i < fprs.size(); ++i) {
    boundSeries->append(fprs[i], std::max(kFloor, bound[i]));
    chance->append(fprs[i], fprs[i]);
  }
  QPen dashed(Qt::gray);
  dashed.setStyle(Qt::DashLine);
  chance->setPen(dashed);
  QPen thick(Qt::black);
  thick.setWidthF(2.5);
  boundSeries->setPen(thick);

  const std::vector<QLineSeries*> all{
      boundSeries, chance,
      rocSeries(result.attack.roc,
                QStringLiteral("members vs test (AUC %1)").arg(result.attack.auc, 0, 'f', 3)),
      rocSeries(result.canaryRoc,
                QStringLiteral("canaries (AUC %1)").arg(result.canaryAuc, 0, 'f', 3))};
  auto* x = new QLogValueAxis;
  auto* y = new QLogValueAxis;
  x->setTitleText(QStringLiteral("false-positive rate"));
  y->setTitleText(QStringLiteral("true-positive rate"));
  for (QLogValueAxis* axis : {x, y}) {
    axis->setRange(kFloor, 1.0);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);
  }
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QLineSeries* series : all) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  QChart* drawn = chart.get();
  return ui::exportDrawing(
      [drawn](QPainter& painter, const QRectF& target) { ui::renderChart(drawn, painter, target); },
      path, QSize(1100, 800), 110, QStringLiteral("EpsilonLab audit"));
}

}  // namespace epsilon::cli
