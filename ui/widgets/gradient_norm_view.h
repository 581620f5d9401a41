// The gradient-norm view: a histogram of one lot's per-example (or per-micro-batch) gradient
// norms before clipping, a vertical line at the clip norm C (C_t for adaptive clipping), the
// fraction clipped, and for the tanh filter the filter's curve — what makes the choice of C
// visible. It draws what core/train/gradient_norms.h computes and holds no maths of its own.
#pragma once

#include <QWidget>
#include <memory>

#include "core/privacy/privatizer.h"
#include "core/train/gradient_norms.h"

namespace epsilon::ui {

class GradientNormView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kBins = train::kNormViewBins;

  explicit GradientNormView(QWidget* parent = nullptr);

  // Shows one lot of a run whose privatizer is `options` (the tanh curve needs c and k).
  void setSample(std::shared_ptr<const train::GradientNormSample> sample,
                 const privacy::PrivatizerOptions& options, const QString& runName);
  void clear();

  bool hasSample() const { return m_sample != nullptr; }
  const train::GradientNormSample* sample() const { return m_sample.get(); }
  // The histogram drawn: train::normViewHistogram of the sample.
  const train::NormHistogram& histogram() const { return m_histogram; }
  QString caption() const;  // "step 120 · 64 units · C = 1 · 23% clipped"
  // Where the histogram is drawn: under the caption (two lines when the histogram keeps its
  // useful height below them, else one) and above the axis' labels.
  QRectF plotArea() const;
  // The histogram's useful height, in lines of the view's font: the bars, the clip line and
  // its "C" readable on a projector. The view's minimum height keeps it.
  static constexpr int kMinPlotLines = 3;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  static QString explanation();  // the tooltip's text under the caption
  int captionLines() const;
  void drawBars(QPainter& painter, const QRectF& plot) const;
  void drawClipLine(QPainter& painter, const QRectF& plot) const;
  void drawCurve(QPainter& painter, const QRectF& plot) const;

  std::shared_ptr<const train::GradientNormSample> m_sample;
  privacy::PrivatizerOptions m_options;
  QString m_runName;
  train::NormHistogram m_histogram;
};

}  // namespace epsilon::ui
