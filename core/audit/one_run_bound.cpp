#include "core/audit/one_run_bound.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/errors.h"
#include "core/common/text.h"

namespace epsilon::audit {

namespace {

// log P[Binomial(r, q) = k] from lgamma and stable logs of q and 1 − q.
double logBinomialPmf(long long r, long long k, double logQ, double log1mQ) {
  const double n = static_cast<double>(r);
  const double x = static_cast<double>(k);
  return std::lgamma(n + 1.0) - std::lgamma(x + 1.0) - std::lgamma(n - x + 1.0) + x * logQ +
         (n - x) * log1mQ;
}

// q = e^ε/(1 + e^ε) (the accuracy of ε-DP randomized response, Steinke et al. 2023, §3) as
// log q = −log(1 + e^−ε) and log(1 − q) = −ε − log(1 + e^−ε), exact for large ε.
void logAccuracy(double epsilon, double& logQ, double& log1mQ) {
  const double softplus = std::log1p(std::exp(-epsilon));
  logQ = -softplus;
  log1mQ = -epsilon - softplus;
}

void requireCounts(long long m, long long r, long long v) {
  if (m < 1) throw PrivacyError("canaries: expected m >= 1, got " + std::to_string(m));
  if (r < 0 || r > m) {
    throw PrivacyError("guesses: expected r in [0, canaries = " + std::to_string(m) + "], got " +
                       std::to_string(r));
  }
  if (v < 0 || v > r) {
    throw PrivacyError("correct: expected v in [0, guesses = " + std::to_string(r) + "], got " +
                       std::to_string(v));
  }
}

void requireDelta(double delta) {
  if (!(delta >= 0.0 && delta <= 1.0))
    throw PrivacyError("delta: expected a value in [0, 1], got " + shortNumber(delta));
}

double tailFromLogs(long long r, long long v, double logQ, double log1mQ) {
  if (v <= 0) return 1.0;
  if (v > r) return 0.0;
  // Sum from the largest term down in the scale of the largest, so nothing underflows early.
  double top = -INFINITY;
  for (long long k = v; k <= r; ++k) top = std::max(top, logBinomialPmf(r, k, logQ, log1mQ));
  if (!std::isfinite(top)) return 0.0;
  double sum = 0.0;
  for (long long k = v; k <= r; ++k) sum += std::exp(logBinomialPmf(r, k, logQ, log1mQ) - top);
  return std::min(1.0, sum * std::exp(top));
}

}  // namespace

double binomialUpperTail(long long r, long long v, double q) {
  if (!(q >= 0.0 && q <= 1.0))
    throw PrivacyError("binomial tail: q must be in [0, 1], got " + shortNumber(q));
  if (v <= 0) return 1.0;
  if (v > r) return 0.0;
  if (q == 0.0) return 0.0;
  if (q == 1.0) return 1.0;
  return tailFromLogs(r, v, std::log(q), std::log1p(-q));
}

double oneRunPValue(long long m, long long r, long long v, double epsilon, double delta) {
  requireCounts(m, r, v);
  if (!(epsilon >= 0.0))
    throw PrivacyError("epsilon: expected a value >= 0, got " + shortNumber(epsilon));
  requireDelta(delta);
  double logQ = 0.0;
  double log1mQ = 0.0;
  logAccuracy(epsilon, logQ, log1mQ);
  const double beta = tailFromLogs(r, v, logQ, log1mQ);
  if (delta == 0.0) return beta;
  // α = max_i P[v − i ≤ B < v]/i: the δ term's worst spread of the δ mass over the i
  // outcomes just below v (Steinke et al. 2023, the p-value routine in the paper's appendix).
  double alpha = 0.0;
  double below = 0.0;
  for (long long i = 1; i <= v; ++i) {
    below += std::exp(logBinomialPmf(r, v - i, logQ, log1mQ));
    alpha = std::max(alpha, below / static_cast<double>(i));
  }
  return std::min(1.0, beta + alpha * delta * 2.0 * static_cast<double>(m));
}

double oneRunEpsilonLowerBound(long long m, long long r, long long v, double delta,
                               double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw PrivacyError("confidence: expected a value in (0, 1), got " + std::to_string(confidence));
  }
  const double level = 1.0 - confidence;
  if (!(oneRunPValue(m, r, v, 0.0, delta) < level)) return 0.0;
  // The p-value grows with ε (q → 1 makes v correct guesses unsurprising); bracket, bisect.
  double low = 0.0;
  double high = 1.0;
  while (oneRunPValue(m, r, v, high, delta) < level && high < 1e3) {
    low = high;
    high *= 2.0;
  }
  while (high - low > 1e-9 * std::max(1.0, high)) {
    const double mid = 0.5 * (low + high);
    (oneRunPValue(m, r, v, mid, delta) < level ? low : high) = mid;
  }
  return low;
}

GuessCount countCorrectGuesses(std::span<const double> scores, std::span<const char> included,
                               long long kPlus, long long kMinus) {
  const long long m = static_cast<long long>(scores.size());
  if (included.size() != scores.size())
    throw PrivacyError("audit: one inclusion flag per canary score expected");
  if (kPlus < 0 || kMinus < 0 || kPlus + kMinus > m) {
    throw PrivacyError("audit: expected k+ + k- <= " + std::to_string(m) + " canaries, got " +
                       std::to_string(kPlus) + " + " + std::to_string(kMinus));
  }
  std::vector<long long> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](long long a, long long b) { return scores[a] > scores[b]; });
  GuessCount count{kPlus + kMinus, 0};
  for (long long i = 0; i < kPlus; ++i) count.correct += included[order[i]] ? 1 : 0;
  for (long long i = m - kMinus; i < m; ++i) count.correct += included[order[i]] ? 0 : 1;
  return count;
}

std::vector<long long> defaultGuessGrid(long long canaries) {
  std::vector<long long> grid;
  for (const double fraction : {0.01, 0.025, 0.05, 0.1, 0.25, 0.5}) {
    const long long k = std::max(1LL, std::llround(fraction * static_cast<double>(canaries)));
    if (2 * k <= canaries && std::find(grid.begin(), grid.end(), k) == grid.end())
      grid.push_back(k);
  }
  return grid;
}

OneRunBound bestBoundOverGrid(std::span<const double> scores, std::span<const char> included,
                              double delta, double confidence, std::span<const long long> grid) {
  if (grid.empty()) throw PrivacyError("audit: the grid of guess counts k is empty");
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw PrivacyError("confidence: expected a value in (0, 1), got " + std::to_string(confidence));
  }
  const long long m = static_cast<long long>(scores.size());
  const double perTest = 1.0 - (1.0 - confidence) / static_cast<double>(grid.size());
  OneRunBound best;
  best.canaries = m;
  best.gridSize = static_cast<int>(grid.size());
  best.delta = delta;
  best.confidence = confidence;
  best.epsilonLowerBound = -1.0;
  for (const long long k : grid) {
    const GuessCount count = countCorrectGuesses(scores, included, k, k);
    const double epsilon = oneRunEpsilonLowerBound(m, count.guesses, count.correct, delta, perTest);
    if (epsilon >= best.epsilonLowerBound) {  // ties go to the larger k: more canaries judged
      best.epsilonLowerBound = epsilon;
      best.guesses = count.guesses;
      best.correct = count.correct;
      best.k = k;
    }
  }
  return best;
}

}  // namespace epsilon::audit
