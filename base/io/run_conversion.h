// Turns the engine's progress events and run results into the UI's RunRecord (the one
// place that maps train::ProgressEvent fields to chart points and labels), for the GUI's
// controller and for headless plots of CLI runs.
#pragma once

#include <QString>
#include <vector>

#include "base/io/run_record.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/progress.h"

namespace epsilon::ui {

RunStatus toUiStatus(train::RunStatus status);
train::RunStatus toTrainStatus(RunStatus status);
EvalPoint toEvalPoint(const train::ProgressEvent& event);
// "δ = 1e-5 · RDP · Poisson sampling · DP guarantee" (+ the tanh filter's nominal ε): the
// words for a statement (privacy_statement.h), for a trained run and a planned one alike.
QString privacyLabelOf(const privacy::PrivacyStatement& statement);
// The caption a report's chart carries: the δ, accountant and sampling of the shown runs' ε
// ("ε at δ = 1e-5 · RDP · Poisson sampling · DP guarantee"), each distinct label once.
QString privacyCaption(const std::vector<RunRecord>& runs);
// A finished run as a record: config as JSON, every evaluation, the lot losses it reported.
RunRecord recordFromResult(const train::RunResult& result, const QString& name);

}  // namespace epsilon::ui
