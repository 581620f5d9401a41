// The CLI's batches of runs (`sweep`, `reproduce`, and `audit`'s one run) kept in the session model
// the GUI uses (docs/ARCHITECTURE.md, "Session model"): every point enters the RunModel queued,
// named after its label as the GUI names a sweep's run file, and takes its result as the GUI's
// record of it (run_conversion.h, recordFromResult) when its job ends. The charts and the session
// file are then drawn and written from the model, through the writers File › Save session uses.
#pragma once

#include <optional>
#include <vector>

#include "core/audit/lira.h"
#include "core/audit/one_run_audit.h"
#include "core/train/progress.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

class RunModel;

// Adds `points` as queued runs (one signal); their run ids, in the points' order.
std::vector<int> addPlannedRuns(RunModel& runs, const std::vector<train::SweepPoint>& points);

// Run `id`'s job ended with `result`: the run takes its status, message, settings, history and
// time; its name, colour and visibility stay.
void landResult(RunModel& runs, int id, const train::RunResult& result);

// `audit`'s run `id` (trained on N + the included canaries) ended: it lands as landResult and
// takes the audit's record as the GUI's canary audit stores it (canaryAuditRecordOf: the
// audited ε with the statement of why it differs from the run's own), and LiRA's when run.
void landAudit(RunModel& runs, int id, const audit::AuditResult& result,
               const audit::AuditOptions& options,
               const std::optional<audit::LiraAttack>& lira = std::nullopt);

}  // namespace epsilon::ui
