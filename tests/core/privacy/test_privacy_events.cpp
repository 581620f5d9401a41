// Privacy events as values: equality, descriptions, validation, the ledger's merging and
// the reduction of Poisson-sampled compositions to one Gaussian.
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/privacy/accountant.h"
#include "core/privacy/dp_event.h"

using namespace epsilon;
using namespace epsilon::privacy;

class TestPrivacyEvents : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void equalityComparesTheWholeTree() {
    const DpEvent a = selfComposedEvent(dpSgdStepEvent(0.01, 1.1), 100);
    const DpEvent b = selfComposedEvent(dpSgdStepEvent(0.01, 1.1), 100);
    QVERIFY(a == b);
    QVERIFY(!(a == selfComposedEvent(dpSgdStepEvent(0.01, 1.1), 101)));
    QVERIFY(!(a == selfComposedEvent(dpSgdStepEvent(0.02, 1.1), 100)));
    QVERIFY(!(dpSgdStepEvent(0.01, 1.1) == dpSgdStepEvent(0.01, 1.2)));
    QVERIFY(composedEvent({gaussianEvent(1), NoOpEvent{}}) ==
            composedEvent({gaussianEvent(1), NoOpEvent{}}));
    QVERIFY(!(DpEvent(NoOpEvent{}) == DpEvent(NonPrivateEvent{})));
  }

  void describeNamesParameters() {
    QCOMPARE(describe(dpSgdStepEvent(0.01, 4)),
             std::string("PoissonSampled(q=0.01, Gaussian(sigma=4))"));
    QCOMPARE(describe(selfComposedEvent(gaussianEvent(2), 3)),
             std::string("SelfComposed(Gaussian(sigma=2), count=3)"));
  }

  void validateNamesTheField() {
    try {
      validate(dpSgdStepEvent(1.5, 1.0));
      QFAIL("q = 1.5 accepted");
    } catch (const PrivacyError& e) {
      QVERIFY(std::string(e.what()).find("sample rate") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(PrivacyError, validate(gaussianEvent(0.0)));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, validate(gaussianEvent(std::nan(""))));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, validate(selfComposedEvent(gaussianEvent(1), -1)));
    validate(dpSgdStepEvent(0.0, 1.0));  // q = 0 is valid (costs nothing)
  }

  void ledgerMergesEqualEntries() {
    PrivacyLedger ledger;
    for (int i = 0; i < 1000; ++i) ledger.add(dpSgdStepEvent(0.01, 1.1), 1);
    ledger.add(dpSgdStepEvent(0.01, 0.9), 5);
    ledger.add(dpSgdStepEvent(0.01, 1.1), 10);
    QCOMPARE(ledger.entries().size(), std::size_t{2});
    QCOMPARE(ledger.entries()[0].count, 1010LL);
    QCOMPARE(ledger.entries()[1].count, 5LL);
  }

  void sampledCompositionIsOneGaussian() {
    // Adaptive clipping's two releases on one sample: 1/σ² = 1/σ_Δ² + 1/(2σ_b)².
    GaussianAtoms atoms;
    addGaussianAtoms(
        poissonSampledEvent(0.01, composedEvent({gaussianEvent(1.2), gaussianEvent(10.0)})), 7,
        atoms);
    QCOMPARE(atoms.gaussians.size(), std::size_t{1});
    QCOMPARE(atoms.gaussians[0].second, 7LL);
    const double expected = 1.0 / std::sqrt(1.0 / 1.44 + 1.0 / 100.0);
    QVERIFY(std::fabs(atoms.gaussians[0].first.noiseMultiplier - expected) < 1e-12);
    // Self-composition multiplies counts; equal atoms merge across entries.
    addGaussianAtoms(selfComposedEvent(dpSgdStepEvent(0.02, 1.0), 4), 3, atoms);
    addGaussianAtoms(dpSgdStepEvent(0.02, 1.0), 1, atoms);
    QCOMPARE(atoms.gaussians.size(), std::size_t{2});
    QCOMPARE(atoms.gaussians[1].second, 13LL);
  }

  void nestedSamplingIsUnsupported() {
    QVERIFY(!gaussianReductionProblem(dpSgdStepEvent(0.1, 1.0)).has_value());
    const auto problem =
        gaussianReductionProblem(poissonSampledEvent(0.1, dpSgdStepEvent(0.1, 1.0)));
    QVERIFY(problem.has_value());
    QVERIFY(problem->find("PoissonSampled") != std::string::npos);
    QVERIFY(gaussianReductionProblem(poissonSampledEvent(0.1, NonPrivateEvent{})).has_value());
  }
};

QTEST_APPLESS_MAIN(TestPrivacyEvents)
#include "test_privacy_events.moc"
