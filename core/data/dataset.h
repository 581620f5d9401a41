// A data set as the engine sees it: train and test splits of float feature rows with
// integer labels, the shape of one sample, class names, and where the data came from.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace epsilon::data {

// Rows are examples; one row holds a sample's features in C×H×W order (row-major).
using FeatureMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The shape of one sample: an image (channels × height × width) or a flat feature vector
// (channels = 1, height = 1, width = feature count, isImage = false).
struct SampleShape {
  int channels = 1;
  int height = 1;
  int width = 1;
  bool isImage = false;

  int featureCount() const { return channels * height * width; }
  static SampleShape image(int c, int h, int w) { return {c, h, w, true}; }
  static SampleShape features(int n) { return {1, 1, n, false}; }
  bool operator==(const SampleShape&) const = default;
};

struct Split {
  FeatureMatrix features;   // examples × featureCount
  std::vector<int> labels;  // one per row, each in [0, classCount)

  Eigen::Index size() const { return features.rows(); }
};

struct Dataset {
  std::string name;        // what users type: "mnist-10k", "circle", or a folder path
  std::string provenance;  // one line: source, licence, how it was prepared
  SampleShape shape;
  std::vector<std::string> classNames;
  Split train;
  Split test;

  int classCount() const { return static_cast<int>(classNames.size()); }
};

}  // namespace epsilon::data
