// One privacy statement everywhere (docs/ARCHITECTURE.md, "One of each"): over every privatizer
// × noise schedule × accountant × sampling × PCA on/off, a trained run's ε at each evaluation
// is the very double the preview (epsilonCurve) gives for that step, whatever the evaluation
// frequency; and a σ calibrated for a target ε trains to an ε within [0.99, 1] × the target.
#include <QTest>
#include <cmath>
#include <map>

#include "core/data/registry.h"
#include "core/train/run_planning.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

using privacy::AccountantKind;
using privacy::NoiseDecay;
using privacy::PrivatizerKind;

// "xor", 80 points (64 for training), lots of 16: 4 steps an epoch, 2 epochs. The schedules
// decay slowly (ρ = 0.002), so PLD composes two distinct steps (its σ₀ and σ₀·0.99) and
// the suite stays fast; RDP accounts each of the 8 σ_t exactly.
ExperimentConfig smallConfig(PrivatizerKind privatizer, NoiseDecay decay, AccountantKind accountant,
                             SamplingKind sampling, bool pca) {
  ExperimentConfig c;
  c.dataset.name = "xor";
  c.dataset.options.size = 80;
  c.model.preset = pca ? "pca-mlp" : "mlp";
  c.model.hiddenWidths = {4};
  c.model.pcaDims = 2;
  c.model.pcaNoise = 6.0;
  c.model.pcaSampleFraction = 0.5;
  c.training.lotSize = 16;
  c.training.epochs = 2;
  c.training.seed = 5;
  c.privacy.privatizer.kind = privatizer;
  c.privacy.privatizer.clipNorm = 1.0;
  // σ large enough that each PLD accounting is quick (its loss grid is narrow).
  c.privacy.noise.initial = privatizer == PrivatizerKind::Tanh ? 12.0 : 2.5;
  c.privacy.privatizer.clipCountStddev = 20.0;  // adaptive: 2σ_b above every σ tried
  c.privacy.noise.decay = decay;
  c.privacy.noise.rate = decay == NoiseDecay::Constant ? 0.0 : 0.002;
  c.privacy.accountant = accountant;
  c.privacy.sampling = sampling;
  c.privacy.delta = 1e-3;
  return c;
}

std::shared_ptr<const data::Dataset> xorData() {
  static const auto dataset = std::make_shared<const data::Dataset>(
      data::loadDataset("xor", smallConfig(PrivatizerKind::Clip, NoiseDecay::Constant,
                                           AccountantKind::Rdp, SamplingKind::Poisson, false)
                                   .dataset.options));
  return dataset;
}

// ε at every evaluation of a run evaluated every `every` steps.
std::map<long long, double> trainedEpsilons(ExperimentConfig c, long long every) {
  c.training.evalEverySteps = every;
  const RunResult result = Trainer(c, xorData()).run();
  if (result.status != RunStatus::Done) qFatal("run failed: %s", result.message.c_str());
  std::map<long long, double> epsilons;
  for (const ProgressEvent& e : result.history) epsilons[e.step] = e.privacy.epsilon;
  return epsilons;
}

}  // namespace

