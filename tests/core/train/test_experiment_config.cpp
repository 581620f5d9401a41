// ExperimentConfig::validate names the field of every impossible value; the length and
// lot arithmetic of a run.
#include <QTest>

#include "core/common/errors.h"
#include "core/data/dataset.h"
#include "core/nn/model.h"
#include "core/train/experiment_config.h"
#include "core/train/memory_estimate.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

// The message of the ConfigError `change` provokes, or "" if none.
template <class Change>
QString errorOf(Change change) {
  ExperimentConfig c;
  change(c);
  try {
    c.validate();
  } catch (const ConfigError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

data::Dataset tinyDataset(int train, int test) {
  data::Dataset d;
  d.name = "tiny";
  d.shape = data::SampleShape::features(2);
  d.classNames = {"a", "b"};
  d.train.features = data::FeatureMatrix::Zero(train, 2);
  d.train.labels.assign(static_cast<std::size_t>(train), 0);
  d.test.features = data::FeatureMatrix::Zero(test, 2);
  d.test.labels.assign(static_cast<std::size_t>(test), 1);
  return d;
}

}  // namespace

class TestExperimentConfig : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void defaultsAreValid() { ExperimentConfig{}.validate(); }

  void impossibleValuesNameTheirField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative sigma")
        << "privacy.noise_multiplier" << errorOf([](auto& c) { c.privacy.noise.initial = -1.0; });
    QTest::newRow("zero clip") << "privacy.clip_norm"
                               << errorOf([](auto& c) { c.privacy.privatizer.clipNorm = 0.0; });
    QTest::newRow("delta 1") << "privacy.delta" << errorOf([](auto& c) { c.privacy.delta = 1.0; });
    QTest::newRow("micro-batch 0")
        << "privacy.microbatch_size" << errorOf([](auto& c) { c.privacy.microbatchSize = 0; });
    QTest::newRow("micro-batch > lot")
        << "privacy.microbatch_size" << errorOf([](auto& c) { c.privacy.microbatchSize = 512; });
    QTest::newRow("lot 0") << "training.lot_size"
                           << errorOf([](auto& c) { c.training.lotSize = 0; });
    QTest::newRow("epochs 0") << "training.epochs"
                              << errorOf([](auto& c) { c.training.epochs = 0.0; });
    QTest::newRow("negative steps")
        << "training.steps" << errorOf([](auto& c) { c.training.steps = -5; });
    QTest::newRow("lr 0") << "optimizer.learning_rate"
                          << errorOf([](auto& c) { c.optimizer.learningRate = 0.0; });
    QTest::newRow("momentum 1") << "optimizer.momentum"
                                << errorOf([](auto& c) { c.optimizer.options.momentum = 1.0; });
    QTest::newRow("decay period") << "optimizer.lr_decay_epochs" << errorOf([](auto& c) {
      c.optimizer.lrDecay = optim::LearningRateDecay::Step;
      c.optimizer.lrDecayEpochs = 0.0;
    });
    QTest::newRow("unknown preset")
        << "model.preset" << errorOf([](auto& c) { c.model.preset = "resnet"; });
    QTest::newRow("zero width") << "model.hidden"
                                << errorOf([](auto& c) { c.model.hiddenWidths = {0}; });
    QTest::newRow("step decay rate 1") << "privacy.noise_decay_rate" << errorOf([](auto& c) {
      c.privacy.noise.decay = privacy::NoiseDecay::Step;
      c.privacy.noise.rate = 1.0;
    });
    QTest::newRow("adaptive count noise too small")
        << "privacy.clip_count_stddev" << errorOf([](auto& c) {
             c.privacy.privatizer.kind = privacy::PrivatizerKind::Adaptive;
             c.privacy.privatizer.clipCountStddev = 0.4;
           });
  }
  void impossibleValuesNameTheirField() {
    QFETCH(QString, field);
    QFETCH(QString, message);
    QVERIFY2(message.startsWith(field + ":"), qPrintable(message));
  }

  void noneIgnoresThePrivacyFields() {
    // The non-private baseline never uses σ, C or δ, so their values do not matter.
    QVERIFY(errorOf([](auto& c) {
              c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
              c.privacy.noise.initial = -1.0;
              c.privacy.delta = 2.0;
            }).isEmpty());
  }

  void lotLargerThanTheDataSet() {
    ExperimentConfig c;
    c.training.lotSize = 300;
    try {
      c.validateFor(tinyDataset(200, 50));
      QFAIL("a lot of 300 from 200 examples was accepted");
    } catch (const ConfigError& e) {
      QVERIFY(QString(e.what()).startsWith("training.lot_size:"));
      QVERIFY(QString(e.what()).contains("200"));
    }
    c.training.lotSize = 200;
    c.validateFor(tinyDataset(200, 50));
  }

  // A network too big for memory is refused before it is allocated, naming its field; the
  // estimate counts exactly the parameters the built network has.
  void memoryIsEstimatedBeforeAllocating() {
    ExperimentConfig c;
    c.model.preset = "mlp";
    c.model.hiddenWidths = {7, 5};
    c.training.lotSize = 10;
    const data::Dataset tiny = tinyDataset(200, 50);
    const MemoryEstimate small =
        estimateMemory(c, tiny.shape, tiny.classCount(), 250, presetOptions(c));
    QCOMPARE(
        small.parameters,
        static_cast<long long>(
            nn::buildPreset<float>("mlp", tiny.shape, 2, 1, presetOptions(c)).parameterCount()));
    QCOMPARE(small.dataBytes, 250.0 * 2 * sizeof(float));
    c.validateFor(tiny);
    try {
      checkMemory(c, small, small.total() / 2);
      QFAIL("an estimate over the limit was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString(e.what()).startsWith("model.hidden:"), e.what());
    }
    c.model.hiddenWidths = {65536, 65536, 65536};  // 8.6 billion parameters
    try {
      c.validateFor(tiny);
      QFAIL("a network of 8.6 billion parameters was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString(e.what()).startsWith("model.hidden:"), e.what());
      QVERIFY2(QString(e.what()).contains("8,590,"), e.what());
    }
  }

  void stepsAndUnits() {
    ExperimentConfig c;
    c.training.lotSize = 256;
    c.training.epochs = 15;
    QCOMPARE(c.stepsPerEpoch(60000), 234LL);  // ⌊60000/256⌋
    QCOMPARE(c.totalSteps(60000), 3510LL);
    c.training.epochs = 0.5;
    QCOMPARE(c.totalSteps(60000), 117LL);
    c.training.steps = 10;
    QCOMPARE(c.totalSteps(60000), 10LL);
    QCOMPARE(c.expectedUnitsPerLot(), 256.0);
    c.privacy.microbatchSize = 16;
    QCOMPARE(c.microbatchSlots(), 16);
    QCOMPARE(c.stepsPerEpoch(100), 1LL);  // never 0
  }
};

QTEST_APPLESS_MAIN(TestExperimentConfig)
#include "test_experiment_config.moc"
