// The attack the GUI runs on every finished run: thinning keeps the ROC honest (a subset of its
// points, both ends, the low-FPR end, never a higher TPR at a given FPR), attackFinishedRun gives
// exactly attackModel's numbers on the run's data, and the accountant's bound is there for a DP
// run (above chance, at most 1) and absent for a run without noise.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <random>

#include "core/audit/run_attack.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::audit;

namespace {

RocCurve syntheticRoc(int members, int nonMembers) {
  std::mt19937 rng(5);
  std::normal_distribution<double> in(0.3, 1.0);
  std::normal_distribution<double> out(0.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(members));
  std::vector<double> b(static_cast<std::size_t>(nonMembers));
  for (double& v : a) v = in(rng);
  for (double& v : b) v = out(rng);
  return rocCurve(a, b);
}

train::ExperimentConfig digitsConfig(bool dp) {
  train::ExperimentConfig c;
  c.dataset.name = "uci-digits";
  c.dataset.options.maxTrain = 300;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {32};
  c.privacy.privatizer.kind = dp ? privacy::PrivatizerKind::Clip : privacy::PrivatizerKind::None;
  c.privacy.noise.initial = 1.0;
  c.training.lotSize = 30;
  c.training.epochs = 3;
  c.training.seed = 11;
  return c;
}

}  // namespace

class TestAuditRunAttack : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void thinningKeepsAnHonestSubset() {
    const RocCurve roc = syntheticRoc(20000, 20000);
    QVERIFY(roc.fpr.size() > 5000);
    const RocCurve thin = thinRoc(roc, 150);
    QVERIFY(thin.fpr.size() <= 302);
    QVERIFY(thin.fpr.size() > 100);
    QCOMPARE(thin.fpr.front(), roc.fpr.front());
    QCOMPARE(thin.tpr.back(), roc.tpr.back());
    QCOMPARE(thin.fpr.back(), 1.0);
    // Every kept point is a point of the curve, in order.
    std::size_t j = 0;
    for (std::size_t i = 0; i < thin.fpr.size(); ++i) {
      while (j < roc.fpr.size() && (roc.fpr[j] != thin.fpr[i] || roc.tpr[j] != thin.tpr[i])) ++j;
      QVERIFY2(j < roc.fpr.size(), "a thinned point is not on the curve");
    }
    // The low-FPR end keeps its resolution: the first non-zero FPR (1/20000) is still there.
    const auto firstPositive =
        std::find_if(roc.fpr.begin(), roc.fpr.end(), [](double f) { return f > 0; });
    QVERIFY(std::find(thin.fpr.begin(), thin.fpr.end(), *firstPositive) != thin.fpr.end());
    // Never optimistic; at the reported rates it loses at most one bin's worth.
    for (const double fpr : {1e-4, 1e-3, 1e-2, 0.1}) {
      QVERIFY(tprAtFpr(thin, fpr) <= tprAtFpr(roc, fpr));
      QVERIFY(tprAtFpr(roc, fpr) - tprAtFpr(thin, fpr) < 0.02);
    }
    QVERIFY(std::abs(areaUnderCurve(thin) - areaUnderCurve(roc)) < 1e-3);
    // A short curve is kept whole.
    const RocCurve small = syntheticRoc(50, 50);
    QCOMPARE(thinRoc(small, 150).fpr, small.fpr);
  }

  void finishedRunGivesAttackModelsNumbers() {
    for (const bool dp : {false, true}) {
      const train::ExperimentConfig config = digitsConfig(dp);
      const auto dataset = std::make_shared<const data::Dataset>(
          data::loadDataset(config.dataset.name, config.dataset.options));
      const train::RunResult run = train::Trainer(config, dataset).run();
      QCOMPARE(run.status, train::RunStatus::Done);
      const double epsilon = run.history.back().privacy.epsilon;
      const RunAttack attack =
          attackFinishedRun(run.model, config, run.history.back().step, epsilon, dataset);
      const MembershipAttack expected =
          attackModel(*run.model, dataset->train, dataset->test, config.training.seed);
      QCOMPARE(attack.attack.auc, expected.auc);
      QCOMPARE(attack.attack.tprAtFpr1Percent, expected.tprAtFpr1Percent);
      QCOMPARE(attack.attack.members, expected.members);
      // Loading the data itself gives the same numbers.
      QCOMPARE(attackFinishedRun(run.model, config, run.history.back().step, epsilon).attack.auc,
               expected.auc);
      if (!dp) {
        QVERIFY(attack.bound.fpr.empty());
        continue;
      }
      QCOMPARE(attack.bound.fpr.size(), std::size_t{81});
      QCOMPARE(attack.bound.fpr.front(), 1e-4);
      for (std::size_t i = 0; i < attack.bound.fpr.size(); ++i) {
        QVERIFY(attack.bound.tpr[i] >= attack.bound.fpr[i] - 1e-12);
        QVERIFY(attack.bound.tpr[i] <= 1.0);
      }
      // The run's own accounting: the bound equals runTradeoffBound of the RunResult.
      QCOMPARE(runTradeoffBound(run).tpr, attack.bound.tpr);
    }
  }

  void missingModelIsAnError() {
    QVERIFY_THROWS_EXCEPTION(PrivacyError,
                             attackFinishedRun(nullptr, digitsConfig(false), 10, INFINITY));
  }
};

QTEST_APPLESS_MAIN(TestAuditRunAttack)
#include "test_audit_run_attack.moc"
