// One training run as the UI and the files keep it: its typed experiment, status, colour name
// and the history that the charts draw. A value type (Qt Core only): the GUI thread owns
// every copy in the GUI; the CLI builds them from results for files and plots.
#pragma once

#include <QString>

#include <cmath>
#include <limits>
#include <vector>

#include "core/train/experiment_config.h"

namespace epsilon::ui {

enum class RunStatus { Queued, Running, Done, Cancelled, Diverged, Failed };

QString runStatusName(RunStatus status);
RunStatus parseRunStatus(const QString& text);  // unknown text -> Failed

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One evaluation of the test set, with the privacy spent so far.
struct EvalPoint {
  long long step = 0;
  double epoch = 0;
  double trainLoss = kNaN;
  double testAccuracy = kNaN;  // fraction in [0, 1]
  double testLoss = kNaN;
  double epsilon = kNaN;         // the valid bound (infinite for a non-private run)
  double nominalEpsilon = kNaN;  // tanh filter only: the paper's figure, not a guarantee
  double sigma = kNaN;
  double clipNorm = kNaN;
  double fractionClipped = kNaN;
  double gradientNorm = kNaN;
  double elapsedSeconds = 0;
};

// The mean training loss of one lot.
struct LossPoint {
  long long step = 0;
  double loss = kNaN;
};

struct RunRecord {
  int id = 0;
  QString name;
  QString color;  // "#rrggbb"; empty: the run model gives the next palette colour
  bool visible = true;
  bool live = false;  // started by live mode; replaced by the next live run
  RunStatus status = RunStatus::Queued;
  QString message;      // why it diverged or failed
  double progress = 0;  // 0..1
  train::ExperimentConfig config;
  QString privacyLabel;  // e.g. "δ = 1e-5 · RDP · Poisson sampling"
  std::vector<EvalPoint> evals;
  std::vector<LossPoint> losses;
  double elapsedSeconds = 0;

  const EvalPoint* lastEval() const { return evals.empty() ? nullptr : &evals.back(); }
  bool isActive() const { return status == RunStatus::Queued || status == RunStatus::Running; }
};

}  // namespace epsilon::ui
