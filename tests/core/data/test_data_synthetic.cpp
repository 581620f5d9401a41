// The TensorFlow Playground point sets: deterministic per seed, sizes and ratio respected,
// balanced labels, and each set's geometry where noise is zero.
#include <QTest>
#include <cmath>
#include <numbers>

#include "core/common/errors.h"
#include "core/data/synthetic.h"

using namespace epsilon::data;

Q_DECLARE_METATYPE(SyntheticKind)

class TestSyntheticSets : public QObject {
  Q_OBJECT

 private:
  void eachKind_data();

 private Q_SLOTS:
  void deterministicForASeed_data() { eachKind_data(); }
  void deterministicForASeed();
  void sizesAndRatio_data() { eachKind_data(); }
  void sizesAndRatio();
  void labelsBalanced_data() { eachKind_data(); }
  void labelsBalanced();
  void circleWithoutNoiseSeparatesByRadius();
  void xorWithoutNoiseSeparatesByQuadrant();
  void gaussClassMeans();
  void spiralWithoutNoiseLiesOnTheArms();
  void noiseFlipsSomeCircleLabels();
  void invalidOptionsAreConfigErrors();
};

namespace {

Dataset make(SyntheticKind kind, double noise, int size, double trainFraction, std::uint64_t seed) {
  DatasetOptions options;
  options.noise = noise;
  options.size = size;
  options.trainFraction = trainFraction;
  options.seed = seed;
  return makeSyntheticDataset(kind, options);
}

// Every point of both splits with its label.
template <class Visit>
void forEachPoint(const Dataset& d, Visit&& visit) {
  for (const Split* split : {&d.train, &d.test}) {
    for (Eigen::Index i = 0; i < split->size(); ++i) {
      visit(split->features(i, 0), split->features(i, 1),
            split->labels[static_cast<std::size_t>(i)]);
    }
  }
}

}  // namespace

void TestSyntheticSets::eachKind_data() {
  QTest::addColumn<SyntheticKind>("kind");
  for (const SyntheticKind kind : allSyntheticKinds()) {
    QTest::newRow(std::string(syntheticName(kind)).c_str()) << kind;
    QCOMPARE(syntheticKindFromName(syntheticName(kind)), std::optional<SyntheticKind>(kind));
  }
}

void TestSyntheticSets::deterministicForASeed() {
  QFETCH(SyntheticKind, kind);
  const Dataset a = make(kind, 0.2, 300, 0.7, 42);
  const Dataset b = make(kind, 0.2, 300, 0.7, 42);
  const Dataset c = make(kind, 0.2, 300, 0.7, 43);
  QVERIFY(a.train.features == b.train.features);
  QVERIFY(a.test.features == b.test.features);
  QVERIFY(a.train.labels == b.train.labels);
  QVERIFY(a.train.features != c.train.features);
  // Not merely permuted: the first point of seed 43 is nowhere among seed 42's train points.
  const Eigen::RowVector2f first = c.train.features.row(0);
  bool found = false;
  for (Eigen::Index i = 0; i < a.train.size(); ++i)
    found = found || (a.train.features.row(i) == first);
  QVERIFY(!found);
  QVERIFY(a.shape == SampleShape::features(2));
  QCOMPARE(a.classCount(), 2);
}

void TestSyntheticSets::sizesAndRatio() {
  QFETCH(SyntheticKind, kind);
  const Dataset d = make(kind, 0.1, 501, 0.7, 7);
  QCOMPARE(d.train.size(), 351);  // round(0.7 × 501) = 350.7
  QCOMPARE(d.test.size(), 150);
  QCOMPARE(d.train.labels.size(), std::size_t{351});
  QCOMPARE(d.train.features.cols(), 2);
  const Dataset small = make(kind, 0.1, 10, 0.5, 7);
  QCOMPARE(small.train.size(), 5);
  QCOMPARE(small.test.size(), 5);
  forEachPoint(d, [](float x, float y, int label) {
    QVERIFY(std::isfinite(x) && std::isfinite(y));
    QVERIFY(label == 0 || label == 1);
  });
}

void TestSyntheticSets::labelsBalanced() {
  QFETCH(SyntheticKind, kind);
  const Dataset d = make(kind, 0.1, 2000, 0.8, 3);
  long positives = 0;
  forEachPoint(d, [&](float, float, int label) { positives += label; });
  QVERIFY2(positives > 900 && positives < 1100, qPrintable(QString::number(positives)));
  // Both splits hold both classes in similar shares (the points are shuffled before splitting).
  long trainPositives = 0;
  for (const int label : d.train.labels) trainPositives += label;
  const double share = static_cast<double>(trainPositives) / static_cast<double>(d.train.size());
  QVERIFY2(share > 0.44 && share < 0.56, qPrintable(QString::number(share)));
}

