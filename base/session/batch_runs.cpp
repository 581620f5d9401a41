#include "base/session/batch_runs.h"

#include "base/io/attack_record.h"
#include "base/io/lira_record.h"
#include "base/io/run_conversion.h"
#include "base/session/run_model.h"

namespace epsilon::ui {

std::vector<int> addPlannedRuns(RunModel& runs, const std::vector<train::SweepPoint>& points) {
  std::vector<RunRecord> planned;
  planned.reserve(points.size());
  for (const auto& point : points) {
    RunRecord run;
    run.name = QString::fromStdString(point.label);
    run.config = point.config;
    run.status = RunStatus::Queued;
    planned.push_back(std::move(run));
  }
  const int first = runs.rowCount();
  runs.addRuns(std::move(planned));
  std::vector<int> ids;
  for (std::size_t i = 0; i < points.size(); ++i)
    ids.push_back(runs.idAt(first + static_cast<int>(i)));
  return ids;
}

void landResult(RunModel& runs, int id, const train::RunResult& result) {
  runs.setResult(id, recordFromResult(result, {}));
}

void landAudit(RunModel& runs, int id, const audit::AuditResult& result,
               const audit::AuditOptions& options, const std::optional<audit::LiraAttack>& lira) {
  landResult(runs, id, result.run);
  CanaryAuditRecord audit = canaryAuditRecordOf(result, options);
  audit.runTrainedWithCanaries = true;  // the run's history is the audited run's
  runs.setCanaryAudit(id, audit);
  if (lira) runs.setLira(id, liraRecordOf(*lira));
}

}  // namespace epsilon::ui
