// A run's attack results as the run record keeps them (base/io/run_record.h): made from what
// core/audit computed, and their JSON inside a session's run ("attack", "canary_audit",
// "lira").
// Both keys are optional — sessions written before them still open — but when present they
// are read as strictly as the rest of the file.
#pragma once

#include <QJsonObject>

#include "base/io/json_reader.h"
#include "base/io/run_record.h"
#include "core/audit/lira.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/run_attack.h"

namespace epsilon::ui {

AttackRecord attackRecordOf(const audit::RunAttack& attack);
CanaryAuditRecord canaryAuditRecordOf(const audit::AuditResult& result,
                                      const audit::AuditOptions& options);

// Why an audited run's ε differs from the run's own: "its training set grew by 487 canaries
// (10000 + 487 = 10487 examples, so q = L/10487): ε 4.62 for the audited run, 4.00 for the
// run alone". Empty when the two statements agree.
QString auditedEpsilonNote(const audit::AuditResult& result);

QJsonObject attackToJson(const AttackRecord& attack);
QJsonObject canaryAuditToJson(const CanaryAuditRecord& audit);
// {"attack": attackToJson(...), "shadows": n, "reused_shadows": r, "test": "online",
//  "variance": "global", "seconds": s}
QJsonObject liraToJson(const LiraRecord& lira);

// Read from a run's reader `r` when the key is there (nullopt otherwise). Throws ConfigError
// naming the key path ("runs[0].attack.roc[3]: expected [fpr, tpr] in [0, 1], got ...").
std::optional<AttackRecord> attackFromJson(JsonReader& r, const QString& key);
std::optional<CanaryAuditRecord> canaryAuditFromJson(JsonReader& r, const QString& key);
std::optional<LiraRecord> liraFromJson(JsonReader& r, const QString& key);

}  // namespace epsilon::ui
