// The 2-D sets' teaching defaults show the trade-off (issue 11): without privacy every set
// reaches 95% test accuracy, and at σ = 4 spiral and xor lose at least 10 points, as the mean
// of seeds 1-3 (one seed's accuracy moves by a few points with the compiler's floating-point
// code: spiral's seed 1 gives 96.5% built by GCC, 94.5% by clang). Runs unpaced (the
// defaults' pace only spreads the same computation over seconds).
#include <QTest>

#include "core/train/config_check.h"
#include "core/train/teaching_defaults.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

double finalAccuracy(ExperimentConfig c) {
  c.training.paceSeconds = 0.0;
  double sum = 0.0;
  for (const std::uint64_t seed : {1, 2, 3}) {
    c.training.seed = seed;
    const RunResult r = Trainer(c).run();
    if (r.status != RunStatus::Done || r.history.empty())
      qWarning("run ended: %s", r.message.c_str());
    sum += r.history.empty() ? 0.0 : r.history.back().testAccuracy;
  }
  return sum / 3.0;
}

}  // namespace

class TestTeachingDefaults : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void defaultsTeachTheTradeOff_data() {
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<bool>("mustLose");
    QTest::newRow("circle") << "circle" << false;
    QTest::newRow("xor") << "xor" << true;
    QTest::newRow("gauss") << "gauss" << false;
    QTest::newRow("spiral") << "spiral" << true;
  }
  void defaultsTeachTheTradeOff() {
    QFETCH(QString, dataset);
    QFETCH(bool, mustLose);
    const ExperimentConfig defaults = defaultConfigFor(dataset.toStdString());
    QCOMPARE(defaults.dataset.name, dataset.toStdString());
    QCOMPARE(defaults.privacy.privatizer.kind, privacy::PrivatizerKind::Clip);
    QCOMPARE(defaults.training.paceSeconds, kTeachingPaceSeconds);
    const auto issues = checkConfig(defaults, 800);
    QVERIFY2(issues.empty(), issues.empty() ? "" : issues.front().message.c_str());

    ExperimentConfig open = defaults;
    open.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    ExperimentConfig noisy = defaults;
    noisy.privacy.noise.initial = 4.0;
    const double openAccuracy = finalAccuracy(open);
    const double noisyAccuracy = finalAccuracy(noisy);
    qInfo("%s: non-private %.3f, sigma 4 %.3f", qPrintable(dataset), openAccuracy, noisyAccuracy);
    QVERIFY2(openAccuracy >= 0.95, qPrintable(QString::number(openAccuracy)));
    if (mustLose)
      QVERIFY2(openAccuracy - noisyAccuracy >= 0.10, qPrintable(QString::number(noisyAccuracy)));
  }

  // Every data set's opening settings come from core, for the GUI and the CLI alike.
  void datasetDefaultsFollowTheDataSet() {
    QCOMPARE(defaultDelta(8000), 1e-4);   // below 1/8000 = 1.25e-4
    QCOMPARE(defaultDelta(10000), 1e-5);  // strictly below 1/N
    QCOMPARE(defaultDelta(1), 0.1);
    data::DatasetInfo images;
    images.name = "mnist-10k";
    images.trainSize = 8000;
    images.shape = data::SampleShape::image(1, 28, 28);
    const ExperimentConfig c = datasetDefaults(images);
    QCOMPARE(c.model.preset, std::string("tfp-cnn"));
    QCOMPARE(c.training.lotSize, 256);
    QCOMPARE(c.privacy.delta, 1e-4);
    data::DatasetInfo circle;
    circle.name = "circle";
    circle.synthetic = true;
    QCOMPARE(datasetDefaults(circle).training.paceSeconds,
             defaultConfigFor("circle").training.paceSeconds);
    QCOMPARE(datasetDefaults(circle).model.hiddenWidths,
             defaultConfigFor("circle").model.hiddenWidths);
  }

  void otherDataSetsKeepTheGeneralDefaults() {
    const ExperimentConfig c = defaultConfigFor("mnist-10k");
    const ExperimentConfig general;
    QCOMPARE(c.dataset.name, std::string("mnist-10k"));
    QCOMPARE(c.model.preset, general.model.preset);
    QCOMPARE(c.training.lotSize, general.training.lotSize);
    QCOMPARE(c.training.paceSeconds, 0.0);
  }
};

QTEST_APPLESS_MAIN(TestTeachingDefaults)
#include "test_teaching_defaults.moc"
