// The data sets embedded with .incbin: the embedded bytes equal resources/data/, and each
// set has its exact sizes, class counts, value ranges and fixed split.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numeric>

#include "core/data/embedded_files.h"
#include "core/data/embedded_sets.h"
#include "data_test_util.h"

using namespace epsilon::data;
using namespace epsilon::data::testing;

class TestEmbeddedSets : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void embeddedBytesEqualResourceFiles();
  void unknownEmbeddedFileIsDataError();
  void mnist10kCountsAndClasses();
  void uciDigitsSplitAndScale();
  void breastCancerStandardisedOnTrain();
  void maxTrainKeepsFirstExamples();
  void splitsAreFixed();
};

namespace {

std::vector<int> classCounts(const std::vector<int>& labels, int classes) {
  std::vector<int> counts(static_cast<std::size_t>(classes), 0);
  for (const int label : labels) ++counts[static_cast<std::size_t>(label)];
  return counts;
}

float minOf(const FeatureMatrix& m) {
  return *std::min_element(m.data(), m.data() + m.size());
}
float maxOf(const FeatureMatrix& m) {
  return *std::max_element(m.data(), m.data() + m.size());
}

// Mean and population standard deviation of column j, in double, with plain loops.
std::pair<double, double> columnMeanSd(const FeatureMatrix& m, Eigen::Index j) {
  double sum = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i) sum += m(i, j);
  const double mean = sum / static_cast<double>(m.rows());
  double squares = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i) squares += (m(i, j) - mean) * (m(i, j) - mean);
  return {mean, std::sqrt(squares / static_cast<double>(m.rows()))};
}

}  // namespace

void TestEmbeddedSets::embeddedBytesEqualResourceFiles() {
  const auto names = embeddedFileNames();
  QCOMPARE(names.size(), std::size_t{6});
  for (const std::string_view name : names) {
    const std::string path =
        std::string(EPSILON_SOURCE_DIR) + "/resources/data/" + std::string(name);
    std::ifstream file(path, std::ios::binary);
    QVERIFY2(file.good(), path.c_str());
    const std::vector<char> disk((std::istreambuf_iterator<char>(file)),
                                 std::istreambuf_iterator<char>());
    const auto embedded = embeddedFile(name);
    QCOMPARE(embedded.size(), disk.size());
    QVERIFY(std::equal(disk.begin(), disk.end(), embedded.begin(),
                       [](char a, std::byte b) { return static_cast<std::byte>(a) == b; }));
  }
}

void TestEmbeddedSets::unknownEmbeddedFileIsDataError() {
  const QString message = dataErrorOf([] { embeddedFile("mnist-10k/nope.gz"); });
  QVERIFY2(message.contains("'mnist-10k/nope.gz' does not exist") &&
               message.contains("uci/digits.csv.gz"),
           qPrintable(message));
}

void TestEmbeddedSets::mnist10kCountsAndClasses() {
  const Dataset mnist = loadMnist10k();
  QCOMPARE(mnist.name, std::string("mnist-10k"));
  QCOMPARE(mnist.train.size(), 8000);
  QCOMPARE(mnist.test.size(), 2000);
  QCOMPARE(mnist.train.features.cols(), 784);
  QVERIFY(mnist.shape == SampleShape::image(1, 28, 28));
  QCOMPARE(mnist.classCount(), 10);
  QVERIFY((classCounts(mnist.train.labels, 10) ==
           std::vector<int>{812, 903, 800, 809, 788, 683, 812, 860, 744, 789}));
  QVERIFY((classCounts(mnist.test.labels, 10) ==
           std::vector<int>{189, 224, 191, 223, 192, 180, 202, 210, 200, 189}));
  QCOMPARE(minOf(mnist.train.features), 0.0f);
  QCOMPARE(maxOf(mnist.train.features), 1.0f);
  // MNIST digits are mostly background: the mean grey level is about 0.13.
  const double mean =
      std::accumulate(mnist.train.features.data(),
                      mnist.train.features.data() + mnist.train.features.size(), 0.0) /
      static_cast<double>(mnist.train.features.size());
  QVERIFY2(mean > 0.10 && mean < 0.16, qPrintable(QString::number(mean)));
  QVERIFY(mnist.provenance.find("LeCun") != std::string::npos);
  QVERIFY(mnist.provenance.find("CC BY-SA 3.0") != std::string::npos);
}

