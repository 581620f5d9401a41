// The experiment file format: every field survives a round trip; a file may give only some
// keys; unknown keys, wrong types, wrong format or version are ConfigErrors naming the key.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "base/io/experiment_json.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;
using train::ExperimentConfig;

namespace {

ExperimentConfig unusual() {
  ExperimentConfig c;
  c.dataset.name = "spiral";
  c.dataset.options.noise = 0.3;
  c.dataset.options.size = 555;
  c.dataset.options.trainFraction = 0.6;
  c.dataset.options.seed = 9007199254740991ULL;  // 2^53 − 1 still exact
  c.dataset.options.maxTrain = 123;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {32, 16};
  auto& z = c.privacy.privatizer;
  z.kind = privacy::PrivatizerKind::Adaptive;
  z.clipNorm = 0.7;
  z.perLayer = true;
  z.tanhScale = 2.5;
  z.tanhActiveRange = 3.5;
  z.targetQuantile = 0.9;
  z.clipLearningRate = 0.001;
  z.clipPolicy = privacy::ClipUpdatePolicy::Linear;
  z.fractionStddev = 0.01;
  c.privacy.noise = {.initial = 1.3, .decay = privacy::NoiseDecay::Step, .rate = 0.001};
  c.privacy.microbatchSize = 16;
  c.privacy.delta = 1e-6;
  c.privacy.accountant = privacy::AccountantKind::Pld;
  c.privacy.sampling = train::SamplingKind::Shuffle;
  c.optimizer.options = {.kind = optim::OptimizerKind::RmsProp,
                         .momentum = 0.5,
                         .nesterov = true,
                         .beta1 = 0.8,
                         .beta2 = 0.99,
                         .rho = 0.95,
                         .initialAccumulator = 0.2,
                         .epsilon = 1e-6};
  c.optimizer.learningRate = 0.003;
  c.optimizer.lrDecay = optim::LearningRateDecay::Exponential;
  c.optimizer.lrDecayRate = 0.9;
  c.optimizer.lrDecayEpochs = 2.5;
  c.training = {.lotSize = 128,
                .epochs = 7.5,
                .steps = 1000,
                .evalEveryEpoch = false,
                .evalEverySteps = 50,
                .seed = 77,
                .snapshots = true};
  return c;
}

QString errorOf(const QByteArray& json) {
  try {
    experimentFromJson(QJsonDocument::fromJson(json).object());
  } catch (const ConfigError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestExperimentJson : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripKeepsEveryField() {
    const ExperimentConfig c = unusual();
    const QJsonObject json = experimentToJson(c);
    QCOMPARE(json["format"].toString(), QString("epsilonlab-experiment"));
    QCOMPARE(json["version"].toInt(), 1);
    // Through text, as a file would be.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    const ExperimentConfig back = experimentFromJson(reread);
    QCOMPARE(experimentToJson(back), json);
    QCOMPARE(back.dataset.options.seed, c.dataset.options.seed);
    QCOMPARE(back.model.hiddenWidths, c.model.hiddenWidths);
    QVERIFY(back.privacy.privatizer.fractionStddev.has_value());
    QVERIFY(!back.privacy.privatizer.clipCountStddev.has_value());
    QCOMPARE(back.privacy.accountant, privacy::AccountantKind::Pld);
    QCOMPARE(back.training.evalEverySteps, 50LL);
    QVERIFY(back.training.snapshots);
  }

  void pcaFieldsRoundTrip() {
    ExperimentConfig c = unusual();
    c.model.preset = "pca-mlp";
    c.model.pcaDims = 24;
    c.model.pcaNoise = 16.5;
    c.model.pcaSampleFraction = 0.35;
    const QJsonObject json = experimentToJson(c);
    const QJsonObject model = json["model"].toObject();
    QCOMPARE(model["pca_dims"].toInt(), 24);
    QCOMPARE(model["pca_noise"].toDouble(), 16.5);
    QCOMPARE(model["pca_sample"].toDouble(), 0.35);
    const ExperimentConfig back =
        experimentFromJson(QJsonDocument::fromJson(QJsonDocument(json).toJson()).object());
    QCOMPARE(back.model.pcaDims, 24);
    QCOMPARE(back.model.pcaNoise, 16.5);
    QCOMPARE(back.model.pcaSampleFraction, 0.35);
    QCOMPARE(experimentToJson(back), json);
  }

  void fileWithoutPcaFieldsKeepsTheDefaults() {
    // Written before the projection existed: no pca_* keys; they keep the base's values.
    QJsonObject json = experimentToJson(ExperimentConfig{});
    QJsonObject model = json["model"].toObject();
    for (const char* key : {"pca_dims", "pca_noise", "pca_sample"})
      model.remove(QLatin1String(key));
    model["preset"] = "pca-mlp";
    json["model"] = model;
    const ExperimentConfig defaults;
    const ExperimentConfig back = experimentFromJson(json);
    QCOMPARE(back.model.preset, std::string("pca-mlp"));
    QCOMPARE(back.model.pcaDims, defaults.model.pcaDims);
    QCOMPARE(back.model.pcaNoise, defaults.model.pcaNoise);
    QCOMPARE(back.model.pcaSampleFraction, defaults.model.pcaSampleFraction);
    back.validate();  // and it is a valid pca-mlp experiment
  }

  void partialFileKeepsTheBase() {
    const ExperimentConfig back = experimentFromJson(
        QJsonDocument::fromJson(
            R"({"format": "epsilonlab-experiment", "version": 1, "optimizer": {"learning_rate": 0.5}})")
            .object(),
        unusual());
    QCOMPARE(back.optimizer.learningRate, 0.5);
    QCOMPARE(back.optimizer.options.kind, optim::OptimizerKind::RmsProp);
    QCOMPARE(back.dataset.name, std::string("spiral"));
  }

  void errorsNameTheKey_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("prefix");
    const QByteArray head = R"({"format": "epsilonlab-experiment", "version": 1, )";
    QTest::newRow("unknown key") << head + R"("training": {"epoch": 3}})"
                                 << "training.epoch: unknown key";
    QTest::newRow("unknown top-level key") << head + R"("notes": "x"})"
                                           << "notes: unknown key";
    QTest::newRow("string for a number") << head + R"("privacy": {"clip_norm": "1"}})"
                                         << "privacy.clip_norm: expected a number";
    QTest::newRow("fraction for an integer") << head + R"("training": {"lot_size": 2.5}})"
                                             << "training.lot_size: expected an integer";
    QTest::newRow("bad choice") << head + R"("privacy": {"sampling": "uniform"}})"
                                << "privacy.sampling: expected one of poisson, shuffle";
    QTest::newRow("bad hidden") << head + R"("model": {"hidden": [8, 0]}})"
                                << "model.hidden: expected integers";
    QTest::newRow("string for pca_noise") << head + R"("model": {"pca_noise": "7"}})"
                                          << "model.pca_noise: expected a number";
    QTest::newRow("fraction for pca_dims") << head + R"("model": {"pca_dims": 6.5}})"
                                           << "model.pca_dims: expected an integer";
    QTest::newRow("pca_dims out of range") << head + R"("model": {"pca_dims": 0}})"
                                           << "model.pca_dims: expected an integer";
    QTest::newRow("bool for pca_sample") << head + R"("model": {"pca_sample": true}})"
                                         << "model.pca_sample: expected a number";
    QTest::newRow("section not an object") << head + R"("model": 3})"
                                           << "model: expected an object";
    QTest::newRow("no format") << QByteArray(R"({"version": 1})") << "format: expected";
    QTest::newRow("version 2") << QByteArray(R"({"format": "epsilonlab-experiment", "version": 2})")
                               << "version: expected 1, got 2";
  }
  void errorsNameTheKey() {
    QFETCH(QByteArray, json);
    QFETCH(QString, prefix);
    const QString error = errorOf(json);
    QVERIFY2(error.startsWith(prefix), qPrintable(error));
  }

  void csvHasOneRowPerEvaluation() {
    train::ProgressEvent e;
    e.step = 10;
    e.epoch = 0.5;
    e.trainLoss = 0.25;
    e.privacy.epsilon =
        std::numeric_limits<double>::infinity();  // no guarantee: "inf", as in the JSON
    e.privacy.sampling = privacy::SamplingKind::Shuffle;
    const QByteArray csv = historyToCsv({e, e});
    const QList<QByteArray> rows = csv.split('\n');
    QCOMPARE(rows.size(), 4);  // header, two rows, the final empty piece
    QVERIFY2(rows[0].startsWith(
                 "run,total_steps,step,epoch,train_loss,test_accuracy,test_loss,epsilon,"),
             rows[0].constData());
    QVERIFY2(rows[1].startsWith("0,0,10,0.5,0.25,,,inf,"), rows[1].constData());
    QVERIFY(rows[1].contains(",assumes Poisson sampling (batches were shuffled),"));
  }
};

QTEST_APPLESS_MAIN(TestExperimentJson)
#include "test_experiment_json.moc"