void TestSyntheticSets::circleWithoutNoiseSeparatesByRadius() {
  const Dataset d = make(SyntheticKind::Circle, 0.0, 1000, 0.8, 1);
  long positives = 0;
  forEachPoint(d, [&](float x, float y, int label) {
    const double r =
        std::hypot(x, y);  // coordinates are divided by 5: inner disc r < 0.5, ring 0.7..1
    QVERIFY(r <= 1.0 + 1e-6);
    QCOMPARE(label, r < 0.5 ? 1 : 0);
    QVERIFY(r < 0.5 || r >= 0.7 - 1e-6);
    positives += label;
  });
  QCOMPARE(positives, 500L);
}

void TestSyntheticSets::xorWithoutNoiseSeparatesByQuadrant() {
  const Dataset d = make(SyntheticKind::Xor, 0.0, 800, 0.8, 2);
  forEachPoint(d, [](float x, float y, int label) {
    QVERIFY(std::abs(x) >= 0.3f / 5 - 1e-6f &&
            std::abs(x) <= 1.06f + 1e-6f);  // padding 0.3 off the axes
    QCOMPARE(label, x * y >= 0 ? 1 : 0);
  });
}

void TestSyntheticSets::gaussClassMeans() {
  // noise 0 -> variance 0.5: centres (±2, ±2)/5 = ±0.4, sd sqrt(0.5)/5 ≈ 0.141 per axis.
  const Dataset d = make(SyntheticKind::Gauss, 0.0, 4000, 0.5, 5);
  double sum[2][2] = {{0, 0}, {0, 0}};
  double squares[2] = {0, 0};
  long count[2] = {0, 0};
  forEachPoint(d, [&](float x, float y, int label) {
    sum[label][0] += x;
    sum[label][1] += y;
    const double centre = label == 1 ? 0.4 : -0.4;
    squares[label] += (x - centre) * (x - centre);
    ++count[label];
  });
  QCOMPARE(count[0], 2000L);
  QCOMPARE(count[1], 2000L);
  for (int label = 0; label < 2; ++label) {
    const double centre = label == 1 ? 0.4 : -0.4;
    // Standard error of a mean of 2000 draws with sd 0.141 is 0.0032; allow 5 of them.
    QVERIFY(std::abs(sum[label][0] / 2000 - centre) < 0.016);
    QVERIFY(std::abs(sum[label][1] / 2000 - centre) < 0.016);
    const double sd = std::sqrt(squares[label] / 2000);
    QVERIFY2(std::abs(sd - std::sqrt(0.5) / 5) < 0.01, qPrintable(QString::number(sd)));
  }
}

void TestSyntheticSets::spiralWithoutNoiseLiesOnTheArms() {
  const Dataset d = make(SyntheticKind::Spiral, 0.0, 400, 0.8, 9);
  // On arm d, a point at radius r (of 1) has angle 1.75·2π·r + d, measured as atan2(x, y).
  forEachPoint(d, [](float x, float y, int label) {
    const double r = std::hypot(x, y);
    if (r < 0.05) return;  // the angle is ill-conditioned at the centre
    const double expected = 1.75 * 2 * std::numbers::pi * r + (label == 1 ? 0.0 : std::numbers::pi);
    const double actual = std::atan2(x, y);
    const double difference = std::remainder(actual - expected, 2 * std::numbers::pi);
    QVERIFY2(std::abs(difference) < 1e-4,
             qPrintable(QString("r %1 diff %2").arg(r).arg(difference)));
  });
}

void TestSyntheticSets::noiseFlipsSomeCircleLabels() {
  const Dataset clean = make(SyntheticKind::Circle, 0.0, 2000, 0.8, 11);
  const Dataset noisy = make(SyntheticKind::Circle, 0.5, 2000, 0.8, 11);
  // Same points (noise only relabels), some labels differ.
  QVERIFY(clean.train.features == noisy.train.features);
  long flipped = 0;
  for (std::size_t i = 0; i < clean.train.labels.size(); ++i)
    flipped += clean.train.labels[i] != noisy.train.labels[i];
  QVERIFY2(flipped > 50 && flipped < 800, qPrintable(QString::number(flipped)));
}

void TestSyntheticSets::invalidOptionsAreConfigErrors() {
  const auto message = [](double noise, int size, double fraction) -> QString {
    try {
      make(SyntheticKind::Circle, noise, size, fraction, 1);
    } catch (const epsilon::ConfigError& error) {
      return QString::fromStdString(error.what());
    }
    return {};
  };
  QVERIFY(message(-0.1, 100, 0.8).contains("dataset noise: expected a value in [0, 1]"));
  QVERIFY(message(std::nan(""), 100, 0.8).contains("dataset noise"));
  QVERIFY(message(0.1, 2, 0.8).contains("dataset size: expected 4 to 1000000 points, got 2"));
  QVERIFY(message(0.1, 100, 1.0).contains("dataset trainFraction: expected a value in (0, 1)"));
  QVERIFY(message(0.1, 4, 0.95).contains("leaves the train or the test split empty"));
  QVERIFY(message(0.1, 100, 0.5).isEmpty());
}

QTEST_APPLESS_MAIN(TestSyntheticSets)
#include "test_data_synthetic.moc"
