// G = A·B for the small row-major products of per-example convolution gradients
// (filters × positions times positions × patch). Eigen's GEMM packs both operands into
// its own layout and zeroes the destination before accumulating into it, which for
// products of this size costs about as much as the arithmetic; this kernel reads both
// operands in place and writes G once. It computes a block of 4 rows × 4 vectors of G
// in registers over the whole inner dimension (the register blocking of Goto and van de
// Geijn 2008, "Anatomy of High-Performance Matrix Multiplication", without the packing).
// Each entry is the inner sum taken in order, so results do not depend on threads.
#pragma once

#include <Eigen/Core>
#include <cstring>

namespace epsilon::nn::detail {

template <class Scalar>
struct SmallProduct {
  typedef Scalar Vec __attribute__((vector_size(64)));
  static constexpr Eigen::Index kLanes = 64 / sizeof(Scalar);
  static constexpr Eigen::Index kRows = 4, kVecs = 4, kCols = kVecs * kLanes;

  // True when the fast path covers the shape; otherwise the caller uses Eigen. Only where the
  // compiler targets AVX-512: its 32 vector registers hold the 16 accumulators of 64 bytes.
  // With AVX2 or SSE2 (the package's engines, scripts/package) they would spill to memory
  // on every step of the inner loop, so those builds keep Eigen's product.
  static bool fits(Eigen::Index rows, Eigen::Index cols) {
#if defined(__AVX512F__)
    return rows % kRows == 0 && cols % kCols == 0;
#else
    (void)rows;
    (void)cols;
    return false;
#endif
  }

  static Vec load(const Scalar* p) {
    Vec v;
    std::memcpy(&v, p, sizeof(Vec));
    return v;
  }

  // g (rows × cols, leading dimension ldg) = a (rows × inner, lda) · b (inner × cols, ldb).
  static void run(const Scalar* a, Eigen::Index lda, const Scalar* b, Eigen::Index ldb,
                  Eigen::Index rows, Eigen::Index inner, Eigen::Index cols, Scalar* g,
                  Eigen::Index ldg) {
    for (Eigen::Index c0 = 0; c0 < cols; c0 += kCols)
      for (Eigen::Index r0 = 0; r0 < rows; r0 += kRows) {
        Vec acc[kRows][kVecs];
        for (Eigen::Index r = 0; r < kRows; ++r)
          for (Eigen::Index v = 0; v < kVecs; ++v) acc[r][v] = Vec{};
        const Scalar* ar = a + r0 * lda;
        const Scalar* bc = b + c0;
        for (Eigen::Index t = 0; t < inner; ++t, bc += ldb) {
          Vec bv[kVecs];
          for (Eigen::Index v = 0; v < kVecs; ++v) bv[v] = load(bc + v * kLanes);
          for (Eigen::Index r = 0; r < kRows; ++r) {
            const Scalar s = ar[r * lda + t];
            for (Eigen::Index v = 0; v < kVecs; ++v) acc[r][v] += s * bv[v];
          }
        }
        for (Eigen::Index r = 0; r < kRows; ++r)
          for (Eigen::Index v = 0; v < kVecs; ++v)
            std::memcpy(g + (r0 + r) * ldg + c0 + v * kLanes, &acc[r][v], sizeof(Vec));
      }
  }
};

}  // namespace epsilon::nn::detail
