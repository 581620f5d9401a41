// One DP-SGD training epoch as the benchmarks time it: ⌊N/L⌋ steps of Poisson sampling, the
// privatized gradient (core/train/private_gradient.h) and the optimizer's update, timed as
// wall time per epoch (register with UseManualTime and MeasureProcessCPUTime, so the CPU
// column is every thread's CPU time: the build machine is shared, wall time alone misleads).
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>

#include "core/optim/optimizer.h"
#include "core/train/private_gradient.h"
#include "core/train/sampler.h"

namespace epsilon::bench {

struct DpEpochSetup {
  privacy::PrivatizerOptions privatizer;
  optim::OptimizerOptions optimizer;
  int lot = 256;
  int microbatch = 1;  // examples per micro-batch (1: per-example clipping)
  double sigma = 1.1;
  float learningRate = 0.15f;
};

inline void timeDpEpochs(benchmark::State& state, nn::Model<float>& model, const data::Split& train,
                         const DpEpochSetup& setup) {
  std::vector<privacy::ParameterSlice> slices;
  for (const auto& g : model.parameterGroups()) slices.push_back({g.offset, g.size});
  const int slots = setup.microbatch > 1 ? setup.lot / setup.microbatch : setup.lot;
  auto privatizer = privacy::makePrivatizer(setup.privatizer, slices, slots);
  train::PrivateGradient pipeline(model, *privatizer, setup.microbatch, slots, slots, 1);
  train::PoissonSampler sampler(train.size(), double(setup.lot) / double(train.size()), 1);
  auto optimizer = optim::makeOptimizer(setup.optimizer, model.parameterCount());
  const long long steps = train.size() / setup.lot;
  Eigen::VectorXf gradient;
  long long step = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    for (long long s = 0; s < steps; ++s, ++step) {
      const auto indices = sampler.lot(step);
      pipeline.compute(train, indices, step, setup.sigma, gradient);
      optimizer->step(model.parameters(), gradient, setup.learningRate);
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.counters["steps"] = double(steps);
  state.counters["params"] = double(model.parameterCount());
}

}  // namespace epsilon::bench