class TestPrivacyAgreement : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void trainedEqualsPreviewAtEveryStep_data() {
    QTest::addColumn<int>("privatizer");
    QTest::addColumn<int>("decay");
    QTest::addColumn<int>("accountant");
    QTest::addColumn<int>("sampling");
    QTest::addColumn<bool>("pca");
    for (auto p : {PrivatizerKind::Clip, PrivatizerKind::Tanh, PrivatizerKind::Adaptive,
                   PrivatizerKind::None})
      for (auto d : {NoiseDecay::Constant, NoiseDecay::Time, NoiseDecay::Step, NoiseDecay::Exp})
        for (auto a : {AccountantKind::Rdp, AccountantKind::Pld})
          for (auto s : {SamplingKind::Poisson, SamplingKind::Shuffle})
            for (bool pca : {false, true})
              QTest::addRow("%s-%s-%s-%s-%s", privacy::privatizerName(p).c_str(),
                            privacy::noiseDecayName(d).c_str(), privacy::accountantKindName(a),
                            samplingName(s).c_str(), pca ? "pca" : "nopca")
                  << int(p) << int(d) << int(a) << int(s) << pca;
  }

  void trainedEqualsPreviewAtEveryStep() {
    QFETCH(int, privatizer);
    QFETCH(int, decay);
    QFETCH(int, accountant);
    QFETCH(int, sampling);
    QFETCH(bool, pca);
    const ExperimentConfig c = smallConfig(PrivatizerKind(privatizer), NoiseDecay(decay),
                                           AccountantKind(accountant), SamplingKind(sampling), pca);
    const auto everyStep = trainedEpsilons(c, 1);
    const auto everyOther = trainedEpsilons(c, 2);
    const RunPlanInput input = planInput(c, *xorData());
    std::vector<long long> steps;
    for (const auto& [step, epsilon] : everyStep)
      if (step > 0) steps.push_back(step);
    QCOMPARE(steps.size(), std::size_t(8));
    const EpsilonCurve preview = epsilonCurve(c, input, steps);
    for (const EpsilonCurvePoint& point : preview.points) {
      // The same double: compared bit for bit (∞ == ∞ for runs without a bound).
      QCOMPARE(everyStep.at(point.step), point.epsilon);
      if (everyOther.count(point.step)) QCOMPARE(everyOther.at(point.step), point.epsilon);
    }
    QCOMPARE(plannedPrivacy(c, input).epsilon, everyStep.rbegin()->second);
    if (PrivatizerKind(privatizer) != PrivatizerKind::None)
      QVERIFY(std::isfinite(preview.points.back().epsilon));
  }

  void calibratedRunsEndAtTheTarget_data() {
    QTest::addColumn<int>("privatizer");
    QTest::addColumn<int>("decay");
    QTest::addColumn<int>("accountant");
    QTest::addColumn<bool>("pca");
    QTest::addColumn<double>("target");
    for (auto p : {PrivatizerKind::Clip, PrivatizerKind::Tanh, PrivatizerKind::Adaptive})
      for (auto d : {NoiseDecay::Constant, NoiseDecay::Exp})
        for (auto a : {AccountantKind::Rdp, AccountantKind::Pld})
          QTest::addRow("%s-%s-%s", privacy::privatizerName(p).c_str(),
                        privacy::noiseDecayName(d).c_str(), privacy::accountantKindName(a))
              << int(p) << int(d) << int(a) << false << 2.0;
    QTest::addRow("pca-clip-rdp") << int(PrivatizerKind::Clip) << int(NoiseDecay::Constant)
                                  << int(AccountantKind::Rdp) << true << 3.0;
  }

  void calibratedRunsEndAtTheTarget() {
    QFETCH(int, privatizer);
    QFETCH(int, decay);
    QFETCH(int, accountant);
    QFETCH(bool, pca);
    QFETCH(double, target);
    ExperimentConfig c = smallConfig(PrivatizerKind(privatizer), NoiseDecay(decay),
                                     AccountantKind(accountant), SamplingKind::Poisson, pca);
    const RunPlanInput input = planInput(c, *xorData());
    c.privacy.noise.initial = calibrateNoise(c, input, target).noiseMultiplier;
    const RunResult result = Trainer(c, xorData()).run();
    QCOMPARE(result.status, RunStatus::Done);
    const double epsilon = result.history.back().privacy.epsilon;
    QVERIFY2(epsilon <= target && epsilon >= 0.99 * target,
             qPrintable(QStringLiteral("ε %1 for target %2").arg(epsilon).arg(target)));
  }
};

QTEST_APPLESS_MAIN(TestPrivacyAgreement)
#include "test_privacy_agreement.moc"
