// How fast ε is answered, from a cold accountant each time (no cached curves), so the GUI
// can redraw the ε curve while a slider moves: RDP ε of 10⁵ homogeneous steps, the tight
// (PLD) ε of the TF Privacy tutorial (q = 256/60000, σ = 1.1, 60 epochs = 14,063 steps),
// and noise calibration with either accountant.
#include <benchmark/benchmark.h>

#include "core/privacy/calibration.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/rdp_accountant.h"

using namespace epsilon::privacy;

namespace {

constexpr double kTutorialRate = 256.0 / 60000.0;
constexpr long long kTutorialSteps = 14063;

// σ varies by a hair each iteration so no cache (ours or the CPU's) answers for us.
double jitter(std::int64_t iteration) {
  return 1.0 + 1e-9 * static_cast<double>(iteration % 1000);
}

void rdpEpsilonHomogeneous(benchmark::State& state) {
  std::int64_t iteration = 0;
  for (auto _ : state) {
    RdpAccountant accountant;
    accountant.compose(dpSgdStepEvent(0.01, 1.1 * jitter(iteration++)), state.range(0));
    benchmark::DoNotOptimize(accountant.epsilon(1e-5));
  }
  state.SetLabel("q=0.01 sigma=1.1 delta=1e-5");
}
BENCHMARK(rdpEpsilonHomogeneous)->Arg(1)->Arg(100000)->Unit(benchmark::kMillisecond);

void rdpEpsilonTutorial(benchmark::State& state) {
  std::int64_t iteration = 0;
  for (auto _ : state) {
    RdpAccountant accountant;
    accountant.compose(dpSgdStepEvent(kTutorialRate, 1.1 * jitter(iteration++)), kTutorialSteps);
    benchmark::DoNotOptimize(accountant.epsilon(1e-5));
  }
}
BENCHMARK(rdpEpsilonTutorial)->Unit(benchmark::kMillisecond);

void pldEpsilonTutorial(benchmark::State& state) {
  std::int64_t iteration = 0;
  for (auto _ : state) {
    PldAccountant accountant;
    accountant.compose(dpSgdStepEvent(kTutorialRate, 1.1 * jitter(iteration++)), kTutorialSteps);
    benchmark::DoNotOptimize(accountant.epsilon(1e-5));
  }
  state.SetLabel("q=256/60000 sigma=1.1 T=14063 interval=1e-4");
}
BENCHMARK(pldEpsilonTutorial)->Unit(benchmark::kMillisecond);

void pldEpsilonAbadi(benchmark::State& state) {
  std::int64_t iteration = 0;
  for (auto _ : state) {
    PldAccountant accountant;
    accountant.compose(dpSgdStepEvent(0.01, 4.0 * jitter(iteration++)), 10000);
    benchmark::DoNotOptimize(accountant.epsilon(1e-5));
  }
  state.SetLabel("q=0.01 sigma=4 T=10000");
}
BENCHMARK(pldEpsilonAbadi)->Unit(benchmark::kMillisecond);

void calibrateTutorial(benchmark::State& state) {
  const auto kind = static_cast<AccountantKind>(state.range(0));
  int evaluations = 0;
  std::int64_t iteration = 0;
  for (auto _ : state) {
    const Calibration result = calibrateNoise(
        [&](double sigma) {
          PrivacyRunDescription run;
          run.sampleRate = kTutorialRate;
          run.steps = kTutorialSteps;
          run.noiseMultipliers = {sigma};
          run.accountant = kind;
          return run;
        },
        3.0 * jitter(iteration++));
    evaluations = result.evaluations;
    benchmark::DoNotOptimize(result.noiseMultiplier);
  }
  state.counters["evaluations"] = evaluations;
  state.SetLabel(kind == AccountantKind::Rdp ? "rdp, target 3, tol 1e-4"
                                             : "pld, target 3, tol 1e-4");
}
BENCHMARK(calibrateTutorial)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
