// The matrix types the network code shares: row-major batches (one example per row, each
// row a sample in C×H×W order), maps over a chunk of those rows, and reusable scratch memory.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <vector>

namespace epsilon::nn {

template <class Scalar>
using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class Scalar>
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

// A block of consecutive rows of a batch matrix (contiguous because the matrix is row-major).
template <class Scalar>
using Rows = Eigen::Map<Matrix<Scalar>>;
template <class Scalar>
using ConstRows = Eigen::Map<const Matrix<Scalar>>;

template <class Scalar>
Rows<Scalar> rowBlock(Matrix<Scalar>& m, Eigen::Index begin, Eigen::Index count) {
  return Rows<Scalar>(m.data() + begin * m.cols(), count, m.cols());
}
template <class Scalar>
ConstRows<Scalar> rowBlock(const Matrix<Scalar>& m, Eigen::Index begin, Eigen::Index count) {
  return ConstRows<Scalar>(m.data() + begin * m.cols(), count, m.cols());
}

// Scratch memory for one chunk of examples: a few buffers that only ever grow, so a layer
// asking for the same sizes on every step never touches the heap in the hot loop (Eigen's
// resize() reallocates whenever the size changes, which layers of different sizes would do).
template <class Scalar>
class ChunkScratch {
 public:
  static constexpr std::size_t kBufferCount = 4;

  // A buffer of at least `size` scalars; contents are unspecified.
  Scalar* buffer(std::size_t which, Eigen::Index size) {
    auto& b = m_buffers[which];
    if (b.size() < static_cast<std::size_t>(size)) b.resize(static_cast<std::size_t>(size));
    return b.data();
  }
  // A rows × cols row-major matrix over buffer `which`.
  Rows<Scalar> matrix(std::size_t which, Eigen::Index rows, Eigen::Index cols) {
    return Rows<Scalar>(buffer(which, rows * cols), rows, cols);
  }

 private:
  std::array<std::vector<Scalar, Eigen::aligned_allocator<Scalar>>, kBufferCount> m_buffers;
};

}  // namespace epsilon::nn
