// The audit end to end on small data (seconds): canaries really go through the Trainer, a
// non-private memorising run is caught (AUC > 0.6, ε̂ > 1), DP runs at σ ≥ 1 never give a
// lower bound above the accountant's ε, and the run's privacy profile agrees with its ε.
#include <QTest>
#include <cmath>

#include "core/audit/one_run_audit.h"
#include "core/audit/run_profile.h"
#include "core/common/errors.h"
#include "core/data/registry.h"

using namespace epsilon;
using namespace epsilon::audit;

namespace {

// uci-digits (8×8 digits, 10 classes) cut to 600 training rows, an MLP 64-128-10.
const data::Dataset& digits() {
  static const data::Dataset dataset = [] {
    data::DatasetOptions options;
    options.maxTrain = 600;
    return data::loadDataset("uci-digits", options);
  }();
  return dataset;
}

train::ExperimentConfig memorisingConfig(std::uint64_t seed) {
  train::ExperimentConfig c;
  c.dataset.name = "uci-digits";
  c.model.preset = "mlp";
  c.model.hiddenWidths = {128};
  c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
  c.optimizer.options.kind = optim::OptimizerKind::Momentum;
  c.optimizer.learningRate = 0.05;
  c.training.lotSize = 32;
  c.training.epochs = 40;
  c.training.evalEveryEpoch = false;
  c.training.seed = seed;
  return c;
}

train::ExperimentConfig privateConfig(std::uint64_t seed, double sigma) {
  train::ExperimentConfig c = memorisingConfig(seed);
  c.privacy.privatizer.kind = privacy::PrivatizerKind::Clip;
  c.privacy.privatizer.clipNorm = 1.0;
  c.privacy.noise.initial = sigma;
  c.optimizer.learningRate = 0.2;
  c.training.lotSize = 64;
  c.training.epochs = 20;
  return c;
}

AuditOptions options(long long canaries, CanaryKind kind = CanaryKind::Mislabel) {
  AuditOptions o;
  o.canaries = canaries;
  o.kind = kind;
  return o;
}

}  // namespace

class TestAuditRun : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void canariesAreTrainingExamples() {
    const CanaryData a = makeCanaryData(digits(), 200, CanaryKind::Mislabel, 7);
    const CanaryData b = makeCanaryData(digits(), 200, CanaryKind::Mislabel, 7);
    long long in = 0;
    for (const char c : a.included) in += c;
    QVERIFY2(in > 70 && in < 130, qPrintable(QString::number(in)));  // Binomial(200, ½)
    QCOMPARE(a.included, b.included);
    QCOMPARE(a.baseTrainSize, 400LL);
    QCOMPARE(a.training->train.size(), 400 + in);
    QCOMPARE(a.training->test.size(), digits().test.size());
    for (long long i = 0; i < 200; ++i) {
      // A mislabel canary is a real training image under a label it does not have.
      QVERIFY(a.canaries.features.row(i) == digits().train.features.row(400 + i));
      QVERIFY(a.canaries.labels[static_cast<std::size_t>(i)] !=
              digits().train.labels[static_cast<std::size_t>(400 + i)]);
    }
    const CanaryData ood = makeCanaryData(digits(), 50, CanaryKind::OutOfDistribution, 7);
    QCOMPARE(ood.baseTrainSize, digits().train.size());
    QVERIFY(ood.canaries.features.minCoeff() >= digits().train.features.minCoeff());
    QVERIFY(ood.canaries.features.maxCoeff() <= digits().train.features.maxCoeff());
    QVERIFY_THROWS_EXCEPTION(ConfigError, makeCanaryData(digits(), 600, CanaryKind::Mislabel, 7));
    QVERIFY_THROWS_EXCEPTION(ConfigError, parseCanaryKind("noise"));
  }

  void memorisingRunIsCaught() {
    const AuditResult r = runAudit(memorisingConfig(1), digits(), options(200));
    qInfo(
        "non-private: AUC %.3f, TPR@1%% %.3f, canary AUC %.3f, eps_hat %.3f (%lld of %lld correct, "
        "k=%lld), "
        "test accuracy %.3f, attack %.3f s",
        r.attack.auc, r.attack.tprAtFpr1Percent, r.canaryAuc, r.bound.epsilonLowerBound,
        r.bound.correct, r.bound.guesses, r.bound.k, r.testAccuracy, r.attackSeconds);
    // The trainer saw the base rows plus exactly the included canaries.
    QCOMPARE(r.run.trainSize, 400 + r.canariesIncluded);
    QVERIFY(std::isinf(r.upper.epsilon));
    QVERIFY2(r.attack.auc > 0.6, qPrintable(QString::number(r.attack.auc)));
    QVERIFY2(r.bound.epsilonLowerBound > 1.0,
             qPrintable(QString::number(r.bound.epsilonLowerBound)));
    QCOMPARE(r.attack.members, r.attack.nonMembers);
    QVERIFY(r.testAccuracy > 0.7);
  }

  void privateRunsStayUnderTheAccountant() {
    for (const double sigma : {1.0, 2.0}) {
      for (const std::uint64_t seed : {11ULL, 12ULL, 13ULL}) {
        const AuditResult r = runAudit(privateConfig(seed, sigma), digits(), options(200));
        const double margin = r.upper.epsilon - r.bound.epsilonLowerBound;
        qInfo(
            "sigma %.1f seed %llu: eps_hat %.3f <= eps %.3f (delta %g, %s, %s): margin %.3f; AUC "
            "%.3f, "
            "canary AUC %.3f, test accuracy %.3f",
            sigma, static_cast<unsigned long long>(seed), r.bound.epsilonLowerBound,
            r.upper.epsilon, r.upper.delta, privacy::accountantKindName(r.upper.accountant),
            privacy::samplingWords(r.upper.sampling), margin, r.attack.auc, r.canaryAuc,
            r.testAccuracy);
        QVERIFY(r.upper.isGuarantee() && std::isfinite(r.upper.epsilon));
        QVERIFY2(margin >= 0.0, qPrintable(QString("eps_hat %1 > eps %2")
                                               .arg(r.bound.epsilonLowerBound)
                                               .arg(r.upper.epsilon)));
      }
    }
  }

  void profileAgreesWithTheRunsEpsilon() {
    const AuditResult r =
        runAudit(privateConfig(5, 1.0), digits(), options(100, CanaryKind::OutOfDistribution));
    QCOMPARE(r.run.trainSize, digits().train.size() + r.canariesIncluded);
    const std::vector<double> epsilons{0.0, r.upper.epsilon, 2.0 * r.upper.epsilon};
    const privacy::PrivacyProfile profile = runPrivacyProfile(r.run, epsilons);
    QCOMPARE(profile.size(), std::size_t(3));
    // The tracker's ε at δ is where the profile's δ(ε) comes back to δ.
    QVERIFY2(std::abs(profile[1].second - r.upper.delta) <= 0.02 * r.upper.delta,
             qPrintable(QString("delta(eps) %1 vs %2").arg(profile[1].second).arg(r.upper.delta)));
    QVERIFY(profile[0].second > profile[1].second && profile[1].second > profile[2].second);
    const std::vector<double> fprs{0.001, 0.01, 0.1};
    const std::vector<double> bound = privacy::tprBoundCurve(profile, fprs);
    for (std::size_t i = 0; i < fprs.size(); ++i)
      QVERIFY(tprAtFpr(r.canaryRoc, fprs[i]) <= bound[i] + 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestAuditRun)
#include "test_audit_run.moc"
