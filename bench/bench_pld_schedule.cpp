// Seconds of PLD accounting for runs with a per-step noise schedule (issue 29), as the
// trainer and the preview ask for it: privacyStatement of the run's first s steps at every
// evaluation point (privacy_statement.h). Within a repetition the evaluations share whatever
// the accountant memoises, as a training run does.
//
// Cases (q, σ₀ and P as `epsilonlab-cli train --dataset circle --epochs 3 --batch-size 32
// --noise-schedule exp --noise-decay 0.01 --accountant pld` plans them: N = 800, q = 32/800,
// σ₀ = 1.1, mlp 2-256-2 with P = 1282 parameters):
//   circle-clip   75 steps, σ_t = 1.1·e^(−0.01 t), evaluated at step 0 and every epoch end
//   circle-tanh   the same with the tanh filter (honest σ_t/√P, and the nominal ε)
//   circle-clip-7 / circle-tanh-7: also evaluated every 7 steps
//   decay-600     600 steps at q = 256/60000, σ_t = 2·e^(−0.00104 t): 63 distinct accounted σ
//   const-14040   14,040 steps at q = 256/60000, σ = 1.1 (one atom: must not get slower)
//   fmnist-15000  15,000 steps at q = 256/60000, σ_t = 2·e^(−0.000046 t) (2 → 1), evaluated
//                 every 234 steps (an epoch of Fashion-MNIST at lot 256)
//   calib-circle / calib-fmnist: calibrateNoise of σ₀ for circle-clip to ε = 7 and for
//                 fmnist-15000 to ε = 1 (PLD; the columns show the ε reached and the σ₀)
// Usage: bench_pld_schedule [repetitions=3] [case ...]; prints the median wall time, the
// process CPU seconds per repetition (both threads), and every time. Each case and repetition
// perturbs σ₀ by its own parts in 10⁹, so none answers from another's memo.
//
// Measured 2026-11-26 late on the 2-core build machine, each run alone under the helpers' CPU
// lock (idle), main (f6ac158) and this code; medians of 3, seconds wall (CPU per repetition):
//   case            main            now            ε main → now
//   circle-clip     0.226 (0.415)   0.089 (0.177)  7.347394 → 7.347508 (+1.6e-5 relative)
//   circle-tanh     0.198 (0.381)   0.110 (0.201)  honest 16874.57 → 16891.80; nominal as clip
//   circle-clip-7   0.243 (0.419)   0.106 (0.204)  the same as circle-clip
//   circle-tanh-7   0.330 (0.515)   0.141 (0.250)  the same as circle-tanh
//   decay-600       0.281 (0.482)   0.167 (0.306)  0.323656 → 0.323656
//   const-14040     0.517 (0.924)   0.491 (0.874)  2.379643 → 2.379643
//   fmnist-15000    0.977 (1.462)   0.628 (1.091)  1.844832 → 1.844832
//   calib-circle    0.524 (1.132)   0.281 (0.639)  σ₀ 1.122312 (ε 6.999977) → 1.122318 (6.999983)
//   calib-fmnist    0.922 (2.856)   0.707 (2.157)  σ₀ 3.105832 (ε 0.999997) → the same
// (the calibrations' first repetition is cold: 0.72 → 0.44 s and 2.89 → 2.07 s).
// Again 2026-11-27, medians of 5, each build alone under the lock, f6ac158 → main (wall s):
// circle-clip 0.227 → 0.095 (0.114 in a second set), circle-tanh 0.246 → 0.122, circle-clip-7
// 0.297 → 0.115 (0.224 in a first set, unlocked work running beside it), circle-tanh-7 0.333 →
// 0.135 (0.160), decay-600 0.275 → 0.165, const-14040 0.564 → 0.564, fmnist-15000 1.194 → 0.512,
// calib-circle 0.557 → 0.224, calib-fmnist 0.906 → 0.699 (cold first repetitions: calib-circle
// 0.774 → 0.349, calib-fmnist 4.66 → 1.87); ε as above. Where the time went on f6ac158 (perf,
// circle-*-7): the one-step discretisations (erfc, exp, log: ~40%), kissfft (~40%: every step's
// spectrum again each time a growing run needed a longer FFT), mgfBlocks 6%; fmnist: kissfft 42%,
// powers of spectra 18%, discretisation 13%. Now a run's steps are folded at an FFT length that
// only grows (a longer one re-transforms the composition so far, not every step), and a step whose
// loss spreads more widely than the first is discretised on a coarser grid of its own: kissfft
// ~30%, discretisation ~30%, mgfBlocks 9%, powers 7%.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include "core/privacy/privacy_statement.h"

using namespace epsilon::privacy;

