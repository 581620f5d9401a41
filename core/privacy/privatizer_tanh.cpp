// Amian's tanh filter (seed 001, Alg. 1 and §IV, Figs. 2-5): each entry of a unit's gradient
// becomes c·tanh(g/k), bounded by c element-wise. The paper accounts as if the L2 bound were
// c; it really is c·√P for P parameters (its own §III.A), which honestSensitivity() reports.
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/privacy/privatizer_factories.h"
#include "core/privacy/privatizer_rows.h"

namespace epsilon::privacy {

namespace {

class TanhPrivatizer final : public Privatizer {
 public:
  TanhPrivatizer(double scale, double activeRange, Eigen::Index parameterCount)
      : m_scale(scale), m_activeRange(activeRange), m_parameterCount(parameterCount) {}

  PrivatizerKind kind() const override { return PrivatizerKind::Tanh; }
  bool needsMaterialisedGradients() const override { return true; }
  double sensitivity() const override { return m_scale; }
  double honestSensitivity() const override {
    return m_scale * std::sqrt(static_cast<double>(m_parameterCount));
  }
  double clipNorm() const override { return std::numeric_limits<double>::quiet_NaN(); }

  void clipWeights(const GradientMatrix&, GradientMatrix&, PrivatizeStats&) const override {
    throw std::logic_error("the tanh filter needs materialised gradients, not clip weights");
  }

  void privatizeRows(GradientRows rows, PrivatizeStats& stats) const override {
    const auto c = static_cast<float>(m_scale);
    const auto inverseK = static_cast<float>(1.0 / m_activeRange);
    detail::forEachRow(rows, stats, [&](auto row, PrivatizeStats& local) {
      ++local.units;
      local.normSum += std::sqrt(static_cast<double>(row.squaredNorm()));
      // Entries with |g| > k lie outside tanh's active range (the paper's k, §IV): counted
      // as "clipped" so the user sees how much the filter saturates. Eigen's vectorised tanh
      // is a rational approximation; the clamp keeps |c·tanh| ≤ c exactly.
      auto x = row.array();
      const bool saturated = (x.abs() > static_cast<float>(m_activeRange)).any();
      x = (c * (x * inverseK).tanh()).max(-c).min(c);
      local.clipped += saturated ? 1 : 0;
    });
  }

 private:
  double m_scale;
  double m_activeRange;
  Eigen::Index m_parameterCount;
};

}  // namespace

std::unique_ptr<Privatizer> makeTanhPrivatizer(double scale, double activeRange,
                                               Eigen::Index parameterCount) {
  return std::make_unique<TanhPrivatizer>(scale, activeRange, parameterCount);
}

}  // namespace epsilon::privacy
