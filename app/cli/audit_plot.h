// `epsilonlab-cli audit --plot`: the audit chart (base/io/attack_figure.h, the same chart as the
// GUI's Attack tab) drawn by epsilonlab-plot from a figure file (the CLI links no chart library).
#pragma once

#include <QString>

#include "core/audit/lira.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/run_attack.h"

namespace epsilon::cli {

// Writes the chart to `path` (.png, .svg or .pdf) through epsilonlab-plot. Returns an empty
// string on success, else a message naming the file.
// `lira`, when given, adds LiRA's ROC on the same members.
QString plotAudit(const audit::AuditResult& result, const audit::TradeoffBound& bound,
                  double confidence, const QString& path, const audit::LiraAttack* lira = nullptr);

}  // namespace epsilon::cli
