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

// The rows of `split` at `rows`, in that order.
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

std::vector<double> perExampleLosses(const nn::Model<float>& model, const data::Split& split) {
  const auto n = static_cast<std::size_t>(split.size());
  std::vector<double> losses(n);
  forEachChunk(n, kRowsPerChunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    const auto rows = static_cast<Eigen::Index>(end - begin);
    const nn::Matrix<float> x = split.features.middleRows(static_cast<Eigen::Index>(begin), rows);
    const nn::Matrix<float> logits = model.logits(x);
    for (Eigen::Index r = 0; r < rows; ++r) {
      // −log softmax(z)_y = log Σ_j exp(z_j − max) + max − z_y (Goodfellow et al. 2016, §6.2.2.3).
      const auto row = logits.row(r);
      const double top = row.maxCoeff();
      double sum = 0.0;
      for (Eigen::Index j = 0; j < row.size(); ++j)
        sum += std::exp(static_cast<double>(row[j]) - top);
      losses[begin + static_cast<std::size_t>(r)] =
          std::log(sum) + top -
          static_cast<double>(row[split.labels[begin + static_cast<std::size_t>(r)]]);
    }
  });
  return losses;
}

MembershipAttack lossThresholdAttack(const std::vector<double>& memberLosses,
                                     const std::vector<double>& nonMemberLosses) {
  MembershipAttack attack;
  attack.roc = rocCurve(negated(memberLosses), negated(nonMemberLosses));
  attack.auc = areaUnderCurve(attack.roc);
  attack.tprAtFpr1Percent = tprAtFpr(attack.roc, 0.01);
  attack.tprAtFpr01Percent = tprAtFpr(attack.roc, 0.001);
  attack.advantage = attackerAdvantage(attack.roc);
  attack.members = static_cast<long long>(memberLosses.size());
  attack.nonMembers = static_cast<long long>(nonMemberLosses.size());
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

MembershipAttack attackModel(const nn::Model<float>& model, const data::Split& train,
                             const data::Split& heldOut, std::uint64_t seed, long long memberRows) {
  const long long candidates =
      memberRows < 0 ? train.size() : std::min<long long>(memberRows, train.size());
  if (candidates == 0 || heldOut.size() == 0) {
    throw PrivacyError("membership inference: needs training and held-out examples, got " +
                       std::to_string(candidates) + " and " + std::to_string(heldOut.size()));
  }
  const long long n = std::min<long long>(candidates, heldOut.size());
  std::vector<long long> first(static_cast<std::size_t>(n));
  std::iota(first.begin(), first.end(), 0);
  const data::Split members = selectRows(train, sampleRows(candidates, n, seed));
  const data::Split nonMembers = n == heldOut.size() ? heldOut : selectRows(heldOut, first);
  return lossThresholdAttack(perExampleLosses(model, members), perExampleLosses(model, nonMembers));
}

}  // namespace epsilon::audit
