// One conformance suite run against every accountant (as dp_accounting does): refusal of
// unsupported events without a change of state, merged ledgers, cheap long runs,
// monotonicity, ε → δ → ε round trips, and the non-private and empty cases.
#include <QTest>
#include <cmath>
#include <memory>

#include "core/common/errors.h"
#include "core/privacy/calibration.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"

using namespace epsilon;
using namespace epsilon::privacy;

class TestPrivacyAccountants : public QObject {
  Q_OBJECT

 private:
  static void addKinds() {
    QTest::addColumn<int>("kind");
    QTest::newRow("rdp") << static_cast<int>(AccountantKind::Rdp);
    QTest::newRow("pld") << static_cast<int>(AccountantKind::Pld);
  }
  static std::unique_ptr<Accountant> make() {
    QFETCH(int, kind);
    return makeAccountant(static_cast<AccountantKind>(kind));
  }

 private Q_SLOTS:
  void namesAndFactory() {
    QCOMPARE(makeAccountant(AccountantKind::Rdp)->name(), std::string("rdp"));
    QCOMPARE(makeAccountant(AccountantKind::Pld)->name(), std::string("pld"));
    QCOMPARE(parseAccountantKind("pld"), AccountantKind::Pld);
    QVERIFY_THROWS_EXCEPTION(PrivacyError, parseAccountantKind("moments"));
  }

