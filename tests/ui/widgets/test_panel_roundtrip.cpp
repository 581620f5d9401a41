// Load into panel is lossless (issue 10), offscreen: every built-in preset's runs, a config
// with every field set to a non-default value and every field of the experiment schema (alone
// and all at once) come back from the panel exactly (the failure names the fields that
// differ), and a run re-started from the panel reproduces the original run's history bit for
// bit.
#include <QMap>
#include <QTest>
#include <cstring>

#include "base/io/config_diff.h"
#include "base/io/experiment_json.h"
#include "base/io/preset_file.h"
#include "core/data/registry.h"
#include "core/train/config_compare.h"
#include "core/train/teaching_defaults.h"
#include "core/train/trainer.h"
#include "tests/core/train/schema_test_values.h"
#include "ui/widgets/experiment_panel.h"

using namespace epsilon;
using namespace epsilon::ui;
using train::ExperimentConfig;

namespace {

QString differing(const ExperimentConfig& a, const ExperimentConfig& b) {
  return QStringLiteral("differing: ") + QString::fromStdString(train::describeDifferences(a, b));
}

long long registryTrainSize(const QString& name) {
  for (const auto& info : data::listDatasets())
    if (QString::fromStdString(info.name) == name) return info.trainSize;
  return -1;
}

// Every field away from its default, set one by one.
ExperimentConfig everyFieldSet() {
  ExperimentConfig c;
  auto& d = c.dataset;
  d.name = "xor";
  // noise, size, train fraction, seed, max train, minority class and the share it keeps
  d.options = {0.23, 600, 0.75, 7, 300, 1, 0.5};
  auto& m = c.model;
  m.preset = "logistic";
  m.hiddenWidths = {24, 8};
  m.pcaDims = 2;
  m.pcaNoise = 3.3333;
  m.pcaSampleFraction = 0.37777;
  auto& z = c.privacy.privatizer;
  z.kind = privacy::PrivatizerKind::Adaptive;
  z.clipNorm = 1.0737;
  z.perLayer = true;
  z.tanhScale = 2.34567;
  z.tanhActiveRange = 0.77777;
  z.targetQuantile = 0.6234;
  z.clipLearningRate = 0.031415;
  z.clipPolicy = privacy::ClipUpdatePolicy::Linear;
  z.clipCountStddev = 0.5;
  z.fractionStddev = 0.01;
  auto& p = c.privacy;
  p.noise = {1.35791, privacy::NoiseDecay::Time, 0.00123456};
  p.microbatchSize = 2;
  p.delta = 3e-6;
  p.accountant = privacy::AccountantKind::Pld;
  p.sampling = train::SamplingKind::Shuffle;
  p.secureNoise = true;
  auto& o = c.optimizer;
  o.options = {optim::OptimizerKind::Adam, 0.95555, true, 0.85, 0.995, 0.8, 0.2, 1e-6};
  o.learningRate = 0.0123456;
  o.lrDecay = optim::LearningRateDecay::Step;
  o.lrDecayRate = 0.3;
  o.lrDecayEpochs = 2.5;
  auto& t = c.training;
  t = {48, 3.25, 17, false, 5, 123456789012ULL, true, true, true, 1.5};
  return c;
}

bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The first evaluation point (and its quantity) where two histories differ, or empty.
QString historyDifference(const std::vector<train::ProgressEvent>& a,
                          const std::vector<train::ProgressEvent>& b) {
  if (a.size() != b.size()) return QStringLiteral("%1 vs %2 points").arg(a.size()).arg(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::pair<const char*, double train::ProgressEvent::*> fields[] = {
        {"epoch", &train::ProgressEvent::epoch},
        {"train loss", &train::ProgressEvent::trainLoss},
        {"test accuracy", &train::ProgressEvent::testAccuracy},
        {"test loss", &train::ProgressEvent::testLoss},
        {"sigma", &train::ProgressEvent::sigma},
        {"learning rate", &train::ProgressEvent::learningRate},
        {"clip norm", &train::ProgressEvent::clipNorm},
        {"mean gradient norm", &train::ProgressEvent::meanGradientNorm}};
    if (a[i].step != b[i].step) return QStringLiteral("point %1: step").arg(i);
    for (const auto& [name, field] : fields)
      if (!sameBits(a[i].*field, b[i].*field))
        return QStringLiteral("point %1: %2").arg(i).arg(QLatin1String(name));
    if (!sameBits(a[i].privacy.epsilon, b[i].privacy.epsilon))
      return QStringLiteral("point %1: epsilon").arg(i);
  }
  return {};
}

train::RunResult trainRun(const ExperimentConfig& c) {
  train::RunResult r = train::Trainer(c).run();
  if (r.status != train::RunStatus::Done) qWarning("run failed: %s", r.message.c_str());
  return r;
}

}  // namespace

