// What an audit adds to a run: one DP-SGD epoch (mlp 784-256-10, lot 256, σ 1.1, C 1) on
// mnist-10k and on Fashion-MNIST, plain and with m = 1000 mislabel canaries (1000 training
// rows become canaries, about 500 go back in: about 500/256 ≈ 2 fewer steps; ood canaries
// would add as many steps as the rows they add), and the attack alone after training:
// per-example losses of the members, the test split and the canaries, the two ROC curves and
// the one-run bound over its k grid (target < 1 s).
// Run: bench_audit --benchmark_repetitions=3
//
// Measured 2026-11-22 on the shared 2-core build machine (GCC 12, Release) under a load
// average of 15-18 from other builds, so wall times are inflated and noisy (CPU = this
// process's main thread only). Mislabel canaries are taken out of the training split, so with
// m = 1000 (517 included) an epoch has fewer steps, not more; ood canaries add 517 rows.
//   mnist-10k:     plain epoch 31 steps, 1.05 s; with the audit 29 steps, training 0.61-0.89 s,
//                  attack 0.34-0.50 s inside the run; attack alone 84-93 ms wall (2000 members,
//                  2000 test images, 1000 canaries, bound over 6 values of k)
//   Fashion-MNIST: plain epoch 234 steps, 17.4 s wall (1.1 s CPU); with the audit 232 steps,
//                  training 2.9 s, attack 1.4 s inside the run; attack alone 0.43 s wall
//                  (10000 members, 10000 test images, 1000 canaries)
// What a GUI run gets when it finishes (attackFinishedRun: the attack, its ROC thinned for
// drawing, the accountant's bound over 81 FPRs), measured 2026-11-23 at a load average of 8:
//   mnist-10k 41 ms wall / 11 ms CPU (2000 + 2000 examples, 4001 ROC points kept as 213);
//   Fashion-MNIST 0.91 s wall / 0.31 s CPU (10000 + 10000, 20001 points kept as 235).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "core/audit/one_run_audit.h"
#include "core/audit/run_attack.h"
#include "core/data/registry.h"
#include "core/train/trainer.h"

namespace {

using namespace epsilon;

const data::Dataset* dataset(const std::string& name) {
  if (name == "fashion-mnist") {
    static const std::unique_ptr<const data::Dataset> fashion =
        []() -> std::unique_ptr<const data::Dataset> {
      if (!std::filesystem::exists(std::string(data::kFashionMnistDirectory) +
                                   "/train-images-idx3-ubyte.gz"))
        return nullptr;
      return std::make_unique<const data::Dataset>(data::loadDataset("fashion-mnist"));
    }();
    return fashion.get();
  }
  static const auto mnist = std::make_unique<const data::Dataset>(data::loadDataset("mnist-10k"));
  return mnist.get();
}

train::ExperimentConfig oneEpoch(const std::string& name) {
  train::ExperimentConfig c;
  c.dataset.name = name;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {256};
  c.privacy.noise.initial = 1.1;
  c.privacy.privatizer.clipNorm = 1.0;
  c.training.lotSize = 256;
  c.training.epochs = 1;
  c.training.evalEveryEpoch = false;
  return c;
}

audit::AuditOptions thousandCanaries() {
  audit::AuditOptions o;
  o.canaries = 1000;
  return o;
}

void BM_EpochPlain(benchmark::State& state, const std::string& name) {
  const data::Dataset* data = dataset(name);
  if (!data) return state.SkipWithError("data set not installed");
  const auto shared = std::make_shared<const data::Dataset>(*data);
  train::RunResult result;
  for (auto _ : state) result = train::Trainer(oneEpoch(name), shared).run();
  state.counters["steps"] = static_cast<double>(result.history.back().step);
  state.counters["train_s"] = result.elapsedSeconds;
}

void BM_EpochWithAudit(benchmark::State& state, const std::string& name) {
  const data::Dataset* data = dataset(name);
  if (!data) return state.SkipWithError("data set not installed");
  audit::AuditResult result;
  for (auto _ : state) result = audit::runAudit(oneEpoch(name), *data, thousandCanaries());
  state.counters["steps"] = static_cast<double>(result.run.history.back().step);
  state.counters["train_s"] = result.run.elapsedSeconds;
  state.counters["attack_s"] = result.attackSeconds;
  state.counters["canaries_in"] = static_cast<double>(result.canariesIncluded);
  state.counters["eps_hat"] = result.bound.epsilonLowerBound;
  state.counters["eps"] = result.upper.epsilon;
}

// The attack alone on one trained run (repeated on the same model).
void BM_AttackOnly(benchmark::State& state, const std::string& name) {
  const data::Dataset* data = dataset(name);
  if (!data) return state.SkipWithError("data set not installed");
  const audit::AuditOptions options = thousandCanaries();
  const train::ExperimentConfig config = oneEpoch(name);
  const audit::CanaryData canaries =
      audit::makeCanaryData(*data, options.canaries, options.kind, config.training.seed);
  audit::AuditResult result;
  result.run = train::Trainer(config, canaries.training).run();
  for (auto _ : state) audit::attackAuditedRun(canaries, options, result);
  state.counters["members"] = static_cast<double>(result.attack.members);
}

// What every GUI run gets when it finishes (the Attack tab): the loss-threshold attack on the
// final model with its ROC thinned for drawing, and the accountant's trade-off bound of the run.
void BM_AttackFinishedRun(benchmark::State& state, const std::string& name) {
  const data::Dataset* data = dataset(name);
  if (!data) return state.SkipWithError("data set not installed");
  const auto shared = std::make_shared<const data::Dataset>(*data);
  const train::ExperimentConfig config = oneEpoch(name);
  const train::RunResult run = train::Trainer(config, shared).run();
  audit::RunAttack attack;
  for (auto _ : state) {
    attack = audit::attackFinishedRun(run.model, config, run.history.back().step,
                                      run.history.back().privacy.epsilon, shared);
  }
  state.counters["members"] = static_cast<double>(attack.attack.members);
  state.counters["roc_points"] = static_cast<double>(attack.attack.roc.fpr.size());
  state.counters["kept_points"] = static_cast<double>(attack.drawnRoc.fpr.size());
}

BENCHMARK_CAPTURE(BM_AttackFinishedRun, mnist10k, std::string("mnist-10k"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AttackFinishedRun, fashion, std::string("fashion-mnist"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EpochPlain, mnist10k, std::string("mnist-10k"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_EpochWithAudit, mnist10k, std::string("mnist-10k"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_AttackOnly, mnist10k, std::string("mnist-10k"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EpochPlain, fashion, std::string("fashion-mnist"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_EpochWithAudit, fashion, std::string("fashion-mnist"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_AttackOnly, fashion, std::string("fashion-mnist"))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
