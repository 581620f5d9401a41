// A strip of a few test images with the model's predicted label under each (green when
// right, red when wrong), so students see what the accuracy number means.
#pragma once

#include <QWidget>
#include <vector>

#include "core/data/dataset.h"
#include "core/nn/model.h"

namespace epsilon::ui {

class ImageStrip : public QWidget {
  Q_OBJECT
 public:
  explicit ImageStrip(QWidget* parent = nullptr);

  void setDataset(const data::Dataset& dataset);  // takes the first kCount test images
  void setModel(const nn::Model<float>& model);   // predicts them
  void clearPredictions();
  const std::vector<int>& predictions() const { return m_predictions; }
  int imageCount() const { return static_cast<int>(m_images.size()); }

  QSize sizeHint() const override { return {8 * 64, 90}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  static constexpr int kCount = 8;
  std::vector<QImage> m_images;
  std::vector<int> m_labels;
  std::vector<int> m_predictions;
  std::vector<std::string> m_classNames;
  data::FeatureMatrix m_features;
  data::SampleShape m_shape;
};

}  // namespace epsilon::ui
