// The DP-PCA release composed with the DP-SGD steps, for RDP and PLD: the run's ε lies between
// the DP-SGD-only ε and that plus the PCA's ε alone, each computed as `epsilonlab-cli epsilon`
// does (an accountant fed dpSgdStepEvent(q, σ) × steps; the PCA as q = 1, one step); the
// preview curve and the calibration (PCA held fixed) agree with the report.
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/privacy/calibration.h"
#include "core/privacy/dp_pca.h"
#include "core/privacy/privacy_statement.h"
#include "dp_sgd_run.h"

using namespace epsilon;
using namespace epsilon::privacy;
using epsilon::privacy::test::calibrateDpSgd;

namespace {

// What `epsilonlab-cli epsilon --sample-rate q --noise-multiplier σ --steps T` computes.
double cliEpsilon(AccountantKind kind, double q, double sigma, long long steps, double delta) {
  const auto accountant = makeAccountant(kind);
  accountant->compose(dpSgdStepEvent(q, sigma), steps);
  return accountant->epsilon(delta);
}

PrivacyRunDescription abadiRun(AccountantKind kind, double sigma, double pcaSigma) {
  PrivacyRunDescription run;
  run.sampleRate = 600.0 / 60000.0;  // Abadi et al.: lot 600 of 60,000
  run.steps = 10 * 100;              // 10 epochs
  run.noiseMultipliers = {sigma};
  run.delta = 1e-5;
  run.accountant = kind;
  run.pca = true;
  run.pcaNoiseMultiplier = pcaSigma;
  run.pcaSampleFraction = 0.1;
  return run;
}

void addKinds() {
  QTest::addColumn<int>("kind");
  QTest::addColumn<double>("sigma");
  QTest::addColumn<double>("pcaSigma");
  for (const auto& [name, kind] :
       {std::pair{"rdp", AccountantKind::Rdp}, std::pair{"pld", AccountantKind::Pld}}) {
    // The paper's three levels (σ, σ_pca): large, medium, small noise.
    QTest::newRow((std::string(name) + " large").c_str()) << int(kind) << 8.0 << 16.0;
    QTest::newRow((std::string(name) + " medium").c_str()) << int(kind) << 4.0 << 7.0;
    QTest::newRow((std::string(name) + " small").c_str()) << int(kind) << 2.0 << 4.0;
  }
}

}  // namespace