  void refusesUnsupportedWithoutChangingState_data() { addKinds(); }
  void refusesUnsupportedWithoutChangingState() {
    const auto accountant = make();
    accountant->compose(dpSgdStepEvent(0.01, 1.0), 100);
    const double before = accountant->epsilon(1e-5);
    const DpEvent nested = poissonSampledEvent(0.5, dpSgdStepEvent(0.01, 1.0));
    QVERIFY(!accountant->supports(nested));
    try {
      accountant->compose(composedEvent({gaussianEvent(1.0), nested}));
      QFAIL("an unsupported event was accepted");
    } catch (const PrivacyError& e) {
      const std::string message = e.what();
      QVERIFY2(message.find("PoissonSampled(q=0.5") != std::string::npos, e.what());
      QVERIFY2(message.find(accountant->name()) != std::string::npos, e.what());
    }
    // Invalid parameters and counts are refused before any change too.
    QVERIFY_THROWS_EXCEPTION(PrivacyError, accountant->compose(dpSgdStepEvent(0.01, -1.0)));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, accountant->compose(dpSgdStepEvent(0.01, 1.0), -3));
    QCOMPARE(accountant->ledger().entries().size(), std::size_t{1});
    QCOMPARE(accountant->ledger().entries()[0].count, 100LL);
    QCOMPARE(accountant->epsilon(1e-5), before);
  }

  void repeatedStepsAreMerged_data() { addKinds(); }
  void repeatedStepsAreMerged() {
    const auto stepByStep = make();
    for (int i = 0; i < 2000; ++i) stepByStep->compose(dpSgdStepEvent(0.01, 1.1));
    QCOMPARE(stepByStep->ledger().entries().size(), std::size_t{1});
    const auto atOnce = make();
    atOnce->compose(dpSgdStepEvent(0.01, 1.1), 2000);
    QCOMPARE(stepByStep->epsilon(1e-5), atOnce->epsilon(1e-5));
    const auto selfComposed = make();
    selfComposed->compose(selfComposedEvent(dpSgdStepEvent(0.01, 1.1), 2000));
    QVERIFY(std::fabs(selfComposed->epsilon(1e-5) - atOnce->epsilon(1e-5)) < 1e-12);
  }

  // The cost of a query does not grow with the number of steps (counted, not timed: the
  // ledger holds one entry whether 1 or 10⁵ steps were composed).
  void longRunsCostOneEntry_data() { addKinds(); }
  void longRunsCostOneEntry() {
    const auto accountant = make();
    for (int epoch = 0; epoch < 100; ++epoch) accountant->compose(dpSgdStepEvent(0.001, 1.0), 1000);
    QCOMPARE(accountant->ledger().entries().size(), std::size_t{1});
    QCOMPARE(accountant->ledger().entries()[0].count, 100000LL);
    const double epsilon = accountant->epsilon(1e-5);
    QVERIFY(std::isfinite(epsilon) && epsilon > 0.0);
  }

  void heterogeneousStepsCompose_data() { addKinds(); }
  void heterogeneousStepsCompose() {
    // Order does not matter, and a decaying σ costs more than its largest value alone.
    const auto forward = make();
    const auto backward = make();
    const double sigmas[] = {2.0, 1.5, 1.2, 1.0};
    for (double sigma : sigmas) forward->compose(dpSgdStepEvent(0.02, sigma), 250);
    for (int k = 3; k >= 0; --k) backward->compose(dpSgdStepEvent(0.02, sigmas[k]), 250);
    QVERIFY(std::fabs(forward->epsilon(1e-5) - backward->epsilon(1e-5)) < 1e-9);
    const auto constant = make();
    constant->compose(dpSgdStepEvent(0.02, 2.0), 1000);
    const auto weakest = make();
    weakest->compose(dpSgdStepEvent(0.02, 1.0), 1000);
    QVERIFY(constant->epsilon(1e-5) < forward->epsilon(1e-5));
    QVERIFY(forward->epsilon(1e-5) < weakest->epsilon(1e-5));
  }

  void monotone_data() { addKinds(); }
  void monotone() {
    double previous = 0.0;
    for (long long steps : {10LL, 100LL, 1000LL}) {
      const auto accountant = make();
      accountant->compose(dpSgdStepEvent(0.01, 1.0), steps);
      const double epsilon = accountant->epsilon(1e-5);
      QVERIFY(epsilon > previous);
      previous = epsilon;
    }
    previous = INFINITY;
    for (double sigma : {0.8, 1.2, 2.0}) {
      const auto accountant = make();
      accountant->compose(dpSgdStepEvent(0.01, sigma), 500);
      const double epsilon = accountant->epsilon(1e-5);
      QVERIFY(epsilon < previous);
      previous = epsilon;
    }
  }

  void roundTrip_data() { addKinds(); }
  void roundTrip() {
    const auto accountant = make();
    accountant->compose(dpSgdStepEvent(0.04, 1.5), 2250);
    for (double delta : {1e-4, 1e-6}) {
      const double epsilon = accountant->epsilon(delta);
      QVERIFY(std::fabs(accountant->delta(epsilon) - delta) < 1e-6 * delta);
    }
    // Larger δ, smaller ε.
    QVERIFY(accountant->epsilon(1e-3) < accountant->epsilon(1e-7));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, accountant->epsilon(0.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, accountant->epsilon(1.0));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, accountant->delta(-1.0));
  }

  void emptyAndNonPrivate_data() { addKinds(); }
  void emptyAndNonPrivate() {
    const auto accountant = make();
    QCOMPARE(accountant->epsilon(1e-5), 0.0);
    QCOMPARE(accountant->delta(0.0), 0.0);
    accountant->compose(NoOpEvent{}, 10);
    accountant->compose(dpSgdStepEvent(0.0, 1.0), 10);
    QCOMPARE(accountant->epsilon(1e-5), 0.0);
    accountant->compose(NonPrivateEvent{});
    QVERIFY(std::isinf(accountant->epsilon(1e-5)));
    QCOMPARE(accountant->delta(100.0), 1.0);
    accountant->reset();
    QVERIFY(accountant->ledger().empty());
    QCOMPARE(accountant->epsilon(1e-5), 0.0);
  }

  void rdpReportsOrder() {
    RdpAccountant accountant;
    accountant.compose(dpSgdStepEvent(0.01, 4.0), 10000);
    const RdpEpsilon result = accountant.epsilonAndOrder(1e-5);
    QCOMPARE(result.order, 17.0);
    QCOMPARE(accountant.rdpCurve().size(), defaultRdpOrders().size());
    RdpAccountantOptions opacus;
    opacus.orders = opacusRdpOrders();
    RdpAccountant withOpacusOrders(opacus);
    withOpacusOrders.compose(dpSgdStepEvent(0.04, 1.5), 2250);
    QVERIFY(std::fabs(withOpacusOrders.epsilon(1e-5) - 7.32911117143) < 1e-9);
  }
};

QTEST_APPLESS_MAIN(TestPrivacyAccountants)
#include "test_privacy_accountants.moc"
