// A "pca-mlp" run end to end: the projection is computed in the job before the first step,
// its release is in every ε from step 0 on (between the DP-SGD-only ε and that plus the PCA's
// ε alone), the privacy line names it, the network learns, and the run is deterministic.
#include <QTest>
#include <cmath>

#include "core/common/errors.h"
#include "core/common/random.h"
#include "core/privacy/dp_pca.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

// Two classes in 16 dimensions: ±1.5 along one fixed direction plus unit Gaussian noise.
data::Split twoClasses(Eigen::Index n, std::uint32_t stream) {
  const PhiloxStream random(5, RandomPurpose::Test, stream);
  data::Split split;
  split.features.resize(n, 16);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % 2);
    split.labels.push_back(label);
    for (Eigen::Index j = 0; j < 16; ++j) {
      const double direction = (j % 4 == 0) ? 0.5 : 0.0;  // unit norm: four entries of 0.5
      const double mean = (label == 1 ? 1.5 : -1.5) * direction * 2.0;
      split.features(i, j) =
          static_cast<float>(mean + random.normal(static_cast<std::uint64_t>(i * 16 + j)));
    }
  }
  return split;
}

std::shared_ptr<const data::Dataset> dataset() {
  static const auto data = [] {
    data::Dataset d;
    d.name = "two-classes-16d";
    d.shape = data::SampleShape::features(16);
    d.classNames = {"a", "b"};
    d.train = twoClasses(800, 1);
    d.test = twoClasses(200, 2);
    return std::make_shared<const data::Dataset>(std::move(d));
  }();
  return data;
}

ExperimentConfig pcaConfig() {
  ExperimentConfig c;
  c.dataset.name = "two-classes-16d";
  c.model.preset = "pca-mlp";
  c.model.pcaDims = 4;
  c.model.pcaNoise = 4.0;
  c.model.pcaSampleFraction = 0.5;
  c.training.lotSize = 40;
  c.training.epochs = 5;  // 100 steps at q = 0.05
  c.training.seed = 11;
  c.privacy.noise.initial = 1.0;
  c.privacy.privatizer.clipNorm = 1.0;
  c.optimizer.learningRate = 0.1;
  return c;
}

double dpSgdOnlyEpsilon(const ExperimentConfig& c, long long steps) {
  const auto accountant = privacy::makeAccountant(c.privacy.accountant);
  accountant->compose(privacy::dpSgdStepEvent(c.training.lotSize / 800.0, c.privacy.noise.initial),
                      steps);
  return accountant->epsilon(c.privacy.delta);
}

}  // namespace

class TestTrainerPca : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pcaRunIsAccountedFromStepZero_data() {
    QTest::addColumn<int>("accountant");
    QTest::newRow("rdp") << int(privacy::AccountantKind::Rdp);
    QTest::newRow("pld") << int(privacy::AccountantKind::Pld);
  }
  void pcaRunIsAccountedFromStepZero() {
    QFETCH(int, accountant);
    ExperimentConfig config = pcaConfig();
    config.privacy.accountant = static_cast<privacy::AccountantKind>(accountant);
    std::vector<std::string> messages;
    const RunResult result = Trainer(config, dataset()).run([&](const ProgressEvent& e) {
      if (e.kind == EventKind::Status) messages.push_back(e.message);
    });
    QCOMPARE(runStatusName(result.status), std::string("done"));
    QVERIFY(std::find(messages.begin(), messages.end(), "computing the DP-PCA projection") !=
            messages.end());
    QVERIFY2(
        QString::fromStdString(result.modelSummary).contains("projection 16 → 4 (fixed, DP-PCA)"),
        result.modelSummary.c_str());

    const double pcaAlone =
        privacy::dpPcaEpsilon(config.privacy.accountant, 4.0, config.privacy.delta);
    const privacy::PrivacyStatement& first = result.history.front().privacy;
    QCOMPARE(result.history.front().step, 0LL);
    QVERIFY2(std::abs(first.epsilon - pcaAlone) < 1e-9 * pcaAlone,
             qPrintable(QString::number(first.epsilon)));
    QVERIFY(first.pca.has_value());
    QCOMPARE(first.pca->noiseMultiplier, 4.0);
    QCOMPARE(first.pca->sampleFraction, 0.5);

    const ProgressEvent& last = result.history.back();
    QCOMPARE(last.step, 100LL);
    const double dpSgd = dpSgdOnlyEpsilon(config, 100);
    const QString detail =
        QString("run %1, DP-SGD %2, PCA %3").arg(last.privacy.epsilon).arg(dpSgd).arg(pcaAlone);
    QVERIFY2(last.privacy.epsilon > dpSgd && last.privacy.epsilon <= dpSgd + pcaAlone,
             qPrintable(detail));
    QVERIFY(last.privacy.isGuarantee());
    QVERIFY2(last.testAccuracy >= 0.85, qPrintable(QString::number(last.testAccuracy)));
  }

  void deterministicForASeed() {
    const RunResult a = Trainer(pcaConfig(), dataset()).run({});
    const RunResult b = Trainer(pcaConfig(), dataset()).run({});
    QVERIFY(a.model && b.model);
    QCOMPARE((a.model->parameters() - b.model->parameters()).cwiseAbs().maxCoeff(), 0.0f);
    QCOMPARE(a.history.back().testAccuracy, b.history.back().testAccuracy);
  }

  void badPcaSettingsFailOnInput() {
    ExperimentConfig config = pcaConfig();
    config.model.pcaDims = 17;  // the data has 16 features
    const RunResult result = Trainer(config, dataset()).run({});
    QVERIFY(failedOnInput(result));
    QVERIFY2(QString::fromStdString(result.message).startsWith("model.pca_dims"),
             result.message.c_str());
    config.model.pcaDims = 4;
    config.model.pcaSampleFraction = 0.0;
    QVERIFY_THROWS_EXCEPTION(ConfigError, config.validate());
  }
};

QTEST_APPLESS_MAIN(TestTrainerPca)
#include "test_trainer_pca.moc"
