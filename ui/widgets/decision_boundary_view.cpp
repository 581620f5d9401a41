#include "ui/widgets/decision_boundary_view.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace epsilon::ui {

namespace {
const QColor kClass0(230, 120, 30);
const QColor kClass1(20, 110, 200);

QColor blend(double p) {
  const double t = std::clamp(p, 0.0, 1.0);
  // Pale near the boundary (p ≈ 0.5), saturated where the model is sure.
  const double strength = std::abs(2 * t - 1) * 0.75;
  const QColor& c = t >= 0.5 ? kClass1 : kClass0;
  return QColor::fromRgbF(1.0 - strength * (1.0 - c.redF()), 1.0 - strength * (1.0 - c.greenF()),
                          1.0 - strength * (1.0 - c.blueF()));
}
}  // namespace

DecisionBoundaryView::DecisionBoundaryView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(120, 90);  // short enough that a 720-pixel presentation keeps a run row
  setToolTip(
      tr("Decision boundary of the current model: orange and blue regions are where it predicts "
         "each class, pale near the boundary. Dots: training points; rings: test points."));
}

void DecisionBoundaryView::setDataset(const data::Dataset& dataset) {
  // Only 2-D sets are drawn; check before copying (an image set can be hundreds of MB).
  if (dataset.shape.featureCount() != 2 || dataset.train.size() == 0) {
    m_train = {};
    m_test = {};
    clearModel();
    return;
  }
  m_train = dataset.train;
  m_test = dataset.test;
  const auto x = m_train.features.col(0), y = m_train.features.col(1);
  const double mx = 0.1 * (x.maxCoeff() - x.minCoeff()) + 1e-6,
               my = 0.1 * (y.maxCoeff() - y.minCoeff()) + 1e-6;
  m_xMin = x.minCoeff() - mx;
  m_xMax = x.maxCoeff() + mx;
  m_yMin = y.minCoeff() - my;
  m_yMax = y.maxCoeff() + my;
  clearModel();
}

void DecisionBoundaryView::clearModel() {
  m_heat = QImage();
  m_probabilities.clear();
  update();
}

void DecisionBoundaryView::setModel(const nn::Model<float>& model) {
  if (model.inputShape().featureCount() != 2 || model.outputCount() != 2) {
    clearModel();
    return;
  }
  nn::Matrix<float> grid(kGrid * kGrid, 2);
  for (int r = 0; r < kGrid; ++r) {
    for (int c = 0; c < kGrid; ++c) {
      grid(r * kGrid + c, 0) = static_cast<float>(m_xMin + (c + 0.5) * (m_xMax - m_xMin) / kGrid);
      grid(r * kGrid + c, 1) = static_cast<float>(m_yMax - (r + 0.5) * (m_yMax - m_yMin) / kGrid);
    }
  }
  const nn::Matrix<float> logits = model.logits(grid);
  m_probabilities.assign(kGrid * kGrid, 0.5f);
  m_heat = QImage(kGrid, kGrid, QImage::Format_RGB32);
  for (int i = 0; i < kGrid * kGrid; ++i) {
    // Softmax of two logits is the logistic function of their difference.
    const double p = 1.0 / (1.0 + std::exp(static_cast<double>(logits(i, 0) - logits(i, 1))));
    m_probabilities[static_cast<std::size_t>(i)] = static_cast<float>(p);
    m_heat.setPixelColor(i % kGrid, i / kGrid, blend(p));
  }
  update();
}

double DecisionBoundaryView::probabilityAt(double x, double y) const {
  if (m_probabilities.empty()) return std::nan("");
  const int c =
      std::clamp(static_cast<int>((x - m_xMin) / (m_xMax - m_xMin) * kGrid), 0, kGrid - 1);
  const int r =
      std::clamp(static_cast<int>((m_yMax - y) / (m_yMax - m_yMin) * kGrid), 0, kGrid - 1);
  return m_probabilities[static_cast<std::size_t>(r * kGrid + c)];
}

QPointF DecisionBoundaryView::toWidget(double x, double y) const {
  return {(x - m_xMin) / (m_xMax - m_xMin) * width(), (m_yMax - y) / (m_yMax - m_yMin) * height()};
}

void DecisionBoundaryView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  if (m_heat.isNull()) {
    painter.fillRect(rect(), QColor(245, 245, 245));
  } else {
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(rect(), m_heat);
  }
  if (m_train.size() == 0) {
    painter.setPen(Qt::darkGray);
    painter.drawText(
        rect(), Qt::AlignCenter | Qt::TextWordWrap,
        tr("The decision boundary is drawn for the 2-D data sets (circle, xor, gauss, spiral)."));
    return;
  }
  const qreal radius = std::max(2.0, std::min(width(), height()) / 110.0);
  auto drawSplit = [&](const data::Split& split, bool filled) {
    const Eigen::Index n = std::min<Eigen::Index>(split.size(), 600);
    for (Eigen::Index i = 0; i < n; ++i) {
      const QColor color = split.labels[static_cast<std::size_t>(i)] == 1 ? kClass1 : kClass0;
      painter.setPen(QPen(filled ? Qt::white : color.darker(130), filled ? 0.8 : 1.5));
      painter.setBrush(filled ? QBrush(color) : Qt::NoBrush);
      painter.drawEllipse(toWidget(split.features(i, 0), split.features(i, 1)), radius, radius);
    }
  };
  drawSplit(m_train, true);
  drawSplit(m_test, false);
}

}  // namespace epsilon::ui