void TestEmbeddedSets::uciDigitsSplitAndScale() {
  const Dataset digits = loadUciDigits();
  QCOMPARE(digits.train.size() + digits.test.size(), 1797);
  QCOMPARE(digits.train.size(), 1438);
  QCOMPARE(digits.test.size(), 359);
  QVERIFY(digits.shape == SampleShape::image(1, 8, 8));
  QCOMPARE(digits.train.features.cols(), 64);
  QCOMPARE(minOf(digits.train.features), 0.0f);
  QCOMPARE(maxOf(digits.train.features), 1.0f);
  // Stratified: each class puts round(20 %) of its examples in test.
  const auto train = classCounts(digits.train.labels, 10);
  const auto test = classCounts(digits.test.labels, 10);
  const std::vector<int> total = {178, 182, 177, 183, 181, 182, 181, 179, 174, 180};
  for (std::size_t c = 0; c < 10; ++c) {
    QCOMPARE(train[c] + test[c], total[c]);
    QCOMPARE(test[c], static_cast<int>(std::lround(0.2 * total[c])));
  }
  // Every value is a multiple of 1/16.
  for (Eigen::Index i = 0; i < digits.test.features.size(); ++i) {
    const float scaled = digits.test.features.data()[i] * 16.0f;
    QCOMPARE(scaled, std::round(scaled));
  }
}

void TestEmbeddedSets::breastCancerStandardisedOnTrain() {
  const Dataset cancer = loadBreastCancer();
  QCOMPARE(cancer.train.size() + cancer.test.size(), 569);
  QCOMPARE(cancer.train.size(), 456);
  QCOMPARE(cancer.test.size(), 113);
  QVERIFY(cancer.shape == SampleShape::features(30));
  QVERIFY((cancer.classNames == std::vector<std::string>{"malignant", "benign"}));
  const auto train = classCounts(cancer.train.labels, 2);
  const auto test = classCounts(cancer.test.labels, 2);
  QCOMPARE(train[0] + test[0], 212);
  QCOMPARE(train[1] + test[1], 357);
  double largestTestMeanShift = 0;
  for (Eigen::Index j = 0; j < 30; ++j) {
    const auto [mean, sd] = columnMeanSd(cancer.train.features, j);
    QVERIFY2(std::abs(mean) < 1e-5, qPrintable(QString("feature %1 mean %2").arg(j).arg(mean)));
    QVERIFY2(std::abs(sd - 1.0) < 1e-5, qPrintable(QString("feature %1 sd %2").arg(j).arg(sd)));
    largestTestMeanShift =
        std::max(largestTestMeanShift, std::abs(columnMeanSd(cancer.test.features, j).first));
  }
  // The test rows were not used for fitting: their means are near 0 but not exactly 0.
  QVERIFY2(largestTestMeanShift > 1e-3 && largestTestMeanShift < 0.5,
           qPrintable(QString::number(largestTestMeanShift)));
}

void TestEmbeddedSets::maxTrainKeepsFirstExamples() {
  const Dataset all = loadMnist10k();
  const Dataset some = loadMnist10k(100);
  QCOMPARE(some.train.size(), 100);
  QCOMPARE(some.test.size(), 2000);
  QVERIFY(some.train.features == all.train.features.topRows(100));
  QVERIFY(std::equal(some.train.labels.begin(), some.train.labels.end(), all.train.labels.begin()));
  QCOMPARE(loadUciDigits(50).train.size(), 50);
  QCOMPARE(loadBreastCancer(40).train.size(), 40);
}

void TestEmbeddedSets::splitsAreFixed() {
  const Dataset a = loadUciDigits();
  const Dataset b = loadUciDigits();
  QVERIFY(a.train.features == b.train.features);
  QVERIFY(a.test.labels == b.test.labels);
  const Dataset c = loadBreastCancer();
  const Dataset d = loadBreastCancer();
  QVERIFY(c.test.features == d.test.features);
}

QTEST_APPLESS_MAIN(TestEmbeddedSets)
#include "test_data_embedded.moc"
