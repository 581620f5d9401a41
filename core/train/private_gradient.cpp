#include "core/train/private_gradient.h"

#include <algorithm>
#include <cmath>

#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/privacy/noise.h"
#include "core/privacy/secure_random.h"

namespace epsilon::train {

namespace {

// Per-example gradients are materialised (tanh filter) a few rows at a time: at most this
// many floats (4 MiB), at least 16 rows. Blocks that stay in cache are much faster than big
// ones: a tanh-filter epoch of mlp 784-256-10 on Fashion-MNIST took 47.7 s with 64 MiB blocks,
// 14.4 s with 16 MiB and 11.7 s with 4 MiB (tfp-cnn: 5.6 s with 16 MiB, 4.2 s with 4 MiB).
constexpr Eigen::Index kMaterialiseBudget = Eigen::Index{1} << 20;
constexpr std::size_t kColumnChunk = 8192;
// A lot's rows are copied by the threads in blocks of this many (a row of a random example is
// a cache miss: one thread alone spent 2 % of a tfp-cnn DP epoch here).
constexpr std::size_t kGatherRows = 64;

std::uint32_t low(long long v) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
}
std::uint32_t high(long long v) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) >> 32);
}

// Copies the rows `indices` of the split into x / labels.
void gather(const data::Split& split, std::span<const int> indices, nn::Matrix<float>& x,
            std::vector<int>& labels) {
  x.resize(static_cast<Eigen::Index>(indices.size()), split.features.cols());
  labels.resize(indices.size());
  forEachChunk(indices.size(), kGatherRows, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      x.row(static_cast<Eigen::Index>(i)) = split.features.row(indices[i]);
      labels[i] = split.labels[static_cast<std::size_t>(indices[i])];
    }
  });
}

// sum += Σ_r rows(r, ·), each column summed over the rows in order (deterministic), the
// columns in parallel fixed chunks.
void addRowSums(const privacy::GradientMatrix& rows, Eigen::Index rowCount, Eigen::VectorXf& sum) {
  forEachChunk(static_cast<std::size_t>(rows.cols()), kColumnChunk,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin),
                            n = static_cast<Eigen::Index>(end - begin);
                 auto target = sum.segment(b, n);
                 for (Eigen::Index r = 0; r < rowCount; ++r)
                   target += rows.row(r).segment(b, n).transpose();
               });
}

// out = sum / divisor, element by element in parallel blocks (the same at any thread count).
void divideInto(const Eigen::VectorXf& sum, float divisor, Eigen::VectorXf& out) {
  out.resize(sum.size());
  forEachChunk(static_cast<std::size_t>(sum.size()), kColumnChunk,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin);
                 const auto n = static_cast<Eigen::Index>(end - begin);
                 out.segment(b, n) = sum.segment(b, n) / divisor;
               });
}

double lossSumOf(const nn::Workspace<float>& ws) {
  double total = 0.0;
  for (Eigen::Index i = 0; i < ws.losses.size(); ++i) total += ws.losses[i];
  return total;
}

}  // namespace

PrivateGradient::PrivateGradient(const nn::Model<float>& model, privacy::Privatizer& privatizer,
                                 int microbatchSize, int microbatchSlots, double expectedUnits,
                                 std::uint64_t seed, bool secureNoise)
    : m_model(model),
      m_privatizer(privatizer),
      m_microbatchSize(microbatchSize),
      m_slots(microbatchSlots),
      m_expectedUnits(expectedUnits),
      m_seed(seed),
      m_secureNoise(secureNoise) {
  if (LinearHeadGradient::applies(model))
    m_linearHead = std::make_unique<LinearHeadGradient>(model);
}

