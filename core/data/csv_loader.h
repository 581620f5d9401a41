// The numeric CSV files of the embedded UCI sets: digits (64 pixel values 0..16 then the
// label, no header) and the headered form of breast_cancer.csv ("rows,features,class0,
// class1,..." then features and label per row). Plain text or gzip'd.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace epsilon::data {

// No CSV we read is anywhere near this once decompressed.
inline constexpr std::size_t kMaxCsvBytes = std::size_t{64} << 20;

// Rows of features with their labels and the class names, before any split.
struct LabelledTable {
  FeatureMatrix features;
  std::vector<int> labels;
  std::vector<std::string> classNames;
};

// UCI optical digits: 65 fields per row, pixels integers 0..16 (kept as read, unscaled),
// label 0..9; class names "0".."9".
LabelledTable parseDigitsCsv(std::span<const std::byte> bytes, const std::string& source);

// Header "rows,features,name0,name1,...": rows must match the data rows, each row must
// have features + 1 numeric fields, the last an integer label in [0, class count).
LabelledTable parseHeaderedCsv(std::span<const std::byte> bytes, const std::string& source);

}  // namespace epsilon::data