class TestPanelRoundTrip : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyPresetComesBackUnchanged() {
    ExperimentPanel panel;
    int checked = 0;
    for (const Preset& preset : builtinPresets()) {
      QString dataset = chooseDataset(preset);
      if (registryTrainSize(dataset) < 0) dataset = QStringLiteral("mnist-10k");  // not installed
      const ExperimentConfig base = presetBaseConfig(preset, false, dataset);
      const long long n = registryTrainSize(QString::fromStdString(base.dataset.name));
      QVERIFY2(n > 0, qPrintable(preset.name));
      for (const train::SweepPoint& point :
           presetPoints(preset, base, false, train::RunPlanInput{n, 1})) {
        const QString where = preset.name + QStringLiteral(" / ") +
                              QString::fromStdString(point.label) + QStringLiteral(": ");
        QVERIFY2(panel.setConfig(point.config).isEmpty(), qPrintable(where));
        const ExperimentConfig back = panel.config();
        QVERIFY2(back == point.config, qPrintable(where + differing(back, point.config)));
        ++checked;
      }
    }
    qInfo("%d preset runs loaded and read back", checked);
    QVERIFY(checked >= 50);
  }

  void everyFieldComesBackUnchanged() {
    const ExperimentConfig all = everyFieldSet();
    // The config really sets every field: each compared field differs from the default, and
    // the comparison covers every key the experiment file writes (a field added to the file
    // but not here, or to the comparison but not here, fails this).
    QCOMPARE(static_cast<int>(train::differingFields(all, ExperimentConfig{}).size()),
             train::comparedFieldCount());
    const QMap<QString, QString> keys = flattenConfig(experimentToJson(all));
    QStringList fileKeys = keys.keys();
    fileKeys.removeAll(QStringLiteral("format"));
    fileKeys.removeAll(QStringLiteral("version"));
    QStringList compared;
    for (const auto& f : train::differingFields(all, ExperimentConfig{}))
      compared << QString::fromStdString(f);
    for (const char* runtimeOnly :
         {"training.step_events", "training.gradient_norms", "training.pace_seconds"})
      compared.removeAll(QLatin1String(runtimeOnly));
    fileKeys.sort();
    compared.sort();
    QCOMPARE(compared, fileKeys);

    ExperimentPanel panel;
    QVERIFY(panel.setConfig(all).isEmpty());
    const ExperimentConfig back = panel.config();
    QVERIFY2(back == all, qPrintable(differing(back, all)));
    // And again after loading something else in between (nothing sticks from before).
    QVERIFY(panel.setConfig(ExperimentConfig{}).isEmpty());
    QVERIFY2(panel.config() == ExperimentConfig{}, qPrintable(differing(panel.config(), {})));
    QVERIFY(panel.setConfig(all).isEmpty());
    QVERIFY2(panel.config() == all, qPrintable(differing(panel.config(), all)));
  }

  // The schema's own round trip through the panel: every field of the table (experiment_schema.h),
  // moved by a value the table chooses, alone and all at once, comes back from the controls.
  void everySchemaFieldComesBackThroughThePanel() {
    ExperimentPanel panel;
    int fields = 0;
    for (const train::ExperimentField& f : train::experimentFields()) {
      ExperimentConfig one;
      train::setField(one, f, test::otherValue(f));
      QVERIFY2(panel.setConfig(one).isEmpty(), f.name.c_str());
      const ExperimentConfig back = panel.config();
      QVERIFY2(back == one,
               qPrintable(QString::fromStdString(f.name) + ": " + differing(back, one)));
      ++fields;
    }
    QCOMPARE(fields, train::comparedFieldCount());
    const ExperimentConfig all = test::everyFieldAway();
    QVERIFY(panel.setConfig(all).isEmpty());
    QVERIFY2(panel.config() == all, qPrintable(differing(panel.config(), all)));
  }

  void rerunFromThePanelIsBitForBit() {
    ExperimentConfig x = train::defaultConfigFor("circle");
    x.training.paceSeconds = 0.0;
    x.training.epochs = 1;
    x.training.evalEverySteps = 5;
    x.training.seed = 42;
    x.privacy.noise.initial = 1.0737;  // shown as 1.074
    x.optimizer.learningRate = 0.0876543;
    x.optimizer.options.momentum = 0.93333;
    x.optimizer.lrDecay = optim::LearningRateDecay::Exponential;
    x.optimizer.lrDecayRate = 0.7;
    ExperimentPanel panel;
    QVERIFY(panel.setConfig(x).isEmpty());
    const ExperimentConfig y = panel.config();
    QVERIFY2(y == x, qPrintable(differing(y, x)));

    const train::RunResult first = trainRun(x);
    const train::RunResult again = trainRun(y);
    QCOMPARE(first.status, train::RunStatus::Done);
    QCOMPARE(again.status, train::RunStatus::Done);
    QVERIFY(first.history.size() >= 5);  // the untrained model, every 5 steps, the epoch's end
    const QString difference = historyDifference(first.history, again.history);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // The comparison sees a rounding: σ as the box shows it gives another history.
    ExperimentConfig rounded = x;
    rounded.privacy.noise.initial = 1.074;
    QVERIFY(!historyDifference(first.history, trainRun(rounded).history).isEmpty());
  }
};

QTEST_MAIN(TestPanelRoundTrip)
#include "test_panel_roundtrip.moc"