StepGradient PrivateGradient::compute(const data::Split& train, std::span<const int> lot,
                                      long long step, double sigma, Eigen::VectorXf& gradient) {
  StepGradient out;
  out.examples = static_cast<long long>(lot.size());
  out.clipNorm = m_privatizer.clipNorm();
  m_sum.setZero(m_model.parameterCount());
  if (!lot.empty()) {
    if (m_microbatchSize > 1 && m_privatizer.kind() != privacy::PrivatizerKind::None) {
      perMicrobatch(train, lot, step, out);
    } else if (m_privatizer.needsMaterialisedGradients()) {
      perExampleMaterialised(train, lot, out);
    } else if (m_linearHead) {
      perExampleLinearHead(train, lot, out);
    } else {
      perExampleFast(train, lot, out);
    }
  }
  if (m_privatizer.kind() == privacy::PrivatizerKind::None) {
    // The non-private baseline: the plain mean gradient of the lot.
    divideInto(m_sum, static_cast<float>(std::max<long long>(1, out.examples)), gradient);
  } else {
    // Abadi et al. 2016, Alg. 1, "Add noise": (Σ ḡᵢ + N(0, σ²S²I)) / L.
    out.sensitivity = m_privatizer.sensitivity();
    out.gradientSigma = m_privatizer.gradientNoiseMultiplier(sigma);
    const std::span<float> sum(m_sum.data(), static_cast<std::size_t>(m_sum.size()));
    const double stddev = out.gradientSigma * out.sensitivity;
    if (m_secureNoise) {
      privacy::addSecureGaussianNoise(sum, stddev);
    } else {
      privacy::addGaussianNoise(
          sum, stddev, PhiloxStream(m_seed, RandomPurpose::GradientNoise, low(step), high(step)));
    }
    divideInto(m_sum, static_cast<float>(m_expectedUnits), gradient);
    m_privatizer.endStep(out.stats, m_expectedUnits, countNoiseStream(step));
  }
  return out;
}

// Adaptive clipping's count noise (one normal a step). Secure mode keys Philox with 64 fresh
// OS-random bits and addresses it with 64 more, so the normal is a fixed bijection of 128
// bits no seed predicts (Philox4x32-10 is a keyed bijection of its counter, Salmon et al.
// 2011, §3); the seeded mode addresses (seed, step) as before.
PhiloxStream PrivateGradient::countNoiseStream(long long step) const {
  if (!m_secureNoise)
    return PhiloxStream(m_seed, RandomPurpose::ClipCountNoise, low(step), high(step));
  const std::uint64_t counter = privacy::osRandom64();
  return PhiloxStream(privacy::osRandom64(), RandomPurpose::ClipCountNoise,
                      low(static_cast<long long>(counter)), high(static_cast<long long>(counter)));
}

// Norms → clip factors → one weighted sum (no lot × P matrix): Model's closed-form
// per-example norms and weighted sums. A privatizer that needs the norms clips inside
// backward(), chunk by chunk (Workspace::clipChunk), so a conv layer's per-example gradients
// are weighted while they are still in cache; each chunk's statistics are merged in chunk
// order, so they do not depend on the threads either.
void PrivateGradient::perExampleFast(const data::Split& train, std::span<const int> lot,
                                     StepGradient& out) {
  gather(train, lot, m_inputs, m_labels);
  const auto n = static_cast<Eigen::Index>(lot.size());
  const bool clip = m_privatizer.needsNorms();
  const bool norms = clip || m_recordNorms;
  m_chunkStats.assign(
      chunkCount(lot.size(), static_cast<std::size_t>(nn::Model<float>::chunkSize(n))), {});
  m_workspace.normsInBackward = norms;
  m_workspace.clipColumns = m_privatizer.weightColumns();
  m_workspace.clipChunk = nullptr;
  if (clip)
    m_workspace.clipChunk = [this](std::size_t c, const nn::Matrix<float>& squared,
                                   nn::Matrix<float>& weights) {
      m_privatizer.clipWeights(squared, weights, m_chunkStats[c]);
    };
  m_model.backward(m_inputs, m_labels, m_workspace);
  out.lossSum = lossSumOf(m_workspace);
  if (m_recordNorms) {
    // The same sum and cast as flat and adaptive clipping, so a recorded norm is above C
    // exactly when that unit was counted as clipped.
    const privacy::GradientMatrix squared = m_model.perExampleGroupSquaredNorms(m_workspace);
    out.unitNorms.reserve(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i)
      out.unitNorms.push_back(std::sqrt(static_cast<double>(squared.row(i).sum())));
  }
  if (clip) {
    for (const privacy::PrivatizeStats& stats : m_chunkStats) out.stats.merge(stats);
    m_model.clippedGradientSum(m_workspace, m_sum);
    return;
  }
  // No clipping (the baseline, its norms only for display): the plain sum, computed exactly
  // as without the view (same bits), so the norm query's kept gradients are forgotten.
  std::fill(m_workspace.keptValid.begin(), m_workspace.keptValid.end(), char{0});
  out.stats.units += n;
  m_weights.setOnes(n, 1);
  m_model.weightedGradientSum(
      m_workspace, std::span<const float>(m_weights.data(), static_cast<std::size_t>(n)), m_sum);
}