class TestPrivacyPcaAccounting : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void composedEpsilonIsBetweenThePartsAndTheirSum_data() { addKinds(); }
  void composedEpsilonIsBetweenThePartsAndTheirSum() {
    QFETCH(int, kind);
    QFETCH(double, sigma);
    QFETCH(double, pcaSigma);
    const auto k = static_cast<AccountantKind>(kind);
    const PrivacyRunDescription run = abadiRun(k, sigma, pcaSigma);
    const double withPca = privacyStatement(run).epsilon;
    const double dpSgdOnly = cliEpsilon(k, run.sampleRate, sigma, run.steps, run.delta);
    const double pcaAlone = cliEpsilon(k, 1.0, pcaSigma, 1, run.delta);
    const QString detail =
        QString("with %1, DP-SGD %2, PCA %3").arg(withPca).arg(dpSgdOnly).arg(pcaAlone);
    QVERIFY2(withPca > dpSgdOnly, qPrintable(detail));  // the PCA release costs something
    QVERIFY2(withPca <= dpSgdOnly + pcaAlone, qPrintable(detail));
    // The report's own PCA figure is the same PCA-alone ε.
    QVERIFY(std::abs(privacyStatement(run).pca->epsilon - pcaAlone) <= 1e-9 * pcaAlone);
    QCOMPARE(dpPcaEpsilon(k, pcaSigma, run.delta), privacyStatement(run).pca->epsilon);
  }

  void reportCarriesThePcaLine() {
    const PrivacyStatement report = privacyStatement(abadiRun(AccountantKind::Rdp, 4.0, 7.0));
    QVERIFY(report.pca.has_value());
    const std::string label = dpPcaLabel(report.pca->noiseMultiplier, report.pca->sampleFraction);
    QVERIFY2(QString::fromStdString(label).startsWith("PCA: σ 7 on 10% of the data"),
             label.c_str());
    PrivacyRunDescription plain = abadiRun(AccountantKind::Rdp, 4.0, 7.0);
    plain.pca = false;
    QVERIFY(!privacyStatement(plain).pca);
    // The PCA comes first, once, then the steps.
    const auto events = privacyEvents(abadiRun(AccountantKind::Rdp, 4.0, 7.0));
    QCOMPARE(events.size(), std::size_t(2));
    QVERIFY(events[0].first == gaussianEvent(7.0));
    QCOMPARE(events[0].second, 1LL);
  }

  void pcaWithoutNoiseIsNoGuarantee() {
    const PrivacyStatement report = privacyStatement(abadiRun(AccountantKind::Pld, 4.0, 0.0));
    QVERIFY(std::isinf(report.epsilon));
    QVERIFY(!report.isGuarantee());
    PrivacyRunDescription bad = abadiRun(AccountantKind::Rdp, 4.0, -1.0);
    try {
      privacyStatement(bad);
      QFAIL("expected a PrivacyError");
    } catch (const PrivacyError& e) {
      QVERIFY2(QString(e.what()).startsWith("model.pca_noise"), e.what());
    }
  }

  void previewCurveIncludesThePca_data() { addKinds(); }
  void previewCurveIncludesThePca() {
    QFETCH(int, kind);
    QFETCH(double, sigma);
    QFETCH(double, pcaSigma);
    const auto k = static_cast<AccountantKind>(kind);
    PrivacyRunDescription run = abadiRun(k, sigma, pcaSigma);
    const std::vector<long long> steps{0, 100, run.steps};
    std::vector<double> curve;  // the statement of the run's first s steps, for each s
    for (long long s : steps) curve.push_back(privacyStatement(firstSteps(run, s)).epsilon);
    // Step 0: the projection has already been released.
    QVERIFY(std::abs(curve[0] - dpPcaEpsilon(k, pcaSigma, run.delta)) < 1e-9 * curve[0]);
    QVERIFY(curve[1] > curve[0] && curve[2] > curve[1]);
    QVERIFY2(std::abs(curve[2] - privacyStatement(run).epsilon) < 1e-9 * curve[2],
             qPrintable(QString("%1 vs %2").arg(curve[2]).arg(privacyStatement(run).epsilon)));
    run.steps = 100;
    QVERIFY(std::abs(curve[1] - privacyStatement(run).epsilon) < 1e-9 * curve[1]);
  }

  // The PCA part stays fixed; the DP-SGD σ found meets the target with it included, and is
  // larger than without it (the budget left for the steps is smaller).
  void calibrationHoldsThePcaFixed_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("rdp") << int(AccountantKind::Rdp);
    // PLD shares the code path (the fixed event is composed into either accountant); its
    // calibration takes ~10 s on a loaded machine, so the suite checks it through RDP only.
  }
  void calibrationHoldsThePcaFixed() {
    QFETCH(int, kind);
    const auto k = static_cast<AccountantKind>(kind);
    const double q = 0.01, delta = 1e-5, target = 2.0;
    const long long steps = 300;
    CalibrationOptions options;
    options.relativeTolerance = 2e-3;  // a few PLD evaluations fewer keep the suite fast
    const Calibration with = calibrateDpSgd(k, q, steps, delta, target, 7.0, options);
    const Calibration without = calibrateDpSgd(k, q, steps, delta, target, std::nullopt, options);
    QVERIFY(with.epsilon <= target);
    QVERIFY2(
        with.noiseMultiplier > without.noiseMultiplier,
        qPrintable(QString("%1 vs %2").arg(with.noiseMultiplier).arg(without.noiseMultiplier)));
    PrivacyRunDescription run = abadiRun(k, with.noiseMultiplier, 7.0);
    run.sampleRate = q;
    run.steps = steps;
    QVERIFY(std::abs(privacyStatement(run).epsilon - with.epsilon) < 1e-9 * target);
    // Slightly less noise on the steps would break the target: σ is the smallest that fits.
    run.noiseMultipliers = {with.noiseMultiplier * (1.0 - 2.0 * options.relativeTolerance)};
    QVERIFY(privacyStatement(run).epsilon > target);
  }

  void calibrationRefusesWhenThePcaAloneSpendsTheBudget() {
    try {
      calibrateDpSgd(AccountantKind::Rdp, 0.01, 100, 1e-5, 0.5, 2.0);
      QFAIL("expected a PrivacyError");
    } catch (const PrivacyError& e) {
      QVERIFY2(
          QString(e.what()).contains("alone costs") && QString(e.what()).contains("held fixed"),
          e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestPrivacyPcaAccounting)
#include "test_privacy_pca_accounting.moc"