namespace {

struct Case {
  std::string name;
  PrivatizerKind privatizer = PrivatizerKind::Clip;
  double sampleRate = 0.0;
  long long steps = 0;
  double sigma0 = 0.0;
  double decay = 0.0;  // exp decay rate ρ: σ_t = σ₀·e^(−ρt)
  long long stepsPerEpoch = 0;
  long long evalEvery = 0;   // 0: epoch ends only
  double calibrateTo = 0.0;  // > 0: time calibrateNoise to this ε instead of the evaluations
};

PrivacyRunDescription describe(const Case& c, double sigma0) {
  PrivacyRunDescription run;
  run.privatizer = c.privatizer;
  run.sampleRate = c.sampleRate;
  run.steps = c.steps;
  run.parameterCount = 1282;
  run.accountant = AccountantKind::Pld;
  if (c.decay == 0.0) {
    run.noiseMultipliers = {sigma0};
  } else {
    for (long long t = 0; t < c.steps; ++t)
      run.noiseMultipliers.push_back(sigma0 * std::exp(-c.decay * static_cast<double>(t)));
  }
  return run;
}

std::vector<long long> evaluationSteps(const Case& c) {
  std::set<long long> steps{0, c.steps};
  for (long long s = c.stepsPerEpoch; s < c.steps; s += c.stepsPerEpoch) steps.insert(s);
  if (c.evalEvery > 0)
    for (long long s = c.evalEvery; s < c.steps; s += c.evalEvery) steps.insert(s);
  return {steps.begin(), steps.end()};
}

// One calibration of σ₀ to c.calibrateTo (calibrateNoise, PLD, every σ_t scaling with σ₀);
// lastEpsilon: the calibrated run's ε, lastNominal: its σ₀.
double calibrateOnce(const Case& c, int salt, double& lastEpsilon, double& lastNominal) {
  const double target = c.calibrateTo * (1.0 + 1e-9 * static_cast<double>(salt + 1));
  const auto start = std::chrono::steady_clock::now();
  const Calibration result =
      calibrateNoise([&](double sigma0) { return describe(c, sigma0); }, target);
  lastEpsilon = result.epsilon;
  lastNominal = result.noiseMultiplier;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One repetition: the planned statement (the preview), then every evaluation in order.
// lastEpsilon: the honest ε of the whole run; lastNominal: the tanh filter's nominal ε (or 0).
double runOnce(const Case& c, int salt, double& lastEpsilon, double& lastNominal) {
  if (c.calibrateTo > 0.0) return calibrateOnce(c, salt, lastEpsilon, lastNominal);
  const double sigma0 = c.sigma0 * (1.0 + 1e-9 * static_cast<double>(salt + 1));
  const PrivacyRunDescription run = describe(c, sigma0);
  const auto start = std::chrono::steady_clock::now();
  lastEpsilon = privacyStatement(run).epsilon;
  for (long long s : evaluationSteps(c)) {
    const PrivacyStatement statement = privacyStatement(firstSteps(run, s));
    if (s != c.steps) continue;
    lastEpsilon = statement.epsilon;
    lastNominal = statement.nominalEpsilon.value_or(0.0);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const double q = 256.0 / 60000.0;
  const std::vector<Case> cases = {
      {"circle-clip", PrivatizerKind::Clip, 0.04, 75, 1.1, 0.01, 25, 0},
      {"circle-tanh", PrivatizerKind::Tanh, 0.04, 75, 1.1, 0.01, 25, 0},
      {"circle-clip-7", PrivatizerKind::Clip, 0.04, 75, 1.1, 0.01, 25, 7},
      {"circle-tanh-7", PrivatizerKind::Tanh, 0.04, 75, 1.1, 0.01, 25, 7},
      {"decay-600", PrivatizerKind::Clip, q, 600, 2.0, 0.00104, 234, 0},
      {"const-14040", PrivatizerKind::Clip, q, 14040, 1.1, 0.0, 234, 0},
      {"fmnist-15000", PrivatizerKind::Clip, q, 15000, 2.0, 4.6e-5, 234, 0},
      {"calib-circle", PrivatizerKind::Clip, 0.04, 75, 1.1, 0.01, 25, 0, 7.0},
      {"calib-fmnist", PrivatizerKind::Clip, q, 15000, 2.0, 4.6e-5, 234, 0, 1.0},
  };
  std::set<std::string> chosen;
  for (int i = 2; i < argc; ++i) chosen.insert(argv[i]);
  std::printf("%-14s %10s %8s %12s %12s   times (s)\n", "case", "median (s)", "cpu (s)",
              "final eps", "nominal eps");
  for (const Case& c : cases) {
    if (!chosen.empty() && !chosen.count(c.name)) continue;
    std::vector<double> times;
    double epsilon = 0.0;
    double nominal = 0.0;
    // Each case and repetition its own σ₀: no case answers from another's memo either.
    const int salt = static_cast<int>(&c - cases.data()) * repetitions;
    const std::clock_t cpuStart = std::clock();
    for (int r = 0; r < repetitions; ++r) times.push_back(runOnce(c, salt + r, epsilon, nominal));
    const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    std::printf("%-14s %10.3f %8.3f %12.6f %12.6f  ", c.name.c_str(), sorted[sorted.size() / 2],
                cpu / repetitions, epsilon, nominal);
    for (double t : times) std::printf(" %.3f", t);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
