// The gradient half of a DP-SGD step, as a pipeline of small stages: the lot's per-example
// (or per-micro-batch) gradients → privatize (clip / tanh / adaptive / none) → sum →
// Gaussian noise N(0, σ²S²I) → divide by the expected number of units (Abadi et al. 2016,
// Alg. 1; micro-batches as in TF Privacy and MindArmour, seed 002).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/common/random.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/privacy/privatizer.h"
#include "core/train/linear_head_gradient.h"

namespace epsilon::train {

// What one step's gradient computation saw and did.
struct StepGradient {
  double lossSum = 0.0;           // Σ per-example losses of the lot
  long long examples = 0;         // lot size
  privacy::PrivatizeStats stats;  // units, clipped, Σ pre-clip norms
  double sensitivity = 0.0;       // S the noise was scaled with (C_t, c; 0 for none)
  double gradientSigma = 0.0;     // the gradient's noise multiplier (σ_Δ for adaptive)
  double clipNorm = 0.0;          // C_t before this step's update
  std::vector<double> unitNorms;  // pre-privatization L2 norm per unit, when recording norms
};

class PrivateGradient {
 public:
  // `microbatchSize` m ≥ 1; with m > 1 every example of a lot goes to one of
  // `microbatchSlots` K micro-batches, chosen by a Philox draw keyed by its data set index
  // (so adding or removing one example changes one micro-batch only, which keeps the
  // sensitivity at S). The privatized sum is divided by `expectedUnits` (L, or K).
  // `secureNoise`: the noise comes from the OS CSPRNG, not from (seed, step) (see
  // PrivacyConfig::secureNoise); compute() is then not reproducible.
  PrivateGradient(const nn::Model<float>& model, privacy::Privatizer& privatizer,
                  int microbatchSize, int microbatchSlots, double expectedUnits, std::uint64_t seed,
                  bool secureNoise = false);

  // The privatized, noised, normalised gradient of the lot at step `step` with noise
  // multiplier σ (the step's total; adaptive clipping splits it). Calls the privatizer's
  // endStep() afterwards.
  StepGradient compute(const data::Split& train, std::span<const int> lot, long long step,
                       double sigma, Eigen::VectorXf& gradient);

  // Keep every unit's pre-privatization norm in StepGradient::unitNorms (off by default: the
  // non-private baseline then computes norms it would otherwise skip).
  void setRecordNorms(bool record) { m_recordNorms = record; }

 private:
  PhiloxStream countNoiseStream(long long step) const;
  void recordRowNorms(const privacy::GradientMatrix& rows, StepGradient& out) const;

  void perExampleFast(const data::Split& train, std::span<const int> lot, StepGradient& out);
  void perExampleLinearHead(const data::Split& train, std::span<const int> lot, StepGradient& out);
  void perExampleMaterialised(const data::Split& train, std::span<const int> lot,
                              StepGradient& out);
  void perMicrobatch(const data::Split& train, std::span<const int> lot, long long step,
                     StepGradient& out);

  const nn::Model<float>& m_model;
  privacy::Privatizer& m_privatizer;
  int m_microbatchSize;
  int m_slots;
  double m_expectedUnits;
  std::uint64_t m_seed;
  bool m_secureNoise;
  bool m_recordNorms = false;
  // Reused from step to step.
  Eigen::VectorXf m_sum;
  nn::Workspace<float> m_workspace;
  std::vector<nn::Workspace<float>> m_slotWorkspaces;
  nn::Matrix<float> m_inputs;
  std::vector<int> m_labels;
  privacy::GradientMatrix m_weights;
  std::vector<privacy::PrivatizeStats> m_chunkStats;  // per chunk of a clipping backward()
  // The fused path of a Dense layer on parameter-free layers (null for other models).
  std::unique_ptr<LinearHeadGradient> m_linearHead;
};

}  // namespace epsilon::train
