// Gradient-descent optimizers (SGD, Momentum/Nesterov, Adam, Adagrad, RMSprop) that apply an
// already privatized gradient to the flat parameter vector. Applying them is post-processing
// of a DP release, so they cost no privacy (Dwork & Roth 2014, Prop. 2.1).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

namespace epsilon::optim {

using Vector = Eigen::VectorXf;

enum class OptimizerKind { Sgd, Momentum, Adam, Adagrad, RmsProp };

// Hyper-parameters of every optimizer; each uses only its own. The defaults are Keras's
// (the framework of the seed experiments and of TF Privacy's DP optimizers).
struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::Sgd;
  double momentum = 0.9;            // Momentum: μ
  bool nesterov = false;            // Momentum: Nesterov's look-ahead form
  double beta1 = 0.9;               // Adam: first-moment decay
  double beta2 = 0.999;             // Adam: second-moment decay
  double rho = 0.9;                 // RMSprop: decay of the squared-gradient average
  double initialAccumulator = 0.1;  // Adagrad: starting value of Σg²
  double epsilon = 1e-7;            // Adam, Adagrad, RMSprop: added to the denominator

  // Throws ConfigError naming the field ("optimizer.momentum", ...) for impossible values.
  void validate() const;
};

// One optimizer's state over a fixed number of parameters.
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // θ ← update(θ, g, η). Sizes must equal parameterCount() (throws ConfigError otherwise).
  void step(Vector& parameters, const Vector& gradient, float learningRate);
  Eigen::Index parameterCount() const { return m_parameterCount; }
  long long stepsTaken() const { return m_steps; }
  virtual OptimizerKind kind() const = 0;

 protected:
  using Segment = Eigen::VectorBlock<Vector>;
  using ConstSegment = Eigen::VectorBlock<const Vector>;
  explicit Optimizer(Eigen::Index parameterCount) : m_parameterCount(parameterCount) {}
  // The update of the parameters [begin, begin + parameters.size()): step() runs the blocks
  // of the vector in parallel, and every update is element by element, so the result does
  // not depend on the threads. `t` is the 1-based number of this step (Adam's bias
  // correction needs it).
  virtual void apply(Eigen::Index begin, Segment parameters, ConstSegment gradient,
                     float learningRate, long long t) = 0;

 private:
  Eigen::Index m_parameterCount;
  long long m_steps = 0;
};

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerOptions& options,
                                         Eigen::Index parameterCount);

// Names as users type them: "sgd", "momentum", "adam", "adagrad", "rmsprop".
std::string optimizerName(OptimizerKind kind);
// Throws ConfigError("<field>: expected one of sgd, momentum, ..., got '<text>'").
OptimizerKind parseOptimizerKind(const std::string& text,
                                 const std::string& field = "optimizer.name");
std::vector<std::string> optimizerNames();

}  // namespace epsilon::optim
