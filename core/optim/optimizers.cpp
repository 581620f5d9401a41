// The five optimizers. Each update is element-wise over the flat parameter vector, run in
// fixed blocks on the threads (one thread alone spent 2 % of an mlp DP epoch on SGD's update),
// so the result never depends on the thread count. The square-root updates are plain loops:
// GCC 12 warns spuriously inside Eigen's AVX-512 array sqrt.
#include <cmath>
#include <cstdio>
#include <string>

#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/common/text.h"
#include "core/optim/optimizer.h"

namespace epsilon::optim {

void Optimizer::step(Vector& parameters, const Vector& gradient, float learningRate) {
  if (parameters.size() != m_parameterCount || gradient.size() != m_parameterCount) {
    throw ConfigError("optimizer: expected " + std::to_string(m_parameterCount) +
                      " parameters and gradient entries, got " + std::to_string(parameters.size()) +
                      " and " + std::to_string(gradient.size()));
  }
  ++m_steps;
  constexpr std::size_t kBlock = std::size_t{1} << 14;
  forEachChunk(static_cast<std::size_t>(m_parameterCount), kBlock,
               [&](std::size_t, std::size_t begin, std::size_t end) {
                 const auto b = static_cast<Eigen::Index>(begin);
                 const auto n = static_cast<Eigen::Index>(end - begin);
                 apply(b, parameters.segment(b, n), gradient.segment(b, n), learningRate, m_steps);
               });
}

namespace {

// θ ← θ − η·g (Robbins & Monro 1951; Abadi et al. 2016, Alg. 1 "Descent").
class Sgd final : public Optimizer {
 public:
  explicit Sgd(Eigen::Index n) : Optimizer(n) {}
  OptimizerKind kind() const override { return OptimizerKind::Sgd; }

 protected:
  void apply(Eigen::Index, Segment p, ConstSegment g, float lr, long long) override {
    p.noalias() -= lr * g;
  }
};

// Heavy ball (Polyak 1964) as MindSpore's nn.Momentum and PyTorch write it: v ← μ·v + g,
// θ ← θ − η·v. Nesterov (Sutskever et al. 2013, eq. 3-4, in the same reparameterised form):
// θ ← θ − η·(g + μ·v) with the new v.
class Momentum final : public Optimizer {
 public:
  Momentum(Eigen::Index n, float mu, bool nesterov)
      : Optimizer(n), m_mu(mu), m_nesterov(nesterov), m_velocity(Vector::Zero(n)) {}
  OptimizerKind kind() const override { return OptimizerKind::Momentum; }

 protected:
  void apply(Eigen::Index begin, Segment p, ConstSegment g, float lr, long long) override {
    auto v = m_velocity.segment(begin, p.size());
    v = m_mu * v + g;
    if (m_nesterov) {
      p.noalias() -= lr * (g + m_mu * v);
    } else {
      p.noalias() -= lr * v;
    }
  }

 private:
  float m_mu;
  bool m_nesterov;
  Vector m_velocity;
};

// Adam (Kingma & Ba 2015, Alg. 1): m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g²,
// θ ← θ − η·m̂/(√v̂ + ε) with m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ).
class Adam final : public Optimizer {
 public:
  Adam(Eigen::Index n, double beta1, double beta2, double eps)
      : Optimizer(n),
        m_beta1(beta1),
        m_beta2(beta2),
        m_eps(static_cast<float>(eps)),
        m_first(Vector::Zero(n)),
        m_second(Vector::Zero(n)) {}
  OptimizerKind kind() const override { return OptimizerKind::Adam; }

 protected:
  void apply(Eigen::Index begin, Segment p, ConstSegment g, float lr, long long t) override {
    const float b1 = static_cast<float>(m_beta1);
    const float b2 = static_cast<float>(m_beta2);
    auto first = m_first.segment(begin, p.size());
    auto second = m_second.segment(begin, p.size());
    first = b1 * first + (1.0f - b1) * g;
    second = b2 * second + (1.0f - b2) * g.cwiseAbs2();
    const auto td = static_cast<double>(t);
    const float c1 = static_cast<float>(1.0 / (1.0 - std::pow(m_beta1, td)));
    const float c2 = static_cast<float>(1.0 / (1.0 - std::pow(m_beta2, td)));
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      p[i] -= lr * (c1 * first[i]) / (std::sqrt(c2 * second[i]) + m_eps);
    }
  }