// The same as perExampleFast for a Dense layer on parameter-free layers, fused chunk by
// chunk (core/train/linear_head_gradient.h): the scatter-linear lot never passes through a
// Workspace's lot-sized copies per layer.
void PrivateGradient::perExampleLinearHead(const data::Split& train, std::span<const int> lot,
                                           StepGradient& out) {
  const bool norms = m_privatizer.needsNorms() || m_recordNorms;
  const LinearHeadGradient::Step step = m_linearHead->compute(
      train, lot, norms ? &m_privatizer : nullptr, m_recordNorms ? &out.unitNorms : nullptr, m_sum);
  out.lossSum = step.lossSum;
  out.stats.merge(step.stats);
}

// The tanh filter needs every entry of every example's gradient: materialise them a block
// of rows at a time, filter, and add the rows up.
void PrivateGradient::perExampleMaterialised(const data::Split& train, std::span<const int> lot,
                                             StepGradient& out) {
  const Eigen::Index p = m_model.parameterCount();
  const auto chunk = static_cast<std::size_t>(
      std::max<Eigen::Index>(16, kMaterialiseBudget / std::max<Eigen::Index>(1, p) / 16 * 16));
  for (std::size_t begin = 0; begin < lot.size(); begin += chunk) {
    const auto part = lot.subspan(begin, std::min(chunk, lot.size() - begin));
    gather(train, part, m_inputs, m_labels);
    m_workspace.normsInBackward = false;
    m_model.backward(m_inputs, m_labels, m_workspace);
    out.lossSum += lossSumOf(m_workspace);
    privacy::GradientMatrix grads = m_model.perExampleGradients(m_workspace);
    recordRowNorms(grads, out);
    m_privatizer.privatizeRows(privacy::GradientRows(grads.data(), grads.rows(), grads.cols()),
                               out.stats);
    addRowSums(grads, grads.rows(), m_sum);
  }
}

// Micro-batches: each of the K slots averages the gradients of its examples (one backward
// per slot, the slots in parallel), then each average is privatized as one unit.
void PrivateGradient::perMicrobatch(const data::Split& train, std::span<const int> lot,
                                    long long step, StepGradient& out) {
  const PhiloxStream assign(m_seed, RandomPurpose::Sampling, low(step), high(step) | 0x80000000u);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(m_slots));
  for (int index : lot) {
    const auto slot = std::min<std::size_t>(
        members.size() - 1,
        static_cast<std::size_t>(assign.uniform(static_cast<std::uint64_t>(index)) *
                                 static_cast<double>(m_slots)));
    members[slot].push_back(index);
  }
  std::erase_if(members, [](const std::vector<int>& m) { return m.empty(); });
  const auto units = static_cast<Eigen::Index>(members.size());
  const Eigen::Index p = m_model.parameterCount();
  privacy::GradientMatrix rows(units, p);
  std::vector<double> losses(members.size(), 0.0);
  if (m_slotWorkspaces.size() < members.size()) m_slotWorkspaces.resize(members.size());
  // One chunk per slot: each writes only its own workspace, loss and row.
  forEachChunk(members.size(), 1, [&](std::size_t k, std::size_t, std::size_t) {
    nn::Matrix<float> x;
    std::vector<int> labels;
    gather(train, members[k], x, labels);
    nn::Workspace<float>& ws = m_slotWorkspaces[k];
    m_model.backward(x, labels, ws);
    losses[k] = lossSumOf(ws);
    const std::vector<float> weights(members[k].size(),
                                     1.0f / static_cast<float>(members[k].size()));
    Eigen::VectorXf mean;
    m_model.weightedGradientSum(ws, weights, mean);
    rows.row(static_cast<Eigen::Index>(k)) = mean.transpose();
  });
  for (double l : losses) out.lossSum += l;
  recordRowNorms(rows, out);
  m_privatizer.privatizeRows(privacy::GradientRows(rows.data(), units, p), out.stats);
  addRowSums(rows, units, m_sum);
}

void PrivateGradient::recordRowNorms(const privacy::GradientMatrix& rows, StepGradient& out) const {
  if (!m_recordNorms) return;
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    out.unitNorms.push_back(std::sqrt(static_cast<double>(rows.row(r).squaredNorm())));
  }
}

}  // namespace epsilon::train
