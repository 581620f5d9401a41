// The statistics of the one-run privacy audit (Steinke, Nasr & Jagielski, "Privacy Auditing
// with One (1) Training Run", NeurIPS 2023): from m canaries each included with probability
// ½, r membership guesses of which v are correct, the p-value of "the training is (ε, δ)-DP"
// and the largest ε that this evidence rejects (the empirical lower bound ε̂).
#pragma once

#include <span>
#include <vector>

namespace epsilon::audit {

// P[Binomial(r, q) ≥ v], summed in log space (exact to rounding for any r this app uses).
double binomialUpperTail(long long r, long long v, double q);

// p-value of observing ≥ v correct of r guesses on m canaries if training is (ε, δ)-DP
// (Steinke et al. 2023, §3: their main result for approximate DP, the binomial tail plus a δ
// term, evaluated by the p-value routine printed in the paper's appendix; no theorem or
// appendix number is given here because none could be checked against the paper itself):
// with q = e^ε/(1 + e^ε), β = P[Binomial(r, q) ≥ v] and
// α = max_{1≤i≤v} P[v − i ≤ Binomial(r, q) < v] / i, p = min(1, β + 2·m·δ·α).
// Throws PrivacyError naming "canaries", "guesses", "correct", "epsilon" or "delta" unless
// 0 ≤ v ≤ r ≤ m, ε ≥ 0 and δ ∈ [0, 1].
double oneRunPValue(long long m, long long r, long long v, double epsilon, double delta);

// ε̂: the largest ε whose p-value stays below 1 − confidence, by bisection to 1e-9 (0 when
// even ε = 0 is not rejected, e.g. whenever v ≤ r/2). `confidence` in (0, 1).
double oneRunEpsilonLowerBound(long long m, long long r, long long v, double delta,
                               double confidence);

// How many guesses were right: "member" for the kPlus highest scores, "non-member" for the
// kMinus lowest, abstaining on the rest (ties broken by canary index, so it is repeatable).
struct GuessCount {
  long long guesses = 0;  // r = kPlus + kMinus
  long long correct = 0;  // v
};
GuessCount countCorrectGuesses(std::span<const double> scores, std::span<const char> included,
                               long long kPlus, long long kMinus);

// The result of guessing with k₊ = k₋ = k for each k of a small grid fixed in advance and
// keeping the best bound. Each k is tested at level (1 − confidence)/|grid| (Bonferroni), so
// the reported ε̂ holds at `confidence` for the whole search, not only for the best k.
struct OneRunBound {
  long long canaries = 0;  // m
  long long guesses = 0;   // r of the chosen k
  long long correct = 0;   // v of the chosen k
  long long k = 0;         // k₊ = k₋ of the chosen grid point
  int gridSize = 0;
  double delta = 0.0;
  double confidence = 0.0;
  double epsilonLowerBound = 0.0;
};

// k ∈ {m/100, m/40, m/20, m/10, m/4, m/2}, rounded, at least 1, without repeats.
std::vector<long long> defaultGuessGrid(long long canaries);

OneRunBound bestBoundOverGrid(std::span<const double> scores, std::span<const char> included,
                              double delta, double confidence, std::span<const long long> grid);

}  // namespace epsilon::audit