 private:
  double m_beta1;
  double m_beta2;
  float m_eps;
  Vector m_first;
  Vector m_second;
};

// Adagrad (Duchi et al. 2011, eq. 1 with diagonal G): G ← G + g², θ ← θ − η·g/(√G + ε),
// G starting at Keras's initial accumulator value.
class Adagrad final : public Optimizer {
 public:
  Adagrad(Eigen::Index n, double initial, double eps)
      : Optimizer(n),
        m_eps(static_cast<float>(eps)),
        m_accumulator(Vector::Constant(n, static_cast<float>(initial))) {}
  OptimizerKind kind() const override { return OptimizerKind::Adagrad; }

 protected:
  void apply(Eigen::Index begin, Segment p, ConstSegment g, float lr, long long) override {
    auto accumulator = m_accumulator.segment(begin, p.size());
    accumulator += g.cwiseAbs2();
    for (Eigen::Index i = 0; i < p.size(); ++i)
      p[i] -= lr * g[i] / (std::sqrt(accumulator[i]) + m_eps);
  }

 private:
  float m_eps;
  Vector m_accumulator;
};

// RMSprop (Tieleman & Hinton 2012, lecture 6e): s ← ρ·s + (1−ρ)·g², θ ← θ − η·g/(√s + ε).
class RmsProp final : public Optimizer {
 public:
  RmsProp(Eigen::Index n, double rho, double eps)
      : Optimizer(n),
        m_rho(static_cast<float>(rho)),
        m_eps(static_cast<float>(eps)),
        m_average(Vector::Zero(n)) {}
  OptimizerKind kind() const override { return OptimizerKind::RmsProp; }

 protected:
  void apply(Eigen::Index begin, Segment p, ConstSegment g, float lr, long long) override {
    auto average = m_average.segment(begin, p.size());
    average = m_rho * average + (1.0f - m_rho) * g.cwiseAbs2();
    for (Eigen::Index i = 0; i < p.size(); ++i) p[i] -= lr * g[i] / (std::sqrt(average[i]) + m_eps);
  }

 private:
  float m_rho;
  float m_eps;
  Vector m_average;
};

[[noreturn]] void badOption(const std::string& field, const std::string& expected, double got) {
  throw ConfigError(field + ": expected " + expected + ", got " + shortNumber(got));
}

}  // namespace

void OptimizerOptions::validate() const {
  if (!(momentum >= 0.0 && momentum < 1.0))
    badOption("optimizer.momentum", "a value in [0, 1)", momentum);
  if (!(beta1 >= 0.0 && beta1 < 1.0)) badOption("optimizer.beta1", "a value in [0, 1)", beta1);
  if (!(beta2 >= 0.0 && beta2 < 1.0)) badOption("optimizer.beta2", "a value in [0, 1)", beta2);
  if (!(rho >= 0.0 && rho < 1.0)) badOption("optimizer.rho", "a value in [0, 1)", rho);
  if (!(initialAccumulator >= 0.0 && std::isfinite(initialAccumulator))) {
    badOption("optimizer.initial_accumulator", "a finite value >= 0", initialAccumulator);
  }
  if (!(epsilon > 0.0 && std::isfinite(epsilon)))
    badOption("optimizer.epsilon", "a finite value > 0", epsilon);
}

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerOptions& options, Eigen::Index n) {
  options.validate();
  switch (options.kind) {
    case OptimizerKind::Sgd:
      return std::make_unique<Sgd>(n);
    case OptimizerKind::Momentum:
      return std::make_unique<Momentum>(n, static_cast<float>(options.momentum), options.nesterov);
    case OptimizerKind::Adam:
      return std::make_unique<Adam>(n, options.beta1, options.beta2, options.epsilon);
    case OptimizerKind::Adagrad:
      return std::make_unique<Adagrad>(n, options.initialAccumulator, options.epsilon);
    case OptimizerKind::RmsProp:
      return std::make_unique<RmsProp>(n, options.rho, options.epsilon);
  }
  throw ConfigError("optimizer.name: unknown optimizer kind");
}

std::vector<std::string> optimizerNames() {
  return {"sgd", "momentum", "adam", "adagrad", "rmsprop"};
}

std::string optimizerName(OptimizerKind kind) {
  return optimizerNames().at(static_cast<std::size_t>(kind));
}

OptimizerKind parseOptimizerKind(const std::string& text, const std::string& field) {
  const auto names = optimizerNames();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<OptimizerKind>(i);
  }
  throw ConfigError(field + ": expected one of sgd, momentum, adam, adagrad, rmsprop, got '" +
                    text + "'");
}

}  // namespace epsilon::optim
