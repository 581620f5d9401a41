#include "base/session/batch_runs.h"

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

}  // namespace epsilon::ui
