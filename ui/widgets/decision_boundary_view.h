// The decision boundary of a 2-D classifier as a heat map with the data points on top (the
// view TensorFlow Playground made famous): the colour at each pixel is the model's
// probability of the second class. Redrawn whenever the trained parameters change.
#pragma once

#include <QImage>
#include <QWidget>

#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::ui {

class DecisionBoundaryView : public QWidget {
  Q_OBJECT
 public:
  explicit DecisionBoundaryView(QWidget* parent = nullptr);

  // The points to draw and the plane's extent (the data's range plus a margin).
  void setDataset(const data::Dataset& dataset);
  // Recomputes the heat map for `model` (a 2-input classifier).
  void setModel(const nn::Model<float>& model);
  void clearModel();
  bool hasHeatMap() const { return !m_heat.isNull(); }
  // Probability of class 1 at a point of the plane, from the last heat map (tests).
  double probabilityAt(double x, double y) const;

  QSize sizeHint() const override { return {260, 260}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QPointF toWidget(double x, double y) const;

  static constexpr int kGrid = 96;
  data::Split m_train;
  data::Split m_test;
  double m_xMin = -1, m_xMax = 1, m_yMin = -1, m_yMax = 1;
  QImage m_heat;
  std::vector<float> m_probabilities;  // kGrid × kGrid, row 0 at the top (largest y)
};

}  // namespace epsilon::ui
