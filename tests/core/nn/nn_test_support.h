// Helpers shared by the core/nn test suites: seeded random matrices and labels, central
// finite differences, and the relative error the suites compare against.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/common/random.h"
#include "core/nn/tensor.h"

namespace epsilon::nn::test {

// Entries N(0, scale²) from the Test stream (a, b pick the sub-stream).
template <class Scalar>
Matrix<Scalar> randomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint32_t a,
                            double scale = 1.0) {
  const PhiloxStream stream(2024, RandomPurpose::Test, a, 1);
  Matrix<Scalar> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = static_cast<Scalar>(scale * stream.normal(static_cast<std::uint64_t>(i)));
  return m;
}

inline std::vector<int> randomLabels(Eigen::Index count, int classes, std::uint32_t a) {
  const PhiloxStream stream(2024, RandomPurpose::Test, a, 2);
  std::vector<int> labels;
  for (Eigen::Index i = 0; i < count; ++i)
    labels.push_back(static_cast<int>(stream.uniform(static_cast<std::uint64_t>(i)) * classes));
  return labels;
}

// max |a − b| / max(max |b|, tiny): one number per comparison, as llm.c's test prints.
template <class A, class B>
double relativeError(const A& a, const B& b) {
  const double scale = std::max(static_cast<double>(b.cwiseAbs().maxCoeff()), 1e-30);
  return static_cast<double>((a - b).cwiseAbs().maxCoeff()) / scale;
}

// Central difference (f(x + h) − f(x − h)) / 2h of f with respect to value, restored after.
inline double centralDifference(double& value, const std::function<double()>& f, double h = 1e-6) {
  const double saved = value;
  value = saved + h;
  const double plus = f();
  value = saved - h;
  const double minus = f();
  value = saved;
  return (plus - minus) / (2 * h);
}

}  // namespace epsilon::nn::test
