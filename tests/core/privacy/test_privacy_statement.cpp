// The honesty rules: tanh's honest ε with sensitivity c·√P beside its labelled nominal ε,
// adaptive clipping as two Gaussian releases, per-step σ_t, the sampling assumption label,
// and no privatizer meaning no privacy.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/privacy_statement.h"
#include "core/privacy/rdp_accountant.h"

using namespace epsilon;
using namespace epsilon::privacy;

namespace {

PrivacyRunDescription clipRun() {
  PrivacyRunDescription run;
  run.sampleRate = 256.0 / 60000.0;
  run.steps = 14063;
  run.noiseMultipliers = {1.1};
  run.delta = 1e-5;
  return run;
}

double rdpEpsilon(double q, double sigma, long long steps) {
  RdpAccountant accountant;
  accountant.compose(dpSgdStepEvent(q, sigma), steps);
  return accountant.epsilon(1e-5);
}

}  // namespace

class TestPrivacyStatement : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void clipWithPoissonSamplingIsAGuarantee() {
    const PrivacyStatement report = privacyStatement(clipRun());
    QVERIFY(std::fabs(report.epsilon - 2.5967) < 1e-3);
    QCOMPARE(report.delta, 1e-5);
    QCOMPARE(report.accountant, AccountantKind::Rdp);
    QVERIFY(report.order.has_value());
    QCOMPARE(*report.order, 8.1);
    QCOMPARE(report.sampling, SamplingKind::Poisson);
    QCOMPARE(std::string(samplingWords(report.sampling)), std::string("Poisson sampling"));
    QVERIFY(report.isGuarantee());
    QCOMPARE(report.status, GuaranteeStatus::Guarantee);
    QCOMPARE(std::string(statusWords(report.status)), std::string("DP guarantee"));
    QVERIFY(!report.nominalEpsilon.has_value());
    QCOMPARE(report.effectiveNoiseMultiplier, 1.1);
  }

  void shuffledBatchesCarryTheAssumption() {
    PrivacyRunDescription run = clipRun();
    run.sampling = SamplingKind::Shuffle;
    const PrivacyStatement report = privacyStatement(run);
    QCOMPARE(std::string(samplingWords(report.sampling)),
             std::string("assumes Poisson sampling (batches were shuffled)"));
    QVERIFY(!report.isGuarantee());
    QCOMPARE(report.status, GuaranteeStatus::AssumesPoisson);
    QVERIFY(std::fabs(report.epsilon - privacyStatement(clipRun()).epsilon) < 1e-12);
  }

  void tanhHonestAndNominal() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::Tanh;
    run.steps = 1000;
    run.parameterCount = 100;  // honest multiplier σ/√P = 1.1/10
    const PrivacyStatement report = privacyStatement(run);
    QCOMPARE(report.effectiveNoiseMultiplier, 1.1 / 10.0);
    QVERIFY(std::fabs(report.epsilon - rdpEpsilon(run.sampleRate, 0.11, 1000)) < 1e-9);
    QVERIFY(report.nominalEpsilon.has_value());
    QVERIFY(std::fabs(*report.nominalEpsilon - rdpEpsilon(run.sampleRate, 1.1, 1000)) < 1e-9);
    QVERIFY(*report.nominalEpsilon < report.epsilon);
    QCOMPARE(std::string(kNominalLabel), std::string("nominal — not a DP guarantee"));
    QVERIFY(report.isGuarantee());  // the honest ε is one
    run.parameterCount = 0;
    QVERIFY_THROWS_EXCEPTION(PrivacyError, privacyStatement(run));
  }

  void adaptiveClippingIsTwoGaussianReleases() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::Adaptive;
    run.steps = 2000;
    const double target = 1.1;
    run.countNoiseStd = 5.0;
    run.noiseMultipliers = {adaptiveGradientNoiseMultiplier(target, run.countNoiseStd)};
    QVERIFY(run.noiseMultipliers[0] > target);
    const PrivacyStatement report = privacyStatement(run);
    // Andrew et al. 2021: together exactly one Gaussian with the target multiplier.
    QVERIFY(std::fabs(report.effectiveNoiseMultiplier - target) < 1e-12);
    QVERIFY(std::fabs(report.epsilon - rdpEpsilon(run.sampleRate, target, 2000)) < 1e-6);
    // The count release costs privacy: ignoring it would understate ε.
    QVERIFY(report.epsilon > rdpEpsilon(run.sampleRate, run.noiseMultipliers[0], 2000));
    QVERIFY_THROWS_EXCEPTION(ConfigError, adaptiveGradientNoiseMultiplier(1.1, 0.5));
  }

  void decayingNoiseComposesPerStep() {
    PrivacyRunDescription run = clipRun();
    run.steps = 3000;
    run.noiseMultipliers.clear();
    for (long long t = 0; t < run.steps; ++t) run.noiseMultipliers.push_back(t < 1500 ? 1.5 : 1.0);
    const auto events = privacyEvents(run);
    QCOMPARE(events.size(), std::size_t{2});  // consecutive equal σ_t merged
    QCOMPARE(events[0].second, 1500LL);
    RdpAccountant manual;
    manual.compose(dpSgdStepEvent(run.sampleRate, 1.5), 1500);
    manual.compose(dpSgdStepEvent(run.sampleRate, 1.0), 1500);
    const PrivacyStatement report = privacyStatement(run);
    QVERIFY(std::fabs(report.epsilon - manual.epsilon(1e-5)) < 1e-12);
    QVERIFY(!report.noiseRounded);
    // RDP accounts every σ_t of a per-step exponential decay exactly.
    for (long long t = 0; t < run.steps; ++t) run.noiseMultipliers[t] = 1.5 * std::exp(-1e-4 * t);
    RdpAccountant exact;
    for (long long t = 0; t < run.steps; ++t)
      exact.compose(dpSgdStepEvent(run.sampleRate, run.noiseMultipliers[t]));
    const PrivacyStatement decayed = privacyStatement(run);
    QVERIFY(!decayed.noiseRounded);
    QCOMPARE(decayed.epsilon, exact.epsilon(1e-5));
  }

  // PLD gets σ_t ≠ σ₀ rounded down onto σ₀·0.99^k: a valid (larger) ε, with a few dozen distinct
  // steps, and each step rounded on its own, so ε after s steps depends on σ_0 … σ_{s−1} only.
  void pldRoundsDecayingNoiseStepByStep() {
    PrivacyRunDescription run = clipRun();
    run.accountant = AccountantKind::Pld;
    run.steps = 600;
    run.sampleRate = 0.01;
    run.noiseMultipliers.clear();
    for (long long t = 0; t < run.steps; ++t)
      run.noiseMultipliers.push_back(1.5 * std::exp(-1e-3 * t));
    QCOMPARE(accountedNoiseMultiplier(AccountantKind::Pld, 1.5, 1.5), 1.5);
    QCOMPARE(accountedNoiseMultiplier(AccountantKind::Rdp, 1.2, 1.5), 1.2);
    const double rounded = accountedNoiseMultiplier(AccountantKind::Pld, 1.2, 1.5);
    QVERIFY(rounded <= 1.2 && rounded > 1.2 * 0.99);
    const PrivacyStatement whole = privacyStatement(run);
    QVERIFY(whole.noiseRounded);
    QVERIFY(privacyEvents(run).size() < 70);
    PldAccountant exact;
    for (long long t = 0; t < run.steps; ++t)
      exact.compose(dpSgdStepEvent(run.sampleRate, run.noiseMultipliers[t]));
    QVERIFY(whole.epsilon >= exact.epsilon(1e-5));
    QVERIFY(whole.epsilon <= exact.epsilon(1e-5) * 1.03);
    // The first 300 steps alone: the same events as the run's own first 300.
    PrivacyRunDescription half = firstSteps(run, 300);
    QCOMPARE(half.noiseMultipliers.size(), std::size_t(300));
    QCOMPARE(privacyStatement(half).epsilon, privacyStatement(firstSteps(run, 300)).epsilon);
  }

  void noPrivatizerMeansNoPrivacy() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::None;
    run.noiseMultipliers.clear();
    const PrivacyStatement report = privacyStatement(run);
    QVERIFY(std::isinf(report.epsilon));
    QVERIFY(!report.isGuarantee());
    QCOMPARE(report.status, GuaranteeStatus::NoPrivacy);
  }

  void pldReport() {
    PrivacyRunDescription run = clipRun();
    run.accountant = AccountantKind::Pld;
    const PrivacyStatement report = privacyStatement(run);
    QCOMPARE(report.accountant, AccountantKind::Pld);
    QVERIFY(!report.order.has_value());
    QVERIFY(report.epsilon < privacyStatement(clipRun()).epsilon);
  }

  void invalidInputNamesTheField() {
    PrivacyRunDescription run = clipRun();
    run.sampleRate = 0.0;
    try {
      privacyStatement(run);
      QFAIL("q = 0 accepted");
    } catch (const PrivacyError& e) {
      QVERIFY(std::string(e.what()).find("privacy.sample_rate") != std::string::npos);
    }
    run = clipRun();
    run.noiseMultipliers = {1.0, 2.0};
    QVERIFY_THROWS_EXCEPTION(PrivacyError, privacyStatement(run));
  }

  void epsilonGrowsWithTheSteps() {
    PrivacyRunDescription run = clipRun();
    std::vector<double> epsilons;
    for (long long s : {0LL, 2344LL, 7032LL, run.steps})
      epsilons.push_back(privacyStatement(firstSteps(run, s)).epsilon);
    QCOMPARE(epsilons[0], 0.0);
    QCOMPARE(privacyStatement(firstSteps(run, 0)).status, GuaranteeStatus::NothingReleased);
    QVERIFY(epsilons[1] < epsilons[2] && epsilons[2] < epsilons[3]);
    QCOMPARE(epsilons[3], privacyStatement(run).epsilon);
    run.accountant = AccountantKind::Pld;
    QVERIFY(privacyStatement(firstSteps(run, 2344)).epsilon < epsilons[1]);
  }

  // A step without noise releases the clipped sum itself: no ε bounds the run from there on.
  void aStepWithoutNoiseIsNoPrivacy() {
    PrivacyRunDescription run = clipRun();
    run.steps = 3;
    run.noiseMultipliers = {1.1, 0.0, 1.1};
    const PrivacyStatement s = privacyStatement(run);
    QVERIFY(std::isinf(s.epsilon));
    QCOMPARE(s.status, GuaranteeStatus::NoPrivacy);
    QCOMPARE(privacyStatement(firstSteps(run, 1)).status, GuaranteeStatus::Guarantee);
  }

  void wordsReadBack() {
    for (auto status :
         {GuaranteeStatus::Guarantee, GuaranteeStatus::NothingReleased, GuaranteeStatus::NoPrivacy,
          GuaranteeStatus::NoFiniteBound, GuaranteeStatus::AssumesPoisson})
      QCOMPARE(parseStatusWords(statusWords(status), "status"), status);
    for (auto sampling : {SamplingKind::Poisson, SamplingKind::Shuffle})
      QCOMPARE(parseSamplingWords(samplingWords(sampling), "sampling"), sampling);
    try {
      parseStatusWords(std::string(5000, 'x'), "privacy_status");
      QFAIL("unknown words accepted");
    } catch (const PrivacyError& e) {
      QVERIFY2(std::string(e.what()).size() < 200, e.what());  // the value is clipped
    }
  }
};

QTEST_APPLESS_MAIN(TestPrivacyStatement)
#include "test_privacy_statement.moc"
