// Running a family of sweep points (for `sweep` and `reproduce`): every training point as a
// job of one JobRunner, accountant-only points computed at once, data sets loaded once and
// shared; then the outputs a sweep leaves behind (one run file per point, summary.csv).
#pragma once

#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/train/progress.h"
#include "core/train/sweep.h"

namespace epsilon::cli {

// Loads each distinct (data set, options) once and hands out shared copies.
class DatasetCache {
 public:
  std::shared_ptr<const data::Dataset> get(const train::DatasetConfig& config);

 private:
  std::map<std::string, std::shared_ptr<const data::Dataset>> m_loaded;
};

struct PlannedRun {
  train::SweepPoint point;
  bool accountantOnly = false;  // ε over epochs from the accountant, no training
};

// Runs every point and returns the results in the order of `runs`. Training points go to one
// JobRunner (maxConcurrentRuns = jobs, 0 = one per core), longest first so the cores stay
// busy. `onFinished(i, result)` is called on this thread as each result is collected (in
// the order the runs were started, not index order).
// Models are dropped from the results (only histories are kept).
std::vector<train::RunResult> runPlanned(
    const std::vector<PlannedRun>& runs, int jobs, DatasetCache& cache,
    const std::function<void(std::size_t, const train::RunResult&)>& onFinished = {});

// "run-03-noise_multiplier=2.json": the global index (so shards can be merged) and label.
QString runFileName(const train::SweepPoint& point);

// The run's file content: runToJson plus {"sweep": {"index", "label", "values": {...}}}.
QByteArray runFileBytes(const train::SweepPoint& point, const train::RunResult& result);

// index,label,values,final_accuracy,final_epsilon,nominal_epsilon,delta,accountant,status,seconds
QByteArray summaryCsv(const std::vector<train::SweepPoint>& points,
                      const std::vector<train::RunResult>& results);

// Writes the run files and summary.csv into `dir` (created if needed), each atomically; the
// summary goes to `summaryPath` instead when one is given (shards sharing a folder). Throws
// std::runtime_error naming the file that cannot be written. A point whose `kept` is true has
// its run file already (`sweep --resume` read it back): it is left as it is.
void writeSweepOutputs(const QString& dir, const std::vector<train::SweepPoint>& points,
                       const std::vector<train::RunResult>& results,
                       const QString& summaryPath = {}, const std::vector<bool>& kept = {});

// The last evaluation of a run (nullptr if it has none).
const train::ProgressEvent* lastEvaluation(const train::RunResult& result);

}  // namespace epsilon::cli
