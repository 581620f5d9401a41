// The audit chart for `epsilonlab-cli audit --plot`: the attacks' empirical ROC curves over
// the accountant's trade-off bound (the f-DP envelope no attacker can cross), log-log, drawn
// with the GUI's chart rendering and exporter.
#pragma once

#include <QString>

#include "core/audit/one_run_audit.h"
#include "core/privacy/tradeoff.h"

namespace epsilon::cli {

// Writes the chart to `path` (.png, .svg or .pdf). Needs a QApplication. Returns an empty
// string on success, else a message naming the file.
QString plotAudit(const audit::AuditResult& result, const privacy::PrivacyProfile& profile,
                  double confidence, const QString& path);

}  // namespace epsilon::cli
