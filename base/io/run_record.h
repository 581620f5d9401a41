// One training run as the UI and the files keep it: its typed experiment, status, colour name
// and the history that the charts draw. A value type (Qt Core only): the GUI thread owns
// every copy in the GUI; the CLI builds them from results for files and plots.
#pragma once

#include <QPointF>
#include <QString>
#include <cmath>
#include <limits>
#include <optional>
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
  // Test accuracy per class, in label order (NaN: no test example of that class); empty for
  // runs recorded before EpsilonLab kept it.
  std::vector<double> classAccuracy;
};

// The mean training loss of one lot.
struct LossPoint {
  long long step = 0;
  double loss = kNaN;
};

// The loss-threshold membership attack on the run's final model (Yeom et al. 2018), computed
// when the run finished: what the Attack tab draws. The numbers are exact (from the full ROC);
// the ROC is thinned for drawing (audit::thinRoc).
struct AttackRecord {
  double auc = 0.5;
  double tprAt1Percent = 0.0;   // TPR at FPR ≤ 1%
  double tprAt01Percent = 0.0;  // TPR at FPR ≤ 0.1%
  double advantage = 0.0;       // best threshold's TPR − FPR
  long long members = 0;
  long long nonMembers = 0;
  std::vector<QPointF> roc;    // (FPR, TPR)
  std::vector<QPointF> bound;  // the accountant's TPR bound; empty for a run without noise
};

// LiRA on the run's final model (Carlini et al. 2022, core/audit/lira.h): its numbers and its
// ROC (thinned) in `attack` (no bound of its own: the run's is in `attack` of the RunRecord),
// with how many shadow models it used and how many of them were kept from an earlier attack.
struct LiraRecord {
  AttackRecord attack;
  int shadows = 0;
  int reusedShadows = 0;
  QString test;  // "online" or "offline"
  bool globalVariance = true;
  double seconds = 0.0;  // shadows and attack
};

// The one-run audit of the run's configuration (Steinke, Nasr & Jagielski 2023): a second
// training run with m canaries, each in with probability ½; ε̂ from r guesses, v correct.
struct CanaryAuditRecord {
  double epsilonLowerBound = 0.0;  // ε̂
  double confidence = 0.95;
  long long canaries = 0;  // m
  QString canaryKind;      // "mislabel" or "ood"
  long long included = 0;
  long long guesses = 0;  // r
  long long correct = 0;  // v
  long long k = 0;        // k₊ = k₋ chosen over the grid (Bonferroni-corrected)
  double canaryAuc = 0.5;
  double epsilonUpperBound = kNaN;  // the audited run's accountant ε (∞ without noise)
  double delta = 0.0;
  QString privacyLabel;  // its δ, accountant and sampling, e.g. "δ = 1e-5 · RDP · Poisson sampling"
  double testAccuracy = kNaN;
  double seconds = 0.0;  // training and attack
  // The run's own history is the audited run's (`epsilonlab-cli audit`): it trained on the
  // base rows and the included canaries (audit::auditedTrainSize), and its ε is checked so.
  // False for an audit of a run trained without them (the GUI's Attack tab).
  bool runTrainedWithCanaries = false;
};

// Where a run sent to a Slurm cluster lands: its sweep's job folder (base/cluster/cluster_job.h)
// and its index in the sweep (its run file is DIR/run-INDEX-….json).
struct ClusterPlace {
  QString folder;  // absolute
  int index = 0;
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
  std::optional<AttackRecord> attack;            // absent: not attacked (e.g. older sessions)
  std::optional<CanaryAuditRecord> canaryAudit;  // absent: never audited with canaries
  std::optional<LiraRecord> lira;                // absent: never attacked with LiRA
  std::optional<ClusterPlace> cluster;           // absent: trained here

  const EvalPoint* lastEval() const { return evals.empty() ? nullptr : &evals.back(); }
  bool isActive() const { return status == RunStatus::Queued || status == RunStatus::Running; }
};

}  // namespace epsilon::ui
