// Run planning without training: q = L/N, the planned privacy report against a hand-composed
// accountant, the ε curve under a noise schedule and its sampling label, σ calibration (the
// tanh filter's √P rule included), pca-mlp's DP-PCA release planned and held fixed, and the
// epoch-end steps of a curve.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/common/errors.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/rdp_accountant.h"
#include "core/train/run_planning.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

// 10 epochs of N = 60000, L = 600: q = 0.01, 100 steps per epoch, 1000 steps.
ExperimentConfig clipConfig() {
  ExperimentConfig c;
  c.training.lotSize = 600;
  c.training.epochs = 10;
  c.privacy.noise.initial = 1.1;
  c.privacy.delta = 1e-5;
  return c;
}

constexpr long long kTrain = 60000;

double rdpEpsilon(double q, double sigma, long long steps) {
  privacy::RdpAccountant accountant;
  accountant.compose(privacy::dpSgdStepEvent(q, sigma), steps);
  return accountant.epsilon(1e-5);
}

}  // namespace

class TestRunPlanning : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sampleRateIsLotOverTrainingSize() {
    QCOMPARE(sampleRate(clipConfig(), kTrain), 0.01);
    ExperimentConfig big = clipConfig();
    big.training.lotSize = 1000;
    QCOMPARE(sampleRate(big, 400), 1.0);  // a lot cannot hold more than the data set
    try {
      sampleRate(clipConfig(), 0);
      QFAIL("an empty training set was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(
                   "dataset: expected at least one training example, got 0"),
               e.what());
    }
  }

  // The trainer's convention, T = round(E·⌊N/L⌋): 60 epochs of MNIST in lots of 256 are
  // 60·234 = 14040 steps — what a trained run takes, so what `epsilon --epochs` accounts.
  void epochSamplingCountsTheStepsTheTrainerRuns() {
    const EpochSampling mnist = epochSampling(60, 60000, 256);
    QCOMPARE(mnist.sampleRate, 256.0 / 60000.0);
    QCOMPARE(mnist.steps, 14040LL);
    ExperimentConfig c;
    c.training.epochs = 60;
    c.training.lotSize = 256;
    QCOMPARE(c.totalSteps(60000), mnist.steps);
    QCOMPARE(epochSampling(10, kTrain, 600).steps, 1000LL);  // L divides N: E·N/L exactly
    QCOMPARE(epochSampling(0.001, 100, 100).steps, 1LL);     // any positive length is one step
    const EpochSampling whole = epochSampling(2, 50, 50);
    QCOMPARE(whole.sampleRate, 1.0);
    QCOMPARE(whole.steps, 2LL);
  }

  void epochSamplingNamesTheBadField_data() {
    QTest::addColumn<double>("epochs");
    QTest::addColumn<long long>("size");
    QTest::addColumn<long long>("lot");
    QTest::addColumn<QString>("message");
    QTest::newRow("epochs") << 0.0 << 100LL << 10LL << "training.epochs: expected";
    QTest::newRow("size") << 1.0 << 0LL << 1LL << "dataset.size: expected";
    QTest::newRow("lot > N") << 1.0 << 100LL << 200LL << "training.lot_size: expected";
    QTest::newRow("too long") << 1e14 << 100LL << 1LL << "training.epochs: 1e+14 epochs give";
  }

  void epochSamplingNamesTheBadField() {
    QFETCH(double, epochs);
    QFETCH(long long, size);
    QFETCH(long long, lot);
    QFETCH(QString, message);
    try {
      epochSampling(epochs, size, lot);
      QFAIL("a bad epoch form was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(message), e.what());
    }
  }

  void plannedPrivacyIsTheAccountantsEpsilon() {
    const privacy::PrivacyStatement report = plannedPrivacy(clipConfig(), {kTrain, 1});
    QCOMPARE(report.accountant, privacy::AccountantKind::Rdp);
    QVERIFY(report.isGuarantee());
    QCOMPARE(report.sampling, privacy::SamplingKind::Poisson);
    QVERIFY(std::fabs(report.epsilon - rdpEpsilon(0.01, 1.1, 1000)) < 1e-9);
    const privacy::PrivacyRunDescription run = privacyDescription(clipConfig(), {kTrain, 1});
    QCOMPARE(run.steps, 1000LL);
    QCOMPARE(run.sampleRate, 0.01);
  }

  void curveFollowsTheNoiseSchedule() {
    // Every distinct σ_t is its own event: a short run (N = 6000, q = 0.1, 5 epochs of 10
    // steps) keeps the suite fast.
    ExperimentConfig constantNoise = clipConfig();
    constantNoise.training.epochs = 5;
    const long long n = 6000;
    ExperimentConfig decaying = constantNoise;
    decaying.privacy.noise.decay = privacy::NoiseDecay::Exp;
    decaying.privacy.noise.rate = 0.01;  // σ_t = 1.1·e^(−0.01 t): less noise, more ε
    const std::vector<long long> steps = epochEndSteps(decaying, n);
    QCOMPARE(steps, (std::vector<long long>{10, 20, 30, 40, 50}));
    const EpsilonCurve curve = epsilonCurve(decaying, {n, 1}, steps);
    const EpsilonCurve constant = epsilonCurve(constantNoise, {n, 1}, steps);
    QCOMPARE(curve.points.size(), steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      QCOMPARE(curve.points[i].epoch, double(i + 1));
      if (i > 0) QVERIFY(curve.points[i].epsilon > curve.points[i - 1].epsilon);
      QVERIFY(curve.points[i].epsilon > constant.points[i].epsilon);  // the schedule counts
      QVERIFY(std::fabs(constant.points[i].epsilon - rdpEpsilon(0.1, 1.1, steps[i])) < 1e-9);
    }
    QVERIFY(std::fabs(curve.points.back().epsilon - plannedPrivacy(decaying, {n, 1}).epsilon) <
            1e-12);
    QVERIFY(curve.points.back().noiseMultiplier < 1.1 * std::exp(-0.45));
  }

  void shuffledBatchesAreLabelledAsAnAssumption() {
    ExperimentConfig shuffled = clipConfig();
    shuffled.privacy.sampling = SamplingKind::Shuffle;
    const std::vector<long long> steps{500, 1000};
    const EpsilonCurve curve = epsilonCurve(shuffled, {kTrain, 1}, steps);
    QCOMPARE(curve.statement.status, privacy::GuaranteeStatus::AssumesPoisson);
    QVERIFY(!curve.statement.isGuarantee());
    QVERIFY_THROWS_EXCEPTION(ConfigError,
                             epsilonCurve(shuffled, {kTrain, 1}, std::vector<long long>{1001}));
  }

  void calibrationMeetsTheTargetTightly() {
    const privacy::Calibration clip = calibrateNoise(clipConfig(), {kTrain, 1}, 2.0);
    ExperimentConfig c = clipConfig();
    c.privacy.noise.initial = clip.noiseMultiplier;
    QVERIFY(plannedPrivacy(c, {kTrain, 1}).epsilon <= 2.0);
    c.privacy.noise.initial = clip.noiseMultiplier * (1 - 1e-3);
    QVERIFY(plannedPrivacy(c, {kTrain, 1}).epsilon > 2.0);
  }

  void tanhNeedsSqrtPTimesTheNoise() {
    QCOMPARE(tanhNoiseMultiplier(2.0, 100), 20.0);
    QCOMPARE(tanhNoiseMultiplier(2.0, 0), 2.0);
    ExperimentConfig tanh = clipConfig();
    tanh.privacy.privatizer.kind = privacy::PrivatizerKind::Tanh;
    const long long parameters = 2500;  // √P = 50
    const double sigmaClip = calibrateNoise(clipConfig(), {kTrain, 1}, 2.0).noiseMultiplier;
    const double sigmaTanh = calibrateNoise(tanh, {kTrain, parameters}, 2.0).noiseMultiplier;
    QVERIFY2(std::fabs(sigmaTanh / tanhNoiseMultiplier(sigmaClip, parameters) - 1) < 1e-3,
             qPrintable(QString("%1 vs %2").arg(sigmaTanh).arg(sigmaClip)));
    tanh.privacy.noise.initial = sigmaTanh;
    const privacy::PrivacyStatement report = plannedPrivacy(tanh, {kTrain, parameters});
    QVERIFY(report.epsilon <= 2.0);
    QVERIFY(report.nominalEpsilon &&
            *report.nominalEpsilon < report.epsilon);  // labelled, far smaller
  }

  // A schedule is calibrated through σ₀: every σ_t = σ₀·f(t) scales with it.
  void calibrationScalesANoiseSchedule() {
    ExperimentConfig decaying = clipConfig();
    decaying.privacy.noise.decay = privacy::NoiseDecay::Exp;
    decaying.privacy.noise.rate = 0.001;
    const privacy::Calibration c = calibrateNoise(decaying, {kTrain, 1}, 2.0);
    decaying.privacy.noise.initial = c.noiseMultiplier;
    const double epsilon = plannedPrivacy(decaying, {kTrain, 1}).epsilon;
    QVERIFY(epsilon <= 2.0 && epsilon > 1.99);
    QVERIFY(c.noiseMultiplier > calibrateNoise(clipConfig(), {kTrain, 1}, 2.0).noiseMultiplier);
  }

  void calibrationRefusesWhatItCannotFix() {
    ExperimentConfig none = clipConfig();
    none.privacy.privatizer.kind = privacy::PrivatizerKind::None;
    QVERIFY_THROWS_EXCEPTION(ConfigError, calibrateNoise(none, {kTrain, 1}, 2.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, calibrateNoise(clipConfig(), {kTrain, 1}, 1e-9));
  }

  void pcaReleaseIsPlannedAndHeldFixed() {
    // pca-mlp: the DP-PCA release (σ_pca 7, once, unsampled) composed before the 1000 steps.
    ExperimentConfig c = clipConfig();
    c.model.preset = "pca-mlp";
    c.model.pcaNoise = 7.0;
    privacy::RdpAccountant accountant;
    accountant.compose(privacy::dpPcaEvent(7.0));
    accountant.compose(privacy::dpSgdStepEvent(0.01, 1.1), 1000);
    const privacy::PrivacyStatement planned = plannedPrivacy(c, {kTrain, 1000});
    QVERIFY(std::abs(planned.epsilon - accountant.epsilon(1e-5)) < 1e-9);
    QVERIFY(planned.epsilon > rdpEpsilon(0.01, 1.1, 1000));
    QVERIFY(planned.pca && planned.pca->noiseMultiplier == 7.0);
    // The curve includes it at every point, and its end is the planned ε.
    const std::vector<long long> steps{100, 1000};
    const EpsilonCurve curve = epsilonCurve(c, {kTrain, 1000}, steps);
    QVERIFY(curve.points.front().epsilon > rdpEpsilon(0.01, 1.1, 100));
    QVERIFY(std::abs(curve.points.back().epsilon - planned.epsilon) < 1e-9);
    // Calibration moves σ only: the target is met with the PCA's share spent, so σ is larger.
    const privacy::Calibration withPca = calibrateNoise(c, {kTrain, 1000}, 2.0);
    const privacy::Calibration without = calibrateNoise(clipConfig(), {kTrain, 1000}, 2.0);
    QVERIFY(withPca.epsilon <= 2.0 && withPca.epsilon > 1.99);
    QVERIFY(withPca.noiseMultiplier > without.noiseMultiplier);
    // A target the PCA alone spends cannot be reached, and the error says why.
    try {
      calibrateNoise(c, {kTrain, 1000}, 0.3);
      QFAIL("expected a PrivacyError");
    } catch (const PrivacyError& e) {
      QVERIFY2(QString(e.what()).contains("model.pca_noise"), e.what());
    }
  }

  void epochEndsAreThinnedButKeepTheEnd() {
    ExperimentConfig c = clipConfig();
    c.training.lotSize = 100;
    c.training.epochs = 3;
    QCOMPARE(epochEndSteps(c, 1000), (std::vector<long long>{10, 20, 30}));
    QCOMPARE(epochEndSteps(c, 1000, 2), (std::vector<long long>{20, 30}));
    c.training.steps = 25;
    QCOMPARE(epochEndSteps(c, 1000), (std::vector<long long>{10, 20, 25}));
  }
};

QTEST_APPLESS_MAIN(TestRunPlanning)
#include "test_run_planning.moc"
