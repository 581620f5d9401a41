#include "audit_plot.h"

#include "base/io/attack_figure.h"
#include "reproduce_plot.h"

namespace epsilon::cli {

QString plotAudit(const audit::AuditResult& result, const audit::TradeoffBound& bound,
                  double confidence, const QString& path, const audit::LiraAttack* lira) {
  std::vector<ui::AttackCurve> more;
  if (lira) {
    const audit::RocCurve& roc = lira->attack.roc;  // whole, as the loss threshold's
    more.push_back({QStringLiteral("LiRA %1, %2 shadows (AUC %3)")
                        .arg(QString::fromStdString(audit::liraTestName(lira->test)))
                        .arg(lira->shadows)
                        .arg(lira->attack.auc, 0, 'f', 3),
                    QStringLiteral("#2ca02c"),
                    ui::curvePoints(roc.fpr, roc.tpr),
                    {}});
  }
  return plotFigure(ui::auditFigure(result, bound, confidence, more), path);
}

}  // namespace epsilon::cli
