// What the gradient-norm view draws: the pre-clip L2 norms of one lot's units (examples or
// micro-batches) with the bound in force, a histogram of them, and the privatizer's curve.
// Pure values and functions; the Trainer fills GradientNormSample when training.gradientNorms is
// set.
#pragma once

#include <span>
#include <vector>

#include "core/privacy/privatizer.h"

namespace epsilon::train {

// One lot, as the privatizer saw it before privatizing.
struct GradientNormSample {
  long long step = 0;         // steps completed when this lot was used (1-based)
  std::vector<double> norms;  // each unit's L2 gradient norm before clipping
  privacy::PrivatizerKind privatizer = privacy::PrivatizerKind::Clip;
  double clipNorm = 0.0;  // C, or C_t for adaptive clipping; NaN for tanh and none
  // Of this lot's units: norm above C for flat and adaptive clipping; per layer, some layer
  // above C/√G (so it can exceed the share of norms above C); tanh, some entry beyond k.
  double fractionClipped = 0.0;
};

// Counts over [0, max] in equal bins; bin i covers [i·w, (i+1)·w), the last one includes max.
struct NormHistogram {
  double max = 0.0;
  std::vector<long long> counts;
  long long overflow = 0;  // values above max, NaN or negative: never silently dropped
  double binWidth() const {
    return counts.empty() ? 0.0 : max / static_cast<double>(counts.size());
  }
};

// `bins` ≥ 1 (ConfigError otherwise). `max` ≤ 0 means "the largest finite value" (1 when
// there is none), so a lot's histogram always spans its norms.
NormHistogram normHistogram(std::span<const double> values, int bins, double max = 0.0);

// The histogram both gradient-norm views draw (the GUI's and `train --plot`'s figure):
// kNormViewBins bins over [0, max(largest finite norm, 1.25·C)], so the clip norm's line is
// never at the right edge (C is left out when it is not finite: tanh and none).
inline constexpr int kNormViewBins = 30;
NormHistogram normViewHistogram(const GradientNormSample& sample);

struct CurvePoint {
  double input = 0.0;
  double output = 0.0;
};

// The privatizer's response for drawing, `points` ≥ 2 samples of [0, maxInput]: for L2
// clipping (flat, or adaptive at `clipNorm` = C_t) a unit's norm ↦ its norm after clipping,
// min(x, C) (Abadi et al. 2016, Alg. 1, "Clip gradient"); for the tanh filter an entry g ↦
// c·tanh(g/k) (Amian, seed 001, Alg. 1), which acts entry by entry, not on the norm; for
// none the identity. Per-layer clipping is drawn as flat clipping at C (its total bound).
std::vector<CurvePoint> privatizerCurve(const privacy::PrivatizerOptions& options, double clipNorm,
                                        double maxInput, int points = 101);

}  // namespace epsilon::train
