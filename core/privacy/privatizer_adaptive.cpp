// Adaptive clipping toward a target unclipped quantile γ (Andrew et al. 2021, "Differentially
// Private Learning with Adaptive Clipping", Alg. 1 and Thm. 1), the mechanism MindArmour's
// tutorial configures (seed 002: target_unclipped_quantile, clip_learning_rate,
// fraction_stddev, Linear or Geometric decay policy).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/privatizer_factories.h"
#include "core/privacy/privatizer_rows.h"

namespace epsilon::privacy {

namespace {

// Keeps C_t positive under the linear rule, which can overshoot below zero.
constexpr double kMinimumClipNorm = 1e-9;

class AdaptivePrivatizer final : public Privatizer {
 public:
  AdaptivePrivatizer(const PrivatizerOptions& options, double expectedUnits)
      : m_clipNorm(options.clipNorm),
        m_target(options.targetQuantile),
        m_learningRate(options.clipLearningRate),
        m_policy(options.clipPolicy),
        m_countStddev(options.countStddev(expectedUnits)) {}

  PrivatizerKind kind() const override { return PrivatizerKind::Adaptive; }
  double sensitivity() const override { return m_clipNorm; }
  double clipNorm() const override { return m_clipNorm; }
  double countNoiseStddev() const override { return m_countStddev; }

  // Thm. 1 (Andrew et al. 2021): the part of σ left for the gradient (privacy_statement.h).
  double gradientNoiseMultiplier(double sigma) const override {
    return adaptiveGradientNoiseMultiplier(sigma, m_countStddev);
  }

  void clipWeights(const GradientMatrix& sq, GradientMatrix& weights,
                   PrivatizeStats& stats) const override {
    weights.resize(sq.rows(), 1);
    for (Eigen::Index i = 0; i < sq.rows(); ++i) {
      const double norm = std::sqrt(static_cast<double>(sq.row(i).sum()));
      weights(i, 0) = detail::clipFactor(norm, m_clipNorm);
      ++stats.units;
      stats.normSum += norm;
      stats.clipped += norm > m_clipNorm ? 1 : 0;
    }
  }

  void privatizeRows(GradientRows rows, PrivatizeStats& stats) const override {
    detail::forEachRow(rows, stats, [&](auto row, PrivatizeStats& local) {
      const double norm = std::sqrt(static_cast<double>(row.squaredNorm()));
      ++local.units;
      local.normSum += norm;
      if (norm > m_clipNorm) {
        row *= detail::clipFactor(norm, m_clipNorm);
        ++local.clipped;
      }
    });
  }

  // b̃ = (Σᵢ(bᵢ − ½) + N(0, σ_b²))/m + ½ with bᵢ = 1[‖gᵢ‖ ≤ C] and m the expected number of
  // units (Alg. 1 with the ½ shift of §3.1 that halves the count's sensitivity); then
  // geometric C ← C·exp(−η(b̃ − γ)) or linear C ← C − η(b̃ − γ).
  void endStep(const PrivatizeStats& stats, double expectedUnits,
               const PhiloxStream& countNoise) override {
    const auto unclipped = static_cast<double>(stats.units - stats.clipped);
    const double centred = unclipped - 0.5 * static_cast<double>(stats.units);
    const double noisyFraction =
        (centred + m_countStddev * countNoise.normal(0)) / expectedUnits + 0.5;
    const double error = noisyFraction - m_target;
    if (m_policy == ClipUpdatePolicy::Geometric) {
      m_clipNorm *= std::exp(-m_learningRate * error);
    } else {
      m_clipNorm -= m_learningRate * error;
    }
    m_clipNorm = std::max(m_clipNorm, kMinimumClipNorm);
  }

 private:
  double m_clipNorm;
  double m_target;
  double m_learningRate;
  ClipUpdatePolicy m_policy;
  double m_countStddev;
};

}  // namespace

std::unique_ptr<Privatizer> makeAdaptivePrivatizer(const PrivatizerOptions& options,
                                                   double expectedUnitsPerStep) {
  return std::make_unique<AdaptivePrivatizer>(options, expectedUnitsPerStep);
}

}  // namespace epsilon::privacy
