// An unbalanced training set (dataset.minority_class / minority_keep, issue 28 item 4): of the
// minority class only the stated share of its training examples is kept, the first ones, every
// other class and the test set untouched; the planned N is the thinned set's; a class the set
// does not have, or a share outside [0, 1], is an error naming the field.
#include <QTest>
#include <algorithm>
#include <cmath>

#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/train/run_planning.h"

using namespace epsilon;

namespace {

long countOf(const data::Split& split, int label) {
  return static_cast<long>(std::count(split.labels.begin(), split.labels.end(), label));
}

}  // namespace

class TestDataMinority : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void keepsTheStatedShareOfTheMinorityClass() {
    const data::Dataset whole = data::loadDataset("mnist-10k");
    data::DatasetOptions options;
    options.minorityClass = 8;
    options.minorityKeep = 0.1;
    const data::Dataset thinned = data::loadDataset("mnist-10k", options);
    const long eights = countOf(whole.train, 8);
    QVERIFY(eights > 500);
    QCOMPARE(countOf(thinned.train, 8), std::lround(0.1 * static_cast<double>(eights)));
    for (int label = 0; label < 10; ++label) {
      if (label != 8) QCOMPARE(countOf(thinned.train, label), countOf(whole.train, label));
      QCOMPARE(countOf(thinned.test, label), countOf(whole.test, label));
    }
    QCOMPARE(thinned.train.size(), whole.train.size() - eights + countOf(thinned.train, 8));
    // The kept eights are the first ones, in the set's order, with their own pixels.
    Eigen::Index firstEight = 0;
    while (whole.train.labels[static_cast<std::size_t>(firstEight)] != 8) ++firstEight;
    Eigen::Index firstKept = 0;
    while (thinned.train.labels[static_cast<std::size_t>(firstKept)] != 8) ++firstKept;
    QVERIFY(thinned.train.features.row(firstKept) == whole.train.features.row(firstEight));
  }

  void theRunIsPlannedOnTheThinnedSet() {
    train::ExperimentConfig c;
    c.dataset.name = "mnist-10k";
    c.dataset.options.minorityClass = 3;
    c.dataset.options.minorityKeep = 0.25;
    const data::Dataset thinned = data::loadDataset("mnist-10k", c.dataset.options);
    QCOMPARE(train::planInput(c).trainSize, static_cast<long long>(thinned.train.size()));
    QVERIFY(train::planInput(c).trainSize < 8000);
  }

  void keepingNoneOrAllWorksOnASyntheticSet() {
    data::DatasetOptions options;
    options.minorityClass = 1;
    options.minorityKeep = 0.0;
    QCOMPARE(countOf(data::loadDataset("xor", options).train, 1), 0L);
    options.minorityKeep = 1.0;
    const data::Dataset all = data::loadDataset("xor", options);
    QCOMPARE(all.train.size(), data::loadDataset("xor").train.size());
  }

  void badOptionsNameTheField() {
    data::DatasetOptions options;
    options.minorityClass = 10;
    try {
      data::loadDataset("mnist-10k", options);
      QFAIL("class 10 of mnist-10k was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("dataset.minority_class"), e.what());
    }
    options.minorityClass = 1;
    options.minorityKeep = std::nan("");
    try {
      data::loadDataset("xor", options);
      QFAIL("a NaN share was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("dataset.minority_keep"), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestDataMinority)
#include "test_data_minority.moc"
