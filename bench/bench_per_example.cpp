// Per-example gradient throughput of the DP-SGD presets (float, lot 256, random data), as
// examples/s and achieved GFLOP/s (MFLOP/example counts the forward and backward GEMM work):
//   Plain         backward() + weightedGradientSum(all ones): the batch gradient;
//   NormsAndSum   backward() with the norms and clip factors min(1, C/‖g_i‖) computed chunk
//                 by chunk inside it (Workspace::clipChunk, as training does) +
//                 clippedGradientSum(): the clipped sum without B × P memory;
//   Materialised  backward() + perExampleGradients() (B × P) + norms from it + Gᵀ·factors.
// eigenGemm512 is Eigen's single-thread float GEMM (512³) on this machine, the yardstick.
// Argument: TBB threads (1 or 2).
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/random.h"
#include "core/nn/model.h"

namespace {

using namespace epsilon;
using nn::Matrix;
using nn::Vector;

constexpr int kLot = 256;
constexpr float kClip = 1.0f;

struct Problem {
  nn::Model<float> model;
  Matrix<float> x;
  std::vector<int> labels;
  std::vector<float> ones;
};

Problem makeProblem(const std::string& preset, const data::SampleShape& shape) {
  nn::PresetOptions options;
  options.hiddenWidths = {256};
  Problem p{nn::buildPreset<float>(preset, shape, 10, 1, options),
            {},
            {},
            std::vector<float>(kLot, 1.0f)};
  const PhiloxStream stream(7, RandomPurpose::Test);
  p.x.resize(kLot, shape.featureCount());
  for (Eigen::Index i = 0; i < p.x.size(); ++i)
    p.x.data()[i] = static_cast<float>(stream.uniform(std::uint64_t(i)));
  for (int i = 0; i < kLot; ++i)
    p.labels.push_back(static_cast<int>(stream.uniform(1u << 30 | unsigned(i)) * 10));
  return p;
}

// Clipping factors min(1, C/‖g_i‖) from the per-group squared norms (Abadi et al. 2016, Alg. 1).
std::vector<float> clipWeights(const Matrix<float>& groupNorms) {
  std::vector<float> w(static_cast<std::size_t>(groupNorms.rows()));
  for (Eigen::Index i = 0; i < groupNorms.rows(); ++i)
    w[std::size_t(i)] = std::min(1.0f, kClip / std::sqrt(groupNorms.row(i).sum() + 1e-12f));
  return w;
}

enum class Path { Plain, NormsAndSum, Materialised };

void runPath(benchmark::State& state, const std::string& preset, data::SampleShape shape,
             Path path) {
  Problem p = makeProblem(preset, shape);
  nn::Workspace<float> ws;
  Vector<float> sum;
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  if (path == Path::NormsAndSum) {  // as training computes them
    ws.normsInBackward = true;
    ws.clipChunk = [](std::size_t, const Matrix<float>& norms, Matrix<float>& weights) {
      const std::vector<float> w = clipWeights(norms);
      weights = Eigen::Map<const Vector<float>>(w.data(), norms.rows());
    };
  }
  auto step = [&] {
    p.model.backward(p.x, p.labels, ws);
    if (path == Path::Plain) {
      p.model.weightedGradientSum(ws, p.ones, sum);
    } else if (path == Path::NormsAndSum) {
      p.model.clippedGradientSum(ws, sum);
    } else {
      const Matrix<float> g = p.model.perExampleGradients(ws);
      Matrix<float> norms(g.rows(), Eigen::Index(p.model.parameterGroups().size()));
      const auto groups = p.model.parameterGroups();
      for (std::size_t k = 0; k < groups.size(); ++k)
        norms.col(Eigen::Index(k)) =
            g.middleCols(groups[k].offset, groups[k].size).rowwise().squaredNorm();
      const std::vector<float> w = clipWeights(norms);
      sum.noalias() = g.transpose() * Eigen::Map<const Vector<float>>(w.data(), kLot);
    }
    benchmark::DoNotOptimize(sum.data());
  };
  arena.execute(step);  // warm-up: sizes the workspace
  for (auto _ : state) arena.execute(step);
  const double examples = double(state.iterations()) * kLot;
  state.counters["examples/s"] = benchmark::Counter(examples, benchmark::Counter::kIsRate);
  state.counters["GFLOP/s"] =
      benchmark::Counter(examples * p.model.flopsPerExample() * 1e-9, benchmark::Counter::kIsRate);
  state.counters["MFLOP/example"] = p.model.flopsPerExample() * 1e-6;
}

const data::SampleShape kMnist = data::SampleShape::image(1, 28, 28);

void tfpCnnPlain(benchmark::State& s) {
  runPath(s, "tfp-cnn", kMnist, Path::Plain);
}
void tfpCnnNormsAndSum(benchmark::State& s) {
  runPath(s, "tfp-cnn", kMnist, Path::NormsAndSum);
}
void tfpCnnMaterialised(benchmark::State& s) {
  runPath(s, "tfp-cnn", kMnist, Path::Materialised);
}
void mlpPlain(benchmark::State& s) {
  runPath(s, "mlp", kMnist, Path::Plain);
}
void mlpNormsAndSum(benchmark::State& s) {
  runPath(s, "mlp", kMnist, Path::NormsAndSum);
}
void mlpMaterialised(benchmark::State& s) {
  runPath(s, "mlp", kMnist, Path::Materialised);
}

// Eigen's float GEMM on one thread (Eigen is built without OpenMP, so it never threads).
void eigenGemm512(benchmark::State& state) {
  const Eigen::Index n = 512;
  const Matrix<float> a = Matrix<float>::Random(n, n), b = Matrix<float>::Random(n, n);
  Matrix<float> c(n, n);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      double(state.iterations()) * 2.0 * n * n * n * 1e-9, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(eigenGemm512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(tfpCnnPlain)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(tfpCnnNormsAndSum)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(tfpCnnMaterialised)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mlpPlain)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mlpNormsAndSum)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(mlpMaterialised)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
