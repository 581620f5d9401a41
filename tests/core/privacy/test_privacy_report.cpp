// The honesty rules: tanh's honest ε with sensitivity c·√P beside its labelled nominal ε,
// adaptive clipping as two Gaussian releases, per-step σ_t, the sampling assumption label,
// and no privatizer meaning no privacy.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/privacy_report.h"
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

class TestPrivacyReport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void clipWithPoissonSamplingIsAGuarantee() {
    const PrivacyReport report = privacyReport(clipRun());
    QVERIFY(std::fabs(report.epsilon - 2.5967) < 1e-3);
    QCOMPARE(report.delta, 1e-5);
    QCOMPARE(report.accountant, std::string("rdp"));
    QVERIFY(report.order.has_value());
    QCOMPARE(*report.order, 8.1);
    QCOMPARE(report.samplingLabel, std::string("Poisson sampling"));
    QVERIFY(report.isGuarantee);
    QCOMPARE(report.statusLabel, std::string("DP guarantee"));
    QVERIFY(!report.nominalEpsilon.has_value());
    QCOMPARE(report.effectiveNoiseMultiplier, 1.1);
  }

  void shuffledBatchesCarryTheAssumption() {
    PrivacyRunDescription run = clipRun();
    run.sampling = SamplingKind::Shuffle;
    const PrivacyReport report = privacyReport(run);
    QCOMPARE(report.samplingLabel, std::string("assumes Poisson sampling (batches were shuffled)"));
    QVERIFY(!report.isGuarantee);
    QVERIFY(report.statusLabel.find("assumes Poisson sampling") != std::string::npos);
    QVERIFY(std::fabs(report.epsilon - privacyReport(clipRun()).epsilon) < 1e-12);
  }

  void tanhHonestAndNominal() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::Tanh;
    run.steps = 1000;
    run.parameterCount = 100;  // honest multiplier σ/√P = 1.1/10
    const PrivacyReport report = privacyReport(run);
    QCOMPARE(report.effectiveNoiseMultiplier, 1.1 / 10.0);
    QVERIFY(std::fabs(report.epsilon - rdpEpsilon(run.sampleRate, 0.11, 1000)) < 1e-9);
    QVERIFY(report.nominalEpsilon.has_value());
    QVERIFY(std::fabs(*report.nominalEpsilon - rdpEpsilon(run.sampleRate, 1.1, 1000)) < 1e-9);
    QVERIFY(*report.nominalEpsilon < report.epsilon);
    QCOMPARE(report.nominalLabel, std::string("nominal — not a DP guarantee"));
    QVERIFY(report.isGuarantee);  // the honest ε is one
    run.parameterCount = 0;
    QVERIFY_THROWS_EXCEPTION(PrivacyError, privacyReport(run));
  }

  void adaptiveClippingIsTwoGaussianReleases() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::Adaptive;
    run.steps = 2000;
    const double target = 1.1;
    run.countNoiseStd = 5.0;
    run.noiseMultipliers = {adaptiveGradientNoiseMultiplier(target, run.countNoiseStd)};
    QVERIFY(run.noiseMultipliers[0] > target);
    const PrivacyReport report = privacyReport(run);
    // Andrew et al. 2021: together exactly one Gaussian with the target multiplier.
    QVERIFY(std::fabs(report.effectiveNoiseMultiplier - target) < 1e-12);
    QVERIFY(std::fabs(report.epsilon - rdpEpsilon(run.sampleRate, target, 2000)) < 1e-6);
    // The count release costs privacy: ignoring it would understate ε.
    QVERIFY(report.epsilon > rdpEpsilon(run.sampleRate, run.noiseMultipliers[0], 2000));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, adaptiveGradientNoiseMultiplier(1.1, 0.5));
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
    const PrivacyReport report = privacyReport(run);
    QVERIFY(std::fabs(report.epsilon - manual.epsilon(1e-5)) < 1e-12);
    QVERIFY(!report.noiseMultipliersRounded);
    // A per-step exponential decay is rounded down (pessimistically) to a 0.1% grid.
    for (long long t = 0; t < run.steps; ++t) run.noiseMultipliers[t] = 1.5 * std::exp(-1e-4 * t);
    const PrivacyReport decayed = privacyReport(run);
    QVERIFY(decayed.noiseMultipliersRounded);
    RdpAccountant exact;
    for (long long t = 0; t < run.steps; ++t)
      exact.compose(dpSgdStepEvent(run.sampleRate, run.noiseMultipliers[t]));
    const double exactEpsilon = exact.epsilon(1e-5);
    QVERIFY(decayed.epsilon >= exactEpsilon);
    QVERIFY(decayed.epsilon <= exactEpsilon * 1.005);
  }

  void noPrivatizerMeansNoPrivacy() {
    PrivacyRunDescription run = clipRun();
    run.privatizer = PrivatizerKind::None;
    run.noiseMultipliers.clear();
    const PrivacyReport report = privacyReport(run);
    QVERIFY(std::isinf(report.epsilon));
    QVERIFY(!report.isGuarantee);
    QCOMPARE(report.statusLabel, std::string("no privacy"));
  }

  void pldReport() {
    PrivacyRunDescription run = clipRun();
    run.accountant = AccountantKind::Pld;
    const PrivacyReport report = privacyReport(run);
    QCOMPARE(report.accountant, std::string("pld"));
    QVERIFY(!report.order.has_value());
    QVERIFY(report.epsilon < privacyReport(clipRun()).epsilon);
  }

  void invalidInputNamesTheField() {
    PrivacyRunDescription run = clipRun();
    run.sampleRate = 0.0;
    try {
      privacyReport(run);
      QFAIL("q = 0 accepted");
    } catch (const PrivacyError& e) {
      QVERIFY(std::string(e.what()).find("privacy.sample_rate") != std::string::npos);
    }
    run = clipRun();
    run.noiseMultipliers = {1.0, 2.0};
    QVERIFY_THROWS_EXCEPTION(PrivacyError, privacyReport(run));
  }

  void epsilonCurveOverSteps() {
    const std::vector<long long> steps{0, 2344, 7032, 14063};
    const auto rdp = epsilonOverSteps(AccountantKind::Rdp, 256.0 / 60000.0, 1.1, 1e-5, steps);
    QCOMPARE(rdp[0], 0.0);
    QVERIFY(std::fabs(rdp[3] - 2.5967) < 1e-3);
    QVERIFY(rdp[1] < rdp[2] && rdp[2] < rdp[3]);
    const auto pld = epsilonOverSteps(AccountantKind::Pld, 256.0 / 60000.0, 1.1, 1e-5,
                                      std::vector<long long>{2344});
    QVERIFY(pld[0] < rdp[1]);
  }
};

QTEST_APPLESS_MAIN(TestPrivacyReport)
#include "test_privacy_report.moc"
