// LiRA (Carlini et al. 2022): φ stays exact where p is within rounding of 0 or 1; the IN/OUT
// Gaussian fits and the online and offline scores equal values computed here by hand; every
// candidate is IN for exactly half of the shadows; the ROC reads a known TPR at low FPR; and
// shadows are bit-identical with 1 thread and with 2, on a small uci-digits run.
#include <tbb/task_arena.h>

#include <QTest>
#include <cmath>
#include <numbers>

#include "core/audit/lira.h"
#include "core/audit/one_run_bound.h"
#include "core/audit/run_attack.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/train/run_planning.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::audit;

namespace {

double naivePhi(const std::vector<double>& z, int y) {
  double sum = 0.0;
  for (const double v : z) sum += std::exp(v);
  const double p = std::exp(z[static_cast<std::size_t>(y)]) / sum;
  return std::log(p / (1.0 - p));
}

double normalPdf(double x, double mean, double variance) {
  return std::exp(-(x - mean) * (x - mean) / (2.0 * variance)) /
         std::sqrt(2.0 * std::numbers::pi * variance);
}

train::ExperimentConfig digitsConfig() {
  train::ExperimentConfig c;
  c.dataset.name = "uci-digits";
  c.dataset.options.maxTrain = 400;  // 359 members + 359 held out: 2 chunks to score
  c.model.preset = "mlp";
  c.model.hiddenWidths = {16};
  c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
  c.training.lotSize = 100;
  c.training.epochs = 2;
  c.training.seed = 5;
  return c;
}

// One-sided Clopper–Pearson limits at level a (Clopper & Pearson 1934), by bisection on the
// binomial tail: the smallest rate whose upper tail from k reaches a (a lower limit for k of
// n), and the largest rate whose lower tail to k reaches a (an upper limit).
double lowerLimit(long long n, long long k, double a) {
  if (k == 0) return 0.0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (audit::binomialUpperTail(n, k, mid) < a ? lo : hi) = mid;
  }
  return lo;
}
double upperLimit(long long n, long long k, double a) {
  if (k == n) return 1.0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (1.0 - audit::binomialUpperTail(n, k + 1, mid) > a ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

class TestAuditLira : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void phiIsStableNearZeroAndOne() {
    // p = σ(40) rounds to 1 in double: the naive log(p / (1 − p)) is infinite, φ is 40.
    const std::vector<float> sure{40.0f, 0.0f};
    QVERIFY(std::isinf(naivePhi({40.0, 0.0}, 0)));
    QCOMPARE(logitScaledConfidence(sure, 0), 40.0);
    QCOMPARE(logitScaledConfidence(sure, 1), -40.0);
    // p ≈ e^−100 / 2: log(p / (1 − p)) = −100 − log 2 exactly (1 − p rounds to 1).
    const std::vector<float> hopeless{-100.0f, 0.0f, 0.0f};
    QVERIFY(std::abs(logitScaledConfidence(hopeless, 0) - (-100.0 - std::log(2.0))) < 1e-12);
    // In the middle it is the textbook formula.
    const std::vector<float> middle{1.0f, 2.0f, 3.0f};
    for (int y = 0; y < 3; ++y)
      QVERIFY(std::abs(logitScaledConfidence(middle, y) - naivePhi({1.0, 2.0, 3.0}, y)) < 1e-12);
  }

  void gaussianFitsAndScoresMatchHandValues() {
    // 4 shadows × 3 candidates; candidate c is IN for the shadows marked 1.
    const std::vector<std::vector<char>> in{{1, 0, 1}, {0, 1, 0}, {1, 0, 0}, {0, 1, 1}};
    const std::vector<std::vector<double>> phi{
        {2.0, -1.0, 3.0}, {0.5, 1.5, -0.5}, {4.0, 0.0, 0.5}, {-0.5, 2.5, 4.0}};
    // By hand. IN values: c0 {2, 4}, c1 {1.5, 2.5}, c2 {3, 4}; OUT: c0 {0.5, −0.5},
    // c1 {−1, 0}, c2 {−0.5, 0.5}. Means IN 3, 2, 3.5; OUT 0, −0.5, 0.
    // Unbiased variances IN 2, 0.5, 0.5; OUT 0.5, 0.5, 0.5. Pooled IN (2+0.5+0.5)/3 = 1.
    const LiraFits own = fitShadows(in, phi, LiraVariance::PerExample, true);
    QVERIFY(!own.globalVariance);
    const double inMean[] = {3.0, 2.0, 3.5}, inVar[] = {2.0, 0.5, 0.5};
    const double outMean[] = {0.0, -0.5, 0.0};
    for (int c = 0; c < 3; ++c) {
      QCOMPARE(own.in[c].mean, inMean[c]);
      QCOMPARE(own.in[c].variance, inVar[c]);
      QCOMPARE(own.out[c].mean, outMean[c]);
      QCOMPARE(own.out[c].variance, 0.5);
    }
    const LiraFits global = fitShadows(in, phi, LiraVariance::Auto, true);  // 4 < 64 shadows
    QVERIFY(global.globalVariance);
    for (int c = 0; c < 3; ++c) {
      QCOMPARE(global.in[c].variance, 1.0);
      QCOMPARE(global.out[c].variance, 0.5);
      QCOMPARE(global.in[c].mean, inMean[c]);
    }
    // Offline needs no IN fit.
    QVERIFY(fitShadows(in, phi, LiraVariance::Global, false).in.empty());

    // Online: log of the ratio of the two densities; offline: Φ((φ − μ_out)/σ_out).
    const std::vector<double> target{2.5, -0.2, 1.0};
    const std::vector<double> online = liraScores(target, own, LiraTest::Online);
    const std::vector<double> offline = liraScores(target, own, LiraTest::Offline);
    for (int c = 0; c < 3; ++c) {
      const double ratio =
          normalPdf(target[c], inMean[c], inVar[c]) / normalPdf(target[c], outMean[c], 0.5);
      QVERIFY(std::abs(online[c] - std::log(ratio)) < 1e-12);
      const double cdf = 0.5 * std::erfc(-(target[c] - outMean[c]) / std::sqrt(2.0 * 0.5));
      QVERIFY(std::abs(0.5 * std::erfc(-offline[c] / std::sqrt(2.0)) - cdf) < 1e-15);
    }
    // One value per side and candidate: the global variance is the spread of those values.
    const std::vector<std::vector<char>> pair{{1, 0}, {0, 1}};
    const std::vector<std::vector<double>> pairPhi{{1.0, 0.0}, {3.0, 4.0}};
    const LiraFits few = fitShadows(pair, pairPhi, LiraVariance::Global, true);
    QCOMPARE(few.in[0].variance, 4.5);   // IN values 1, 4: ((1 − 2.5)² + (4 − 2.5)²) / 1
    QCOMPARE(few.out[0].variance, 4.5);  // OUT values 3, 0
    QVERIFY_THROWS_EXCEPTION(PrivacyError,
                             fitShadows(pair, pairPhi, LiraVariance::PerExample, true));
  }

  void membershipsAreBalancedAndSeeded() {
    const auto in = shadowMemberships(1000, 8, 7);
    QCOMPARE(in.size(), std::size_t{8});
    std::vector<int> times(1000, 0);
    for (const auto& shadow : in) {
      QCOMPARE(static_cast<int>(std::count(shadow.begin(), shadow.end(), 1)), 500);
      for (int c = 0; c < 1000; ++c) times[c] += shadow[c];
    }
    for (const int t : times) QCOMPARE(t, 4);
    QVERIFY(in[0] != in[2]);  // pairs draw fresh halves
    QCOMPARE(shadowMemberships(1000, 8, 7), in);
    QVERIFY(shadowMemberships(1000, 8, 8) != in);
    // An odd count: every candidate IN for 2 or 3 of 5.
    std::vector<int> odd(1000, 0);
    for (const auto& shadow : shadowMemberships(1000, 5, 7))
      for (int c = 0; c < 1000; ++c) odd[c] += shadow[c];
    for (const int t : odd) QVERIFY(t == 2 || t == 3);
  }

  void rocReadsAKnownLowFprRate() {
    // 1000 non-members score 0..999. Of 10 members, 3 score above all, 2 at 997.5 (below 2
    // non-members), 5 below all. TPR at FPR 0.1% (≤ 1 false positive) is 3/10, at 1% 5/10;
    // AUC = (3 + 2·998/1000) / 10.
    std::vector<double> non(1000);
    for (int i = 0; i < 1000; ++i) non[i] = i;
    const std::vector<double> members{1000, 1001, 1002, 997.5, 997.5, -1, -2, -3, -4, -5};
    const MembershipAttack a = scoredAttack(members, non);
    QCOMPARE(a.tprAtFpr01Percent, 0.3);
    QCOMPARE(a.tprAtFpr1Percent, 0.5);
    QVERIFY(std::abs(a.auc - 0.4996) < 1e-12);
  }

  void badOptionsAreRefused() {
    LiraOptions o;
    o.shadows = 1;
    QVERIFY_THROWS_EXCEPTION(ConfigError, o.validate());
    o.shadows = kMaxShadows + 1;
    QVERIFY_THROWS_EXCEPTION(ConfigError, o.validate());
    o.shadows = 3;
    o.variance = LiraVariance::PerExample;
    QVERIFY_THROWS_EXCEPTION(ConfigError, o.validate());
    QCOMPARE(parseLiraTest("offline"), LiraTest::Offline);
    try {
      parseLiraTest("sideways");
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QVERIFY(std::string(e.what()).find("audit.lira") == 0);
    }
  }

  void shadowsAreDeterministicWhateverTheThreads() {
    const train::ExperimentConfig config = digitsConfig();
    const auto dataset = std::make_shared<const data::Dataset>(
        data::loadDataset(config.dataset.name, config.dataset.options));
    const train::RunResult target = train::Trainer(config, dataset).run();
    QCOMPARE(target.status, train::RunStatus::Done);
    const AttackCandidates candidates =
        attackCandidates(dataset->train, dataset->test, config.training.seed);
    LiraOptions options;
    options.shadows = 2;
    int events = 0;
    const auto shadowsWith = [&](int threads) {
      ShadowSet set;
      tbb::task_arena arena(threads);
      arena.execute([&] {
        set = trainShadows(config, *dataset, candidates.memberRows, candidates.nonMembers, options,
                           [&](int s, int n, const train::ProgressEvent&) {
                             QVERIFY(s >= 0 && s < n);
                             ++events;
                           });
      });
      return set;
    };
    const ShadowSet one = shadowsWith(1);
    const ShadowSet two = shadowsWith(2);
    QVERIFY(events > 0);
    QCOMPARE(one.phi.size(), std::size_t{2});
    QVERIFY(one.phi == two.phi);  // bit for bit
    QVERIFY(one.phi[0] != one.phi[1]);
    QCOMPARE(one.phi[0].size(), std::size_t(2 * candidates.members.size()));

    // Both tests score every candidate, from the same shadows.
    for (const LiraTest test : {LiraTest::Online, LiraTest::Offline}) {
      options.test = test;
      const LiraAttack attack = liraFromShadows(*target.model, candidates, one, options);
      QCOMPARE(attack.attack.members, static_cast<long long>(candidates.members.size()));
      QCOMPARE(attack.shadows, 2);
      QVERIFY(attack.globalVariance);
      QVERIFY(attack.attack.auc >= 0.0 && attack.attack.auc <= 1.0);
    }

    // Kept shadows are reused, and the set grows to what a fresh one would be.
    options.shadows = 4;
    const ShadowSet fresh =
        trainShadows(config, *dataset, candidates.memberRows, candidates.nonMembers, options);
    const ShadowSet grown = trainShadows(config, *dataset, candidates.memberRows,
                                         candidates.nonMembers, options, {}, nullptr, &one);
    QCOMPARE(fresh.reused, 0);
    QCOMPARE(grown.reused, 2);
    QVERIFY(grown.phi == fresh.phi);
    QVERIFY(grown.in == fresh.in);
    QVERIFY(grown.outAccuracy == fresh.outAccuracy);
    for (const double a : fresh.outAccuracy) QVERIFY(a > 0.0 && a <= 1.0);
    // Shadows of other candidates are not taken.
    ShadowSet other = one;
    other.in[0][0] = !other.in[0][0];
    QCOMPARE(trainShadows(config, *dataset, candidates.memberRows, candidates.nonMembers, options,
                          {}, nullptr, &other)
                 .reused,
             0);
    options.shadows = 2;

    // A cancel before the first step leaves a set marked cancelled, which cannot be attacked.
    std::atomic<bool> cancel{true};
    const ShadowSet stopped = trainShadows(config, *dataset, candidates.memberRows,
                                           candidates.nonMembers, options, {}, &cancel);
    QVERIFY(stopped.cancelled);
    QVERIFY_THROWS_EXCEPTION(PrivacyError,
                             liraFromShadows(*target.model, candidates, stopped, options));
  }

  // On a model that memorises (no DP, 60 epochs on 400 rows), LiRA with 8 shadows finds more
  // members than the loss threshold on the same candidates, overall and at FPR 1%.
  void liraBeatsTheLossThresholdOnAMemorisingModel() {
    train::ExperimentConfig config = digitsConfig();
    config.model.hiddenWidths = {128};
    config.training.lotSize = 32;
    config.training.epochs = 60;
    config.optimizer.learningRate = 0.3;
    config.training.seed = 2;
    const auto dataset = std::make_shared<const data::Dataset>(
        data::loadDataset(config.dataset.name, config.dataset.options));
    const train::RunResult target = train::Trainer(config, dataset).run();
    QCOMPARE(target.status, train::RunStatus::Done);
    const MembershipAttack loss =
        attackModel(*target.model, dataset->train, dataset->test, config.training.seed);
    LiraOptions options;
    options.shadows = 8;
    const LiraAttack lira = runLira(*target.model, config, *dataset, -1, options);
    qInfo("loss AUC %.3f TPR@1%% %.3f; LiRA AUC %.3f TPR@1%% %.3f TPR@0.1%% %.3f", loss.auc,
          loss.tprAtFpr1Percent, lira.attack.auc, lira.attack.tprAtFpr1Percent,
          lira.attack.tprAtFpr01Percent);
    QCOMPARE(lira.attack.members, loss.members);
    QVERIFY(lira.attack.auc > loss.auc);
    QVERIFY(lira.attack.tprAtFpr1Percent > loss.tprAtFpr1Percent);
  }

  // DP-SGD at ε ≈ 1 and 4 (σ calibrated, fixed seed): every point of LiRA's ROC stays under the
  // accountant's trade-off bound within a 95% band — the point's TPR lower limit under the bound
  // at its FPR upper limit (Clopper–Pearson, each at 2.5%/points, Bonferroni over the points).
  void liraStaysUnderTheBoundOfADpRun() {
    for (const double target : {1.0, 4.0}) {
      train::ExperimentConfig config = digitsConfig();
      config.privacy.privatizer.kind = privacy::PrivatizerKind::Clip;
      config.training.epochs = 5;
      const auto dataset = std::make_shared<const data::Dataset>(
          data::loadDataset(config.dataset.name, config.dataset.options));
      config.privacy.noise.initial =
          train::calibrateNoise(config, {dataset->train.size(), 1}, target).noiseMultiplier;
      const train::RunResult run = train::Trainer(config, dataset).run();
      QCOMPARE(run.status, train::RunStatus::Done);
      QVERIFY(run.history.back().privacy.epsilon <= target * 1.001);
      LiraOptions options;
      options.shadows = 4;
      const LiraAttack lira = runLira(*run.model, config, *dataset, -1, options);
      const TradeoffBound bound = runTradeoffBound(run);
      QVERIFY(!bound.fpr.empty());
      const RocCurve& roc = lira.attack.roc;
      const double a = 0.025 / static_cast<double>(roc.fpr.size());
      for (std::size_t i = 0; i < roc.fpr.size(); ++i) {
        const auto fp = std::llround(roc.fpr[i] * lira.attack.nonMembers);
        const auto tp = std::llround(roc.tpr[i] * lira.attack.members);
        const double fprHigh = upperLimit(lira.attack.nonMembers, fp, a);
        const double tprLow = lowerLimit(lira.attack.members, tp, a);
        // The bound at the first grid FPR at or above fprHigh (it only grows with FPR).
        double allowed = 1.0;
        for (std::size_t g = 0; g < bound.fpr.size(); ++g) {
          if (bound.fpr[g] >= fprHigh) {
            allowed = bound.tpr[g];
            break;
          }
        }
        QVERIFY2(tprLow <= allowed + 1e-12,
                 qPrintable(QString("ε %1: point %2 above the bound").arg(target).arg(i)));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestAuditLira)
#include "test_audit_lira.moc"
