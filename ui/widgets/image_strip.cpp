#include "ui/widgets/image_strip.h"

#include <QPainter>
#include <algorithm>

namespace epsilon::ui {

ImageStrip::ImageStrip(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(80);
  setToolTip(
      tr("The first test images with the current model's prediction: green when right, red when "
         "wrong."));
}

void ImageStrip::setDataset(const data::Dataset& dataset) {
  m_images.clear();
  m_labels.clear();
  m_predictions.clear();
  m_classNames = dataset.classNames;
  m_shape = dataset.shape;
  if (!dataset.shape.isImage || dataset.test.size() == 0) {
    m_features.resize(0, 0);
    update();
    return;
  }
  const int n = static_cast<int>(std::min<Eigen::Index>(kCount, dataset.test.size()));
  m_features = dataset.test.features.topRows(n);
  const int c = dataset.shape.channels, h = dataset.shape.height, w = dataset.shape.width;
  for (int i = 0; i < n; ++i) {
    QImage image(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        auto value = [&](int ch) {
          return std::clamp(static_cast<int>(255.0f * m_features(i, (ch * h + y) * w + x)), 0, 255);
        };
        // MNIST-style digits are white on black: show them black on white, as on paper.
        image.setPixel(x, y,
                       c >= 3 ? qRgb(value(0), value(1), value(2))
                              : qRgb(255 - value(0), 255 - value(0), 255 - value(0)));
      }
    }
    m_images.push_back(image);
    m_labels.push_back(dataset.test.labels[static_cast<std::size_t>(i)]);
  }
  update();
}

void ImageStrip::setModel(const nn::Model<float>& model) {
  m_predictions.clear();
  if (m_features.rows() == 0 || model.inputShape().featureCount() != m_features.cols()) {
    update();
    return;
  }
  const nn::Matrix<float> logits = model.logits(m_features);
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    Eigen::Index best = 0;
    logits.row(i).maxCoeff(&best);
    m_predictions.push_back(static_cast<int>(best));
  }
  update();
}

void ImageStrip::clearPredictions() {
  m_predictions.clear();
  update();
}

void ImageStrip::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (m_images.empty()) {
    painter.setPen(Qt::darkGray);
    painter.drawText(rect(), Qt::AlignCenter, tr("Test images appear here for image data sets."));
    return;
  }
  const int n = static_cast<int>(m_images.size());
  const int cell = std::min(width() / n, height() - 18);
  for (int i = 0; i < n; ++i) {
    const QRect box(i * (width() / n) + 2, 0, cell - 4, cell - 4);
    painter.drawImage(box, m_images[static_cast<std::size_t>(i)]);
    painter.setPen(Qt::lightGray);
    painter.drawRect(box);
    QString text = QStringLiteral("·");
    QColor color = Qt::darkGray;
    if (i < static_cast<int>(m_predictions.size())) {
      const int p = m_predictions[static_cast<std::size_t>(i)];
      text = p < static_cast<int>(m_classNames.size())
                 ? QString::fromStdString(m_classNames[static_cast<std::size_t>(p)])
                 : QString::number(p);
      color = p == m_labels[static_cast<std::size_t>(i)] ? QColor(0, 140, 60) : QColor(200, 30, 30);
    }
    painter.setPen(color);
    painter.drawText(QRect(box.left(), box.bottom() + 2, box.width(), 16), Qt::AlignCenter,
                     painter.fontMetrics().elidedText(text, Qt::ElideRight, box.width()));
  }
}

}  // namespace epsilon::ui
