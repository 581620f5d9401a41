#include "audit_plot.h"

#include "reproduce_plot.h"
#include "base/io/attack_figure.h"

namespace epsilon::cli {

QString plotAudit(const audit::AuditResult& result, const audit::TradeoffBound& bound,
                  double confidence, const QString& path) {
  return plotFigure(ui::auditFigure(result, bound, confidence), path);
}

}  // namespace epsilon::cli
