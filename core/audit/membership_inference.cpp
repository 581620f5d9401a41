#include "core/audit/membership_inference.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/common/random.h"

namespace epsilon::audit {

namespace {

constexpr std::size_t kRowsPerChunk = 512;

// n distinct rows of [0, size): the first n of a Fisher–Yates shuffle driven by Philox.
std::vector<long long> sampleRows(long long size, long long n, std::uint64_t seed) {
  std::vector<long long> rows(static_cast<std::size_t>(size));
  std::iota(rows.begin(), rows.end(), 0);
  const PhiloxStream stream(seed, RandomPurpose::Audit, 3);
  for (long long i = 0; i < n; ++i) {
    const auto span = static_cast<double>(size - i);
    const long long j =
        i + std::min(size - i - 1,
                     static_cast<long long>(stream.uniform(static_cast<std::uint64_t>(i)) * span));
    std::swap(rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
  }
  rows.resize(static_cast<std::size_t>(n));
  return rows;
}

std::vector<double> negated(const std::vector<double>& values) {
  std::vector<double> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(), [](double v) { return -v; });
  return out;
}

}  // namespace

data::Split selectRows(const data::Split& split, const std::vector<long long>& rows) {
  data::Split out;
  out.features.resize(static_cast<Eigen::Index>(rows.size()), split.features.cols());
  out.labels.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.features.row(static_cast<Eigen::Index>(i)) = split.features.row(rows[i]);
    out.labels.push_back(split.labels[static_cast<std::size_t>(rows[i])]);
  }
  return out;
}

std::vector<double> perExampleScores(const nn::Model<float>& model, const data::Split& split,
                                     const LogitScore& score) {
  const auto n = static_cast<std::size_t>(split.size());
  std::vector<double> values(n);
  forEachChunk(n, kRowsPerChunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    const auto rows = static_cast<Eigen::Index>(end - begin);
    const nn::Matrix<float> x = split.features.middleRows(static_cast<Eigen::Index>(begin), rows);
    const nn::Matrix<float> logits = model.logits(x);  // row-major: each row is contiguous
    const auto classes = static_cast<std::size_t>(logits.cols());
    for (Eigen::Index r = 0; r < rows; ++r) {
      const std::size_t i = begin + static_cast<std::size_t>(r);
      values[i] = score(std::span<const float>(logits.row(r).data(), classes), split.labels[i]);
    }
  });
  return values;
}

std::vector<double> perExampleLosses(const nn::Model<float>& model, const data::Split& split) {
  return perExampleScores(model, split, [](std::span<const float> row, int label) {
    // −log softmax(z)_y = log Σ_j exp(z_j − max) + max − z_y (Goodfellow et al. 2016, §6.2.2.3).
    const double top = *std::max_element(row.begin(), row.end());
    double sum = 0.0;
    for (const float z : row) sum += std::exp(static_cast<double>(z) - top);
    return std::log(sum) + top - static_cast<double>(row[static_cast<std::size_t>(label)]);
  });
}

MembershipAttack scoredAttack(std::span<const double> memberScores,
                              std::span<const double> nonMemberScores) {
  MembershipAttack attack;
  attack.roc = rocCurve(memberScores, nonMemberScores);
  attack.auc = areaUnderCurve(attack.roc);
  attack.tprAtFpr1Percent = tprAtFpr(attack.roc, 0.01);
  attack.tprAtFpr01Percent = tprAtFpr(attack.roc, 0.001);
  attack.advantage = attackerAdvantage(attack.roc);
  attack.members = static_cast<long long>(memberScores.size());
  attack.nonMembers = static_cast<long long>(nonMemberScores.size());
  return attack;
}

MembershipAttack lossThresholdAttack(const std::vector<double>& memberLosses,
                                     const std::vector<double>& nonMemberLosses) {
  MembershipAttack attack = scoredAttack(negated(memberLosses), negated(nonMemberLosses));
  const double threshold = std::accumulate(memberLosses.begin(), memberLosses.end(), 0.0) /
                           static_cast<double>(memberLosses.size());
  const auto below = [&](const std::vector<double>& losses) {
    return static_cast<double>(std::count_if(losses.begin(), losses.end(),
                                             [&](double l) { return l <= threshold; })) /
           static_cast<double>(losses.size());
  };
  attack.yeomAdvantage = below(memberLosses) - below(nonMemberLosses);
  return attack;
}

AttackCandidates attackCandidates(const data::Split& train, const data::Split& heldOut,
                                  std::uint64_t seed, long long memberRows) {
  const long long candidates =
      memberRows < 0 ? train.size() : std::min<long long>(memberRows, train.size());
  if (candidates == 0 || heldOut.size() == 0) {
    throw PrivacyError("membership inference: needs training and held-out examples, got " +
                       std::to_string(candidates) + " and " + std::to_string(heldOut.size()));
  }
  const long long n = std::min<long long>(candidates, heldOut.size());
  std::vector<long long> first(static_cast<std::size_t>(n));
  std::iota(first.begin(), first.end(), 0);
  AttackCandidates out;
  out.memberRows = sampleRows(candidates, n, seed);
  out.members = selectRows(train, out.memberRows);
  out.nonMembers = n == heldOut.size() ? heldOut : selectRows(heldOut, first);
  return out;
}

MembershipAttack attackModel(const nn::Model<float>& model, const data::Split& train,
                             const data::Split& heldOut, std::uint64_t seed, long long memberRows) {
  const AttackCandidates c = attackCandidates(train, heldOut, seed, memberRows);
  return lossThresholdAttack(perExampleLosses(model, c.members),
                             perExampleLosses(model, c.nonMembers));
}

}  // namespace epsilon::audit
