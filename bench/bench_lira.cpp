// What LiRA's shadows cost (Carlini et al. 2022; core/audit/lira.h): audit::trainShadows with
// S shadows of a configuration, on a tbb::task_arena of 2 threads (the 2-core machine's budget),
// candidates drawn as the Attack tab draws them (all training rows against the test split).
// Each shadow is one training run of the target's exact configuration and size, so the time
// is S × one run; the CNN is measured with fewer shadows and scaled to 16.
//   - mlp: mnist-10k, mlp 784-256-10, DP-SGD σ 1.1, C 1, lot 256, 15 epochs (the report's
//     settings, core/train defaults otherwise);
//   - cnn: the same with the report's tfp-cnn (resources/presets/01-report-fig3-clip-norm.json).
// Run: bench_lira --benchmark_filter='mlp/16$' ; bench_lira --benchmark_filter='cnn/2$'
// (s_for_16 scales a measured S to 16 shadows: each shadow is one run of the same size).
//
// Measured 2026-11-26 on the shared 2-core build machine (GCC 12, Release) at a load average of
// 9-11 from other helpers' builds (and, for the CNN, this branch's own builds), so the wall
// times are inflated and noisy:
//   mlp, 16 shadows: 115 s (7.2 s a shadow); with 2 shadows 15.1 s (7.5 s a shadow, 121 s
//                    scaled to 16)
//   cnn, 16 shadows: 594 s (37 s a shadow); with 2 shadows 61 s (30 s a shadow, 486 s scaled)
// The memorising MLP of teach-memorisation-audit (1,000 images + 51 ood canaries, 60 epochs,
// no noise) took 175 s for 16 shadows through `epsilonlab-cli audit --attack lira --threads 2`.
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include "core/audit/lira.h"
#include "core/audit/membership_inference.h"
#include "core/data/registry.h"

namespace {

using namespace epsilon;

const data::Dataset& mnist() {
  static const data::Dataset data = data::loadDataset("mnist-10k");
  return data;
}

train::ExperimentConfig reportRun(const std::string& preset) {
  train::ExperimentConfig c;
  c.dataset.name = "mnist-10k";
  c.model.preset = preset;
  c.privacy.noise.initial = 1.1;
  c.privacy.privatizer.clipNorm = 1.0;
  c.training.lotSize = 256;
  c.training.epochs = 15;
  c.training.evalEveryEpoch = false;
  c.training.seed = 1;
  return c;
}

void BM_Shadows(benchmark::State& state, const std::string& preset) {
  const train::ExperimentConfig config = reportRun(preset);
  const data::Dataset& data = mnist();
  const audit::AttackCandidates candidates =
      audit::attackCandidates(data.train, data.test, config.training.seed);
  audit::LiraOptions options;
  options.shadows = static_cast<int>(state.range(0));
  tbb::task_arena arena(2);
  audit::ShadowSet set;
  for (auto _ : state) {
    arena.execute([&] {
      set =
          audit::trainShadows(config, data, candidates.memberRows, candidates.nonMembers, options);
    });
  }
  state.counters["shadows"] = static_cast<double>(set.phi.size());
  state.counters["s_per_shadow"] = set.seconds / static_cast<double>(set.phi.size());
  state.counters["s_for_16"] = 16.0 * set.seconds / static_cast<double>(set.phi.size());
}

BENCHMARK_CAPTURE(BM_Shadows, mlp, std::string("mlp"))
    ->Arg(2)
    ->Arg(16)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Shadows, cnn, std::string("tfp-cnn"))
    ->Arg(2)
    ->Arg(16)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
