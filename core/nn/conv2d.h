// A 2-D convolution over C×H×W images (cross-correlation, as TensorFlow and PyTorch
// compute it) with square kernels, one stride for both axes and TensorFlow's "same" or
// "valid" padding. Parameters: W (filters × channels·k·k, row-major, inner order
// channel, kernel row, kernel column) followed by one bias per filter.
#pragma once

#include "core/nn/layer.h"

namespace epsilon::nn {

enum class Padding { Same, Valid };

// Where Conv2D::forwardExamples() sends its output: one call per example of the chunk,
// with the sums W·patch of filter f (positions() scalars, the bias not yet added) at
// sums + f·filterStride, in scratch memory that is overwritten after the call returns.
template <class Scalar>
class ConvOutputSink {
 public:
  virtual void example(Eigen::Index example, const Scalar* sums, Eigen::Index filterStride,
                       const Scalar* bias) = 0;

 protected:
  ~ConvOutputSink() = default;
};

template <class Scalar>
class Conv2D final : public Layer<Scalar> {
 public:
  Conv2D(int filters, int kernel, int stride, Padding padding);

  std::unique_ptr<Layer<Scalar>> clone() const override { return std::make_unique<Conv2D>(*this); }
  std::string kind() const override { return "conv"; }
  std::string describe() const override;
  data::SampleShape configure(const data::SampleShape& input) override;

  Eigen::Index parameterCount() const override { return weightCount() + m_filters; }
  Eigen::Index weightCount() const override { return Eigen::Index{m_filters} * patchSize(); }
  Eigen::Index fanIn() const override { return patchSize(); }
  Eigen::Index fanOut() const override { return Eigen::Index{m_filters} * m_kernel * m_kernel; }
  LayerCost cost() const override;
  bool keepsPerExampleGradients() const override { return true; }

  void forward(const Scalar* params, ConstRows<Scalar> in, Rows<Scalar> out,
               ChunkScratch<Scalar>& scratch) const override;
  void backward(const Scalar* params, ConstRows<Scalar> in, ConstRows<Scalar> out,
                ConstRows<Scalar> outGrad, Rows<Scalar> inGrad,
                ChunkScratch<Scalar>& scratch) const override;
  void addWeightedGradient(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, const Scalar* weights,
                           Scalar* grad, ChunkScratch<Scalar>& scratch) const override;
  void perExampleGradients(ConstRows<Scalar> in, ConstRows<Scalar> outGrad, Scalar* grads,
                           Eigen::Index stride, ChunkScratch<Scalar>& scratch) const override;
  // forward() with its output stage left to `sink` (forward() adds the bias and copies the
  // planes into the example's output row), so a following elementwise layer and pooling
  // can take them while they are in cache (core/nn/conv_relu_pool.h). Uses scratch buffers
  // 0–2.
  void forwardExamples(const Scalar* params, ConstRows<Scalar> in, ChunkScratch<Scalar>& scratch,
                       ConvOutputSink<Scalar>& sink) const;

  int filterCount() const { return m_filters; }
  int outputHeight() const { return m_outH; }
  int outputWidth() const { return m_outW; }
  int padTop() const { return m_padTop; }
  int padLeft() const { return m_padLeft; }
  Eigen::Index positionCount() const { return positions(); }

 private:
  Eigen::Index patchSize() const { return Eigen::Index{m_in.channels} * m_kernel * m_kernel; }
  Eigen::Index positions() const { return Eigen::Index{m_outH} * m_outW; }
  // The extent of the (padded) input the kernel windows read.
  int paddedHeight() const { return (m_outH - 1) * m_stride + m_kernel; }
  int paddedWidth() const { return (m_outW - 1) * m_stride + m_kernel; }
  bool needsStaging() const {
    return m_padTop > 0 || m_padLeft > 0 || paddedHeight() > m_in.height ||
           paddedWidth() > m_in.width;
  }
  struct Source {
    const Scalar* data;
    Eigen::Index rowStride;
    Eigen::Index channelStride;
  };
  Source stagedImage(const Scalar* example, ChunkScratch<Scalar>& scratch) const;
  // Unfolds n examples into cols ((n·positions) × patchSize, row e·positions + t holds the
  // patch under output position t of example e), so the convolution of a block of examples
  // is one matrix product (Chellapilla et al. 2006, "High Performance Convolutional Neural
  // Networks for Document Processing"). A patch is k contiguous pixels per (channel,
  // kernel row) of the zero-padded image, so the copy is a few short fixed-size moves.
  void im2col(const Scalar* in, Eigen::Index n, Scalar* cols, ChunkScratch<Scalar>& scratch) const;
  // The adjoint of im2col: adds each column entry back onto the input pixel it came from.
  void col2imAdd(const Scalar* cols, Eigen::Index n, Scalar* inGrad,
                 ChunkScratch<Scalar>& scratch) const;
  template <class Body>
  void withKernelSize(Body&& body) const;
  template <class Body>
  void forEachBlock(Eigen::Index n, Body&& body) const;

  int m_filters;
  int m_kernel;
  int m_stride;
  Padding m_padding;
  data::SampleShape m_in;
  int m_outH = 0;
  int m_outW = 0;
  int m_padTop = 0;
  int m_padLeft = 0;
};

extern template class Conv2D<float>;
extern template class Conv2D<double>;

}  // namespace epsilon::nn
