// Run names: unique, built from what differs (a 5-run sweep reads "σ 0.5 · C 1" ...), the
// issue's 30- vs 100-epoch case, counters for identical set-ups and for names already taken.
#include <QTest>
#include <set>

#include "core/train/run_names.h"
#include "core/train/sweep.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

ExperimentConfig base() {
  ExperimentConfig c;
  c.dataset.name = "mnist-10k";
  c.model.preset = "mlp";
  c.privacy.noise.initial = 1.0;
  c.privacy.privatizer.clipNorm = 4.0;
  return c;
}

std::vector<ExperimentConfig> configsOf(const std::vector<SweepPoint>& points) {
  std::vector<ExperimentConfig> configs;
  for (const SweepPoint& p : points) configs.push_back(p.config);
  return configs;
}

}  // namespace

class TestRunNames : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aLoneRunIsNamedByNetworkPrivacyAndOptimizer() {
    QCOMPARE(uniqueRunNames({base()}), std::vector<std::string>{"mlp · σ 1 · C 4 · sgd"});
    ExperimentConfig c = base();
    c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    QCOMPARE(baseRunName(c), std::string("mlp · non-private · sgd"));
  }

  void thirtyAndHundredEpochsGetDifferentNames() {
    // The case: both were "mlp · non-private · sgd".
    ExperimentConfig a = base();
    a.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    a.training.epochs = 30;
    ExperimentConfig b = a;
    b.training.epochs = 100;
    QCOMPARE(uniqueRunNames({a, b}),
             (std::vector<std::string>{"mlp · 30 epochs", "mlp · 100 epochs"}));
  }

  void aFiveRunSweepNamesEachPoint() {
    // σ over 3 values × C over 2, cut to five runs: names are the two swept values, all
    // distinct, none empty.
    auto points =
        expandSweep(base(), {{"noise_multiplier", {"0.5", "1", "2"}}, {"clip_norm", {"1", "4"}}});
    points.pop_back();
    const auto names = uniqueRunNames(configsOf(points));
    const std::vector<std::string> expected{"mlp · σ 0.5 · C 1", "mlp · σ 0.5 · C 4",
                                            "mlp · σ 1 · C 1", "mlp · σ 1 · C 4",
                                            "mlp · σ 2 · C 1"};
    QCOMPARE(names, expected);
    QCOMPARE(std::set<std::string>(names.begin(), names.end()).size(), std::size_t(5));
  }

  void identicalSetUpsGetACounter() {
    ExperimentConfig other = base();
    other.privacy.noise.initial = 2.0;
    const auto names = uniqueRunNames({base(), base(), other, base()});
    QCOMPARE(names,
             (std::vector<std::string>{"mlp · σ 1", "mlp · σ 1 #2", "mlp · σ 2", "mlp · σ 1 #3"}));
    // Same set-up as a run already in the window: the first free counter.
    QCOMPARE(uniqueRunNames({base()}, {"mlp · σ 1 · C 4 · sgd", "mlp · σ 1 · C 4 · sgd #2"}),
             std::vector<std::string>{"mlp · σ 1 · C 4 · sgd #3"});
  }

  void parametersThatDoNotApplyAreLeftOut() {
    // Non-private vs clipped: the private run shows its σ and C, the other one none.
    ExperimentConfig open = base();
    open.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    QCOMPARE(uniqueRunNames({open, base()}),
             (std::vector<std::string>{"mlp · non-private", "mlp · σ 1 · C 4"}));
    // …and with two noise levels, σ is shown once, in the privacy part.
    ExperimentConfig noisier = base();
    noisier.privacy.noise.initial = 2.0;
    QCOMPARE(uniqueRunNames({open, base(), noisier}),
             (std::vector<std::string>{"mlp · non-private", "mlp · σ 1 · C 4", "mlp · σ 2 · C 4"}));
    // Parameters differing between private runs only (the data size here) still show.
    ExperimentConfig fewer = base();
    fewer.dataset.options.maxTrain = 1000;
    QCOMPARE(uniqueRunNames({base(), fewer}),
             (std::vector<std::string>{"mlp · N all", "mlp · N 1000"}));
  }

  void numbersAreShort() {
    ExperimentConfig a = base();
    ExperimentConfig b = base();
    b.privacy.delta = 1e-6;
    b.optimizer.learningRate = 0.0125;
    QCOMPARE(uniqueRunNames({a, b}),
             (std::vector<std::string>{"mlp · δ 1e-5 · η 0.15", "mlp · δ 1e-6 · η 0.0125"}));
  }
};

QTEST_APPLESS_MAIN(TestRunNames)
#include "test_run_names.moc"
