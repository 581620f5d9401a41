// The private-tuning summary beside the Sweep map (issue 28, item 3): its three ε are the
// privacy statement's for the same settings — the tuned ε of the bounding run with the law,
// one run alone, and K runs composed — and its sentence shows each with δ, accountant and
// sampling; the PLD accountant, or no run bounding the others, is a sentence saying why.
#include <QTest>
#include <cmath>
#include <limits>

#include "base/io/number_format.h"
#include "base/io/tuning_summary.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/run_planning.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

RunRecord run(double sigma, double learningRate) {
  RunRecord r;
  r.name = QStringLiteral("σ %1 · lr %2").arg(sigma).arg(learningRate);
  r.config.dataset.name = "xor";
  r.config.dataset.options.size = 1000;
  r.config.model.hiddenWidths = {16, 16};
  r.config.privacy.noise.initial = sigma;
  r.config.optimizer.learningRate = learningRate;
  r.config.training.lotSize = 32;
  r.config.training.epochs = 10;
  return r;
}

// The statement asked directly: the σ 1 settings bound the σ 2 ones at every order.
privacy::PrivacyRunDescription boundingDescription() {
  const train::ExperimentConfig c = run(1.0, 0.1).config;
  return train::privacyDescription(c, train::planInput(c));
}

}  // namespace

class TestTuningSummary : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void numbersAreThePrivacyStatements() {
    const std::vector<RunRecord> runs{run(2.0, 0.1), run(1.0, 0.1), run(2.0, 0.3)};
    const privacy::TuningDistribution law{3.0, 1.0};  // geometric, mean 3
    const SweepTuningSummary s = sweepTuningSummary(runs, law);
    QVERIFY2(s.problem.isEmpty(), qPrintable(s.problem));
    QCOMPARE(s.runs, 3LL);
    QCOMPARE(s.boundingRun, runs[1].name);
    privacy::PrivacyRunDescription tuned = boundingDescription();
    const privacy::PrivacyRunDescription one = tuned;
    tuned.tuning = law;
    const double tunedEpsilon = privacy::privacyStatement(tuned).epsilon;
    const double oneEpsilon = privacy::privacyStatement(one).epsilon;
    const double composedEpsilon = privacy::privacyStatement(privacy::composedRuns(one, 3)).epsilon;
    QCOMPARE(s.tuned.epsilon, tunedEpsilon);
    QCOMPARE(s.tuned.tuning->singleRunEpsilon, oneEpsilon);
    QCOMPARE(s.composed.epsilon, composedEpsilon);
    QVERIFY(oneEpsilon < tunedEpsilon && tunedEpsilon < composedEpsilon);
    const QString text = describeSweepTuning(s);
    QVERIFY2(text.startsWith(QStringLiteral("Releasing the best of these runs costs ε = ") +
                             formatEpsilon(tunedEpsilon)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("one run alone: ") + formatEpsilon(oneEpsilon)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("all 3 composed: ") + formatEpsilon(composedEpsilon)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("geometric, mean 3")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("δ = 1e-5 · RDP · Poisson sampling")), qPrintable(text));
  }

  // Hidden runs are left out; a fixed sweep is summed up as K composed, beside what a Poisson
  // number of runs of mean K would have cost.
  void aFixedSweepIsComposedAndComparedWithARandomOne() {
    std::vector<RunRecord> runs{run(1.0, 0.1), run(1.0, 0.3), run(4.0, 0.1)};
    runs[2].visible = false;
    const SweepTuningSummary s = sweepTuningSummary(runs, std::nullopt);
    QVERIFY2(s.problem.isEmpty(), qPrintable(s.problem));
    QCOMPARE(s.runs, 2LL);
    QVERIFY(!s.drawnAtRandom);
    privacy::PrivacyRunDescription tuned = boundingDescription();
    tuned.tuning = privacy::TuningDistribution{2.0, kInf};
    QCOMPARE(s.tuned.epsilon, privacy::privacyStatement(tuned).epsilon);
    const QString text = describeSweepTuning(s);
    QVERIFY2(
        text.contains(QStringLiteral("all 2 composed: ε = ") + formatEpsilon(s.composed.epsilon)),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Poisson, mean 2")), qPrintable(text));
  }

  void pldAndNoBoundingRunAreSaid() {
    std::vector<RunRecord> runs{run(1.0, 0.1), run(2.0, 0.1)};
    for (RunRecord& r : runs) r.config.privacy.accountant = privacy::AccountantKind::Pld;
    const SweepTuningSummary pld = sweepTuningSummary(runs, std::nullopt);
    QVERIFY2(pld.problem.contains(QStringLiteral("PLD accountant")), qPrintable(pld.problem));
    QVERIFY(describeSweepTuning(pld).startsWith(QStringLiteral("No private-tuning summary")));
    const SweepTuningSummary none = sweepTuningSummary({}, std::nullopt);
    QVERIFY(!none.problem.isEmpty());
  }
};

QTEST_APPLESS_MAIN(TestTuningSummary)
#include "test_tuning_summary.moc"
