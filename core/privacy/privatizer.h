// Privatizers: what DP-SGD does to each example's (or micro-batch's) gradient before the
// sum, so that one example moves the sum by a bounded amount S that the Gaussian noise is
// scaled to. L2 clipping (Abadi et al. 2016, Alg. 1), per-layer clipping, Amian's tanh filter
// (seed 001, Alg. 1), adaptive clipping toward a target quantile (Andrew et al. 2021), none.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/random.h"
#include "core/privacy/privatizer_kind.h"

namespace epsilon::privacy {

// Units × parameters (or units × groups) in row-major order: one example or micro-batch a row.
using GradientMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using GradientRows = Eigen::Map<GradientMatrix>;

enum class ClipUpdatePolicy { Linear, Geometric };

// A layer's slice of the flat parameter vector (per-layer clipping bounds each separately).
struct ParameterSlice {
  Eigen::Index offset = 0;
  Eigen::Index size = 0;
};

struct PrivatizerOptions {
  PrivatizerKind kind = PrivatizerKind::Clip;
  double clipNorm = 1.0;          // C; the initial C₀ for adaptive clipping
  bool perLayer = false;          // clip each layer to C/√G (G layers), so the total is ≤ C
  double tanhScale = 1.0;         // c, the tanh filter's output range factor
  double tanhActiveRange = 1.0;   // k, its active-range factor: g ↦ c·tanh(g/k)
  double targetQuantile = 0.5;    // γ, the fraction of units meant to stay unclipped
  double clipLearningRate = 0.2;  // η of the clip-norm update
  ClipUpdatePolicy clipPolicy = ClipUpdatePolicy::Geometric;
  // Noise on the unclipped count: σ_b directly, or MindArmour's fraction_stddev (σ_b divided
  // by the expected number of units). Neither: σ_b = units/20 (Andrew et al. 2021, §4).
  std::optional<double> clipCountStddev{};
  std::optional<double> fractionStddev{};

  // Throws ConfigError naming the field ("privacy.clip_norm", "privacy.tanh_c", ...).
  void validate() const;
  // σ_b for a step that expects `expectedUnits` units.
  double countStddev(double expectedUnits) const;
};

// What one step's privatization saw: how many units, how many were clipped, their norms.
struct PrivatizeStats {
  long long units = 0;
  long long clipped = 0;  // pre-clip norm above the bound (any layer's, per layer); for
                          // tanh: some entry outside the active range |g| ≤ k
  double normSum = 0;     // Σ pre-privatization L2 norms
  void merge(const PrivatizeStats& other) {
    units += other.units;
    clipped += other.clipped;
    normSum += other.normSum;
  }
};

class Privatizer {
 public:
  virtual ~Privatizer() = default;
  Privatizer(const Privatizer&) = delete;
  Privatizer& operator=(const Privatizer&) = delete;

  virtual PrivatizerKind kind() const = 0;
  // True when the privatizer needs each unit's gradient itself (the tanh filter); false when
  // clip factors computed from per-unit norms suffice (the fast path, no units × P matrix).
  virtual bool needsMaterialisedGradients() const { return false; }
  // False only for None: the non-private baseline skips the per-example norms entirely.
  virtual bool needsNorms() const { return true; }
  // Columns of clipWeights(): 1 (one factor per unit) or the layer count (per layer).
  virtual Eigen::Index weightColumns() const { return 1; }

  // S, the L2 bound of one unit's privatized gradient that the noise is scaled with: C_t for
  // clipping, c for the tanh filter (the paper's nominal choice), 1 for None (no noise).
  virtual double sensitivity() const = 0;
  // The true worst-case L2 bound: equal to sensitivity() except for tanh, where it is c·√P.
  virtual double honestSensitivity() const { return sensitivity(); }
  // The current clip norm C_t (NaN for tanh and none).
  virtual double clipNorm() const = 0;

  // Fast path: from units × groups squared norms, weights(i, col) multiplies unit i's
  // gradient (its layer `col` when per layer). Throws std::logic_error for tanh.
  virtual void clipWeights(const GradientMatrix& groupSquaredNorms, GradientMatrix& weights,
                           PrivatizeStats& stats) const = 0;
  // Materialised path: privatizes each row (one unit's full gradient) in place.
  virtual void privatizeRows(GradientRows rows, PrivatizeStats& stats) const = 0;

  // The multiplier the gradient sum's noise uses when the step as a whole must be a
  // Gaussian mechanism with multiplier σ. Adaptive clipping spends part of it on the count.
  virtual double gradientNoiseMultiplier(double sigma) const { return sigma; }
  // The noise on the unclipped count this step (adaptive only; 0 otherwise).
  virtual double countNoiseStddev() const { return 0.0; }
  // Called once per step after all units (adaptive clipping updates C_t here).
  virtual void endStep(const PrivatizeStats& /*stats*/, double /*expectedUnits*/,
                       const PhiloxStream& /*countNoise*/) {}

 protected:
  Privatizer() = default;
};

// `slices` are the layers' parameter slices (their sizes sum to P); per-layer clipping and the
// tanh filter's honest bound need them. Validates the options first.
std::unique_ptr<Privatizer> makePrivatizer(const PrivatizerOptions& options,
                                           const std::vector<ParameterSlice>& slices,
                                           double expectedUnitsPerStep);

// Names as users type them: "none", "clip", "tanh", "adaptive"; "linear", "geometric".
std::string privatizerName(PrivatizerKind kind);
PrivatizerKind parsePrivatizerKind(const std::string& text,
                                   const std::string& field = "privacy.privatizer");
std::vector<std::string> privatizerNames();
std::string clipPolicyName(ClipUpdatePolicy policy);
ClipUpdatePolicy parseClipPolicy(const std::string& text,
                                 const std::string& field = "privacy.clip_policy");

}  // namespace epsilon::privacy
