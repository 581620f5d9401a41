// Trainer: runs one experiment from its ExperimentConfig to the end (or to cancellation or
// divergence), reporting ProgressEvents at every evaluation and keeping the final model.
// It wires the stages together: Sampler → PrivateGradient (privatize, sum, noise) →
// Optimizer → PrivacyTracker → evaluation; each stage knows nothing of the others.
#pragma once

#include <atomic>
#include <memory>

#include "core/data/dataset.h"
#include "core/train/experiment_config.h"
#include "core/train/progress.h"

namespace epsilon::train {

class Trainer {
 public:
  // With `dataset` null the data set is loaded by name when the run starts (on the thread
  // that runs it); pass one to share a loaded data set between runs.
  explicit Trainer(ExperimentConfig config, std::shared_ptr<const data::Dataset> dataset = nullptr);

  // Trains on the calling thread, in parallel inside the current TBB arena. Never throws for
  // a problem of the run itself: an invalid config, unreadable data or a failing callback
  // end the run with status Failed and the error's message (failedOnInput() tells whether
  // the input was at fault). `cancel` is polled before every step, so a run stops within one
  // step (plus the evaluation in progress, if any); `onProgress` is called on this thread.
  RunResult run(const ProgressCallback& onProgress = {}, const std::atomic<bool>* cancel = nullptr,
                RunId id = 0);

  const ExperimentConfig& config() const { return m_config; }

 private:
  ExperimentConfig m_config;
  std::shared_ptr<const data::Dataset> m_dataset;
};

// True when a Failed run failed because of its input (a ConfigError, DataError or
// ModelError), which the CLI reports with exit status 2.
bool failedOnInput(const RunResult& result);

}  // namespace epsilon::train
