// The audit chart for `epsilonlab-cli audit --plot`: the attacks' empirical ROC curves over
// the accountant's trade-off bound (the f-DP envelope no attacker can cross), log-log, drawn
// by epsilonlab-plot from a figure file (the CLI links no chart library).
#pragma once

#include <QString>

#include "core/audit/one_run_audit.h"
#include "core/privacy/tradeoff.h"
#include "ui/io/figure_file.h"

namespace epsilon::cli {

// The chart as data: the bound, chance, and the two attacks' ROC curves on log-log axes.
ui::Figure auditFigure(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                       double confidence);

// Writes the chart to `path` (.png, .svg or .pdf) through epsilonlab-plot. Returns an empty
// string on success, else a message naming the file.
QString plotAudit(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                  double confidence, const QString& path);

}  // namespace epsilon::cli
