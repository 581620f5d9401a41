// L2 clipping, flat or per layer (Abadi et al. 2016, Alg. 1; McMahan et al. 2018, §3 for the
// per-layer variant), and the non-private "none" privatizer.
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/privacy/privatizer_factories.h"
#include "core/privacy/privatizer_rows.h"

namespace epsilon::privacy {

namespace {

// Flat: one bound C over all parameters. Per layer: layer l gets C_l = C/√G, so that
// ‖g‖² = Σ_l ‖g_l‖² ≤ G·C²/G = C² and the sensitivity stays C.
class ClipPrivatizer final : public Privatizer {
 public:
  ClipPrivatizer(double clipNorm, bool perLayer, std::vector<ParameterSlice> slices)
      : m_clipNorm(clipNorm),
        m_perLayer(perLayer),
        m_slices(std::move(slices)),
        m_layerBound(perLayer ? clipNorm / std::sqrt(static_cast<double>(m_slices.size()))
                              : clipNorm) {}

  PrivatizerKind kind() const override { return PrivatizerKind::Clip; }
  Eigen::Index weightColumns() const override {
    return m_perLayer ? static_cast<Eigen::Index>(m_slices.size()) : 1;
  }
  double sensitivity() const override { return m_clipNorm; }
  double clipNorm() const override { return m_clipNorm; }

  void clipWeights(const GradientMatrix& sq, GradientMatrix& weights,
                   PrivatizeStats& stats) const override {
    weights.resize(sq.rows(), weightColumns());
    for (Eigen::Index i = 0; i < sq.rows(); ++i) {
      const double total = static_cast<double>(sq.row(i).sum());
      stats.normSum += std::sqrt(total);
      ++stats.units;
      if (!m_perLayer) {
        weights(i, 0) = detail::clipFactor(std::sqrt(total), m_clipNorm);
        stats.clipped += weights(i, 0) < 1.0f ? 1 : 0;
        continue;
      }
      bool clipped = false;
      for (Eigen::Index l = 0; l < sq.cols(); ++l) {
        weights(i, l) = detail::clipFactor(std::sqrt(static_cast<double>(sq(i, l))), m_layerBound);
        clipped = clipped || weights(i, l) < 1.0f;
      }
      stats.clipped += clipped ? 1 : 0;
    }
  }

  void privatizeRows(GradientRows rows, PrivatizeStats& stats) const override {
    detail::forEachRow(rows, stats, [&](auto row, PrivatizeStats& local) {
      ++local.units;
      if (!m_perLayer) {
        const double norm = std::sqrt(static_cast<double>(row.squaredNorm()));
        local.normSum += norm;
        const float factor = detail::clipFactor(norm, m_clipNorm);
        if (factor < 1.0f) {
          row *= factor;
          ++local.clipped;
        }
        return;
      }
      bool clipped = false;
      double total = 0;
      for (const auto& slice : m_slices) {
        auto part = row.segment(slice.offset, slice.size);
        const double sq = static_cast<double>(part.squaredNorm());
        total += sq;
        const float factor = detail::clipFactor(std::sqrt(sq), m_layerBound);
        if (factor < 1.0f) {
          part *= factor;
          clipped = true;
        }
      }
      local.normSum += std::sqrt(total);
      local.clipped += clipped ? 1 : 0;
    });
  }

 private:
  double m_clipNorm;
  bool m_perLayer;
  std::vector<ParameterSlice> m_slices;
  double m_layerBound;
};

// The non-private baseline: gradients pass unchanged, no norms, no noise.
class NoPrivatizer final : public Privatizer {
 public:
  PrivatizerKind kind() const override { return PrivatizerKind::None; }
  bool needsNorms() const override { return false; }
  double sensitivity() const override { return 1.0; }
  double clipNorm() const override { return std::numeric_limits<double>::quiet_NaN(); }
  double gradientNoiseMultiplier(double) const override { return 0.0; }
  void clipWeights(const GradientMatrix& sq, GradientMatrix& weights,
                   PrivatizeStats& stats) const override {
    weights.setOnes(sq.rows(), 1);
    stats.units += sq.rows();
  }
  void privatizeRows(GradientRows rows, PrivatizeStats& stats) const override {
    stats.units += rows.rows();
  }
};

}  // namespace

std::unique_ptr<Privatizer> makeClipPrivatizer(double clipNorm, bool perLayer,
                                               std::vector<ParameterSlice> slices) {
  return std::make_unique<ClipPrivatizer>(clipNorm, perLayer, std::move(slices));
}

std::unique_ptr<Privatizer> makeNoPrivatizer() {
  return std::make_unique<NoPrivatizer>();
}

}  // namespace epsilon::privacy
