// What a run reports while it trains (ProgressEvent) and what it leaves behind (RunResult):
// plain values, copied to whoever listens, so no listener ever shares state with a worker.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/nn/model.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/experiment_config.h"
#include "core/train/gradient_norms.h"

namespace epsilon::train {

using RunId = std::uint64_t;

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

enum class RunStatus { Queued, Running, Done, Cancelled, Diverged, Failed };
std::string runStatusName(RunStatus status);  // "queued", "running", "done", ...
bool isFinished(RunStatus status);

// Status: queued, running, finished. Evaluation: test accuracy and ε at an evaluation
// point. Step: one lot's mean training loss, sent after every step when the config asks
// (training.stepEvents or training.gradientNorms), for a live loss curve and the
// gradient-norm view; never kept in the history.
enum class EventKind { Status, Evaluation, Step };

struct ProgressEvent {
  RunId runId = 0;
  EventKind kind = EventKind::Status;
  RunStatus status = RunStatus::Queued;
  std::string message;  // why a run stopped, or what it is doing

  long long step = 0;  // steps completed
  long long totalSteps = 0;
  double epoch = 0.0;  // step / steps per epoch

  double trainLoss = kNotMeasured;     // mean lot loss over the steps since the last evaluation
  double testAccuracy = kNotMeasured;  // in [0, 1]
  double testLoss = kNotMeasured;
  std::vector<double> classAccuracy{};  // evaluations: per class, as train::Evaluation has it
  privacy::PrivacyStatement privacy{};  // evaluations: what the run has spent so far

  double sigma = kNotMeasured;          // σ_t of the last step (the total multiplier)
  double gradientSigma = kNotMeasured;  // the part the gradient noise uses (σ_Δ for adaptive)
  double clipNorm = kNotMeasured;       // C_t of the last step (NaN for tanh and none)
  double countNoise = kNotMeasured;     // σ_b (adaptive only)
  double learningRate = kNotMeasured;
  double fractionClipped =
      kNotMeasured;  // of the units since the last evaluation (tanh: saturated)
  double meanGradientNorm = kNotMeasured;  // mean pre-clip unit norm since the last evaluation
  double elapsedSeconds = 0.0;
  // Evaluations only, when training.snapshots is set: a copy of the model at this point
  // (the GUI redraws the decision boundary from it while the run trains).
  std::shared_ptr<const nn::Model<float>> snapshot{};
  // Step events only, when training.gradientNorms is set: the lot's pre-clip norms and the
  // bound in force (the gradient-norm view draws them); never kept in the history.
  std::shared_ptr<const GradientNormSample> gradientNorms{};
};

// Called from whichever thread runs the job (a worker of the JobRunner's arena, or the
// caller of Trainer::run): it must be thread-safe and quick, and must not call back into
// the JobRunner's wait().
using ProgressCallback = std::function<void(const ProgressEvent&)>;

struct RunResult {
  RunId runId = 0;
  RunStatus status = RunStatus::Queued;
  std::string message;
  bool inputError = false;  // Failed because of the config or data
  ExperimentConfig config;
  std::vector<ProgressEvent> history;             // the evaluation events, in order
  std::shared_ptr<const nn::Model<float>> model;  // the final parameters (null if none)
  std::string modelSummary;
  long long parameterCount = 0;
  long long trainSize = 0;
  long long testSize = 0;
  double elapsedSeconds = 0.0;
};

}  // namespace epsilon::train
