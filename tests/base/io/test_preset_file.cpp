// Presets: the built-in files parse and expand to valid runs (every preset the issue names is
// there), strict parsing names the file and the key, quick settings and data-set fallbacks.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QTest>
#include <set>

#include "base/io/preset_file.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

QJsonObject minimalPreset() {
  return QJsonDocument::fromJson(R"({
    "format": "epsilonlab-preset", "version": 1, "name": "tiny", "title": "t", "source": "s",
    "reproduces": "r", "document_says": "d", "kind": "train",
    "experiment": {"dataset": {"name": "circle"}, "model": {"preset": "mlp", "hidden": [8]},
                   "training": {"lot_size": 32, "epochs": 4}},
    "sweep": [{"parameter": "noise_multiplier", "values": [0.5, 1, "2"]}],
    "quick": {"experiment": {"training": {"epochs": 1}}},
    "expected_trend": [{"figure": "F", "statement": "s", "metric": "final_accuracy",
                        "over": "noise_multiplier", "order": "decreasing"}]})")
      .object();
}

// The message of the ConfigError that parsing `json` throws ("" if it parses).
QString parseError(const QJsonObject& json) {
  try {
    presetFromJson(json, QStringLiteral("mine.json"));
  } catch (const ConfigError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestPresetFile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyPresetTheIssueNamesIsBuiltIn() {
    std::set<QString> names;
    for (const Preset& p : builtinPresets())
      QVERIFY2(names.insert(p.name).second, qPrintable(p.name));
    for (const char* name :
         {"report-fig3-clip-norm", "report-fig4-noise", "report-fig6-epsilon-epochs",
          "report-fig7-optimizers", "report-fig8-fashion-noise", "report-fig10-fashion-optimizers",
          "abadi-privacy-levels", "amian-tanh-output-range", "amian-tanh-active-range",
          "mindarmour-noise-decay", "mindarmour-adaptive-clip", "teach-more-data",
          "teach-clip-range", "teach-epochs-cost"})
      QVERIFY2(names.contains(QString::fromLatin1(name)), name);
    // The report's figures 3–10 each have a verdict somewhere.
    QStringList figures;
    for (const Preset& p : builtinPresets())
      if (p.name.startsWith(QLatin1String("report-")))
        for (const auto& t : p.trends) figures << t.figure;
    for (int fig = 3; fig <= 10; ++fig)
      QVERIFY2(figures.contains(QStringLiteral("Fig. %1").arg(fig)),
               qPrintable(QString::number(fig)));
  }

  void everyBuiltInPresetExpandsToValidRuns() {
    for (const Preset& p : builtinPresets()) {
      for (bool quick : {false, true}) {
        const auto base = presetBaseConfig(p, quick, QStringLiteral("mnist-10k"));
        const long long n =
            base.dataset.options.maxTrain > 0 ? base.dataset.options.maxTrain : 8000;
        const auto points = presetPoints(p, base, quick, train::RunPlanInput{n, 1});
        QVERIFY2(points.size() >= 3, qPrintable(p.name));
        for (std::size_t i = 0; i < points.size(); ++i)
          QCOMPARE(points[i].index, static_cast<int>(i));
        if (quick && p.kind != PresetKind::Accountant)
          QVERIFY2(points.front().config.totalSteps(n) <
                       presetPoints(p, presetBaseConfig(p, false, "mnist-10k"), false,
                                    train::RunPlanInput{8000, 1})
                           .front()
                           .config.totalSteps(8000),
                   qPrintable(p.name));
      }
    }
  }

  // Who pays for privacy: mnist-10k with the eights kept at 10%, DP-SGD beside no privacy.
  void whoPaysThinsTheEightsAndComparesWithNoPrivacy() {
    const Preset preset = findPreset(QStringLiteral("teach-who-pays"));
    const auto base = presetBaseConfig(preset, false, QStringLiteral("mnist-10k"));
    QCOMPARE(base.dataset.options.minorityClass, 8);
    QCOMPARE(base.dataset.options.minorityKeep, 0.1);
    const PresetPlan plan = planPreset(preset, QStringLiteral("mnist-10k"), false);
    QCOMPARE(plan.points.size(), std::size_t(6));  // three seeds each
    for (std::size_t i = 0; i < 6; ++i) {
      QCOMPARE(train::isPrivate(plan.points[i].config), i < 3);
      QCOMPARE(plan.points[i].config.training.seed, static_cast<std::uint64_t>(i % 3 + 1));
    }
    for (const auto& point : plan.points) QCOMPARE(point.config.dataset.options.minorityClass, 8);
  }

  void liraLessonAttacksAMemorisingModelAndTheSameAtEpsilonOneAndFour() {
    const Preset lira = findPreset(QStringLiteral("teach-lira-memorisation"));
    QCOMPARE(lira.kind, PresetKind::Calibrate);
    QCOMPARE(lira.calibration.targetEpsilons, (std::vector<double>{1.0, 4.0}));
    QVERIFY(lira.calibration.baseline);
    QVERIFY(lira.reproduces.contains(QStringLiteral("LiRA (16 shadow runs)")));
    const auto base = presetBaseConfig(lira, false, QStringLiteral("mnist-10k"));
    // Memorising: a small set, many epochs.
    QVERIFY(base.dataset.options.maxTrain == 1000);
    QVERIFY(base.training.epochs >= 50);
  }

  void variantsAndCalibrationGiveTheDocumentsSettings() {
    const Preset fig7 = findPreset(QStringLiteral("report-fig7-optimizers"));
    const auto points = presetPoints(fig7, presetBaseConfig(fig7, false, "mnist-10k"), false,
                                     train::RunPlanInput{8000, 1});
    QCOMPARE(points.size(), std::size_t{3});
    QCOMPARE(points[2].config.optimizer.options.kind, optim::OptimizerKind::Adam);
    QCOMPARE(points[2].config.optimizer.learningRate, 0.001);
    QCOMPARE(points[0].config.optimizer.learningRate, 0.1);
    QCOMPARE(points[0].config.privacy.privatizer.clipNorm, 4.0);
    QCOMPARE(points[0].values.front().second, std::string("sgd"));

    // Abadi: pca-mlp at the paper's (σ, σ_pca) = (8, 16), (4, 7), (2, 4), lot 600, C 4, lr 0.1
    // falling linearly to 0.052 over 10 epochs; the smallest budget has the most noise; + baseline.
    const Preset abadi = findPreset(QStringLiteral("abadi-privacy-levels"));
    const auto levels = presetPoints(abadi, presetBaseConfig(abadi, false, "mnist-10k"), false,
                                     train::RunPlanInput{8000, 1});
    QCOMPARE(levels.size(), std::size_t{4});
    QVERIFY(levels[0].config.privacy.noise.initial > levels[1].config.privacy.noise.initial);
    QVERIFY(levels[1].config.privacy.noise.initial > levels[2].config.privacy.noise.initial);
    QVERIFY(levels[2].config.privacy.noise.initial > 0.5);
    const double pcaNoise[] = {16.0, 7.0, 4.0, 0.0};
    for (std::size_t i = 0; i < levels.size(); ++i) {
      QCOMPARE(levels[i].config.model.preset, std::string("pca-mlp"));
      QCOMPARE(levels[i].config.model.pcaNoise, pcaNoise[i]);
      QCOMPARE(levels[i].config.model.pcaDims, 60);
      QCOMPARE(levels[i].config.model.pcaSampleFraction, 1.0);
      QCOMPARE(levels[i].config.training.lotSize, 600);
      QCOMPARE(levels[i].config.optimizer.lrDecay, optim::LearningRateDecay::Linear);
      QCOMPARE(levels[i].config.optimizer.lrDecayRate * levels[i].config.optimizer.learningRate,
               0.052);
    }
    QCOMPARE(levels[3].config.privacy.privatizer.kind, privacy::PrivatizerKind::None);
    QCOMPARE(levels[3].values.front().second, std::string("baseline"));

    // MindArmour: LeNet-5, Momentum 0.01 / 0.9, 16 examples per micro-batch, C 1, σ 1.
    const Preset mind = findPreset(QStringLiteral("mindarmour-adaptive-clip"));
    const auto runs = presetPoints(mind, presetBaseConfig(mind, false, "mnist-10k"), false,
                                   train::RunPlanInput{8000, 1});
    QCOMPARE(runs[2].config.model.preset, std::string("lenet5"));
    QCOMPARE(runs[2].config.privacy.microbatchSize, 16);
    QCOMPARE(runs[2].config.optimizer.options.momentum, 0.9);
    QCOMPARE(runs[2].config.privacy.privatizer.targetQuantile, 0.9);
    QCOMPARE(runs[2].config.privacy.privatizer.clipLearningRate, 0.001);
    QCOMPARE(runs[2].config.privacy.privatizer.clipPolicy, privacy::ClipUpdatePolicy::Linear);
    QCOMPARE(runs[3].config.privacy.privatizer.clipPolicy, privacy::ClipUpdatePolicy::Geometric);
  }

  void quickSettingsApplyLastAndMayReplaceTheSweep() {
    const Preset tiny = presetFromJson(minimalPreset(), "tiny.json");
    QCOMPARE(presetBaseConfig(tiny, false, {}).training.epochs, 4.0);
    QCOMPARE(presetBaseConfig(tiny, true, {}).training.epochs, 1.0);
    const auto points =
        presetPoints(tiny, presetBaseConfig(tiny, false, {}), false, train::RunPlanInput{800, 1});
    QCOMPARE(points.size(), std::size_t{3});
    QCOMPARE(points[2].config.privacy.noise.initial, 2.0);
    QCOMPARE(points[1].label, std::string("noise_multiplier=1"));

    const Preset epochs = findPreset(QStringLiteral("teach-epochs-cost"));
    QCOMPARE(presetPoints(epochs, presetBaseConfig(epochs, false, "mnist-10k"), false,
                          train::RunPlanInput{8000, 1})
                 .size(),
             std::size_t{5});
    const auto quick = presetPoints(epochs, presetBaseConfig(epochs, true, "mnist-10k"), true,
                                    train::RunPlanInput{4000, 1});
    QCOMPARE(quick.size(), std::size_t{3});
    QCOMPARE(quick[2].config.training.epochs, 3.0);
    QCOMPARE(quick[2].config.dataset.options.maxTrain, 4000L);
  }

  void unknownKeysAreErrorsNamingFileAndKey_data() {
    QTest::addColumn<QString>("path");  // where to put the stray key, '.'-separated
    QTest::addColumn<QString>("expected");
    QTest::newRow("top") << ""
                         << "mine.json: colour: unknown key";
    QTest::newRow("sweep axis") << "sweep.0"
                                << "mine.json: sweep[0].colour: unknown key";
    QTest::newRow("trend") << "expected_trend.0"
                           << "mine.json: expected_trend[0].colour: unknown key";
    QTest::newRow("quick") << "quick"
                           << "mine.json: quick.colour: unknown key";
    QTest::newRow("experiment") << "experiment.privacy"
                                << "mine.json: experiment.privacy.colour: unknown key";
  }
  void unknownKeysAreErrorsNamingFileAndKey() {
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QJsonObject json = minimalPreset();
    // Rebuild the path with the stray key inserted.
    std::function<QJsonValue(QJsonValue, QStringList)> insert =
        [&](QJsonValue v, QStringList parts) -> QJsonValue {
      if (parts.isEmpty()) {
        QJsonObject o = v.toObject();
        o.insert("colour", "blue");
        return o;
      }
      const QString head = parts.takeFirst();
      bool index = false;
      const int i = head.toInt(&index);
      if (index) {
        QJsonArray a = v.toArray();
        a[i] = insert(a[i], parts);
        return a;
      }
      QJsonObject o = v.toObject();
      o[head] = insert(o[head], parts);
      return o;
    };
    json = insert(json, path.isEmpty() ? QStringList{} : path.split('.')).toObject();
    QCOMPARE(parseError(json), expected);
  }

  void badPresetsAreRefusedWithTheReason_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");  // JSON; empty = remove the key
    QTest::addColumn<QString>("expected");
    QTest::newRow("format") << "format"
                            << R"("epsilonlab-experiment")"
                            << "mine.json: format: expected \"epsilonlab-preset\"";
    QTest::newRow("version") << "version"
                             << "2"
                             << "mine.json: version: expected 1, got 2";
    QTest::newRow("missing title") << "title"
                                   << ""
                                   << "mine.json: title: missing (required)";
    QTest::newRow("name") << "name"
                          << R"("Big Name")"
                          << "mine.json: name: expected lower-case";
    QTest::newRow("kind") << "kind"
                          << R"("magic")"
                          << "mine.json: kind: expected one of train, accountant, calibrate";
    QTest::newRow("parameter") << "sweep"
                               << R"([{"parameter": "colour", "values": [1]}])"
                               << "mine.json: sweep[0].parameter: unknown sweep parameter 'colour'";
    QTest::newRow("three axes")
        << "sweep"
        << R"([{"parameter": "seed", "values": [1]}, {"parameter": "epochs", "values": [1]}, {"parameter": "lot_size", "values": [1]}])"
        << "mine.json: sweep: expected one or two axes, got 3";
    QTest::newRow("both") << "variants"
                          << R"([{"key": "a"}])"
                          << "mine.json: sweep: expected exactly one of";
    QTest::newRow("metric")
        << "expected_trend"
        << R"([{"figure": "F", "statement": "s", "metric": "speed", "over": "seed", "order": "increasing"}])"
        << "mine.json: expected_trend[0].metric: expected one of";
    QTest::newRow("bad value")
        << "experiment"
        << R"({"privacy": {"noise_multiplier": "loud"}})"
        << "mine.json: experiment.privacy.noise_multiplier: expected a number";
    QTest::newRow("calibrate kind") << "calibrate"
                                    << R"({"target_epsilons": [1]})"
                                    << "mine.json: sweep: expected exactly one of";
  }
  void badPresetsAreRefusedWithTheReason() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    QJsonObject json = minimalPreset();
    if (value.isEmpty())
      json.remove(key);
    else
      json[key] = QJsonDocument::fromJson(("{\"v\": " + value + "}").toUtf8()).object()["v"];
    const QString error = parseError(json);
    QVERIFY2(error.startsWith(expected), qPrintable(error));
  }

  // A preset may expand to at most kMaxSweepRuns (10,000) runs, whichever way it makes them;
  // more is refused naming the file and the field (a hostile file cannot start millions).
  void hugeSweepsAreRefusedNamingFileAndField() {
    const auto numbers = [](int n) {
      QJsonArray values;
      for (int i = 1; i <= n; ++i) values.append(i);
      return values;
    };
    const auto axis = [&](const char* parameter, int n) {
      return QJsonObject{{"parameter", parameter}, {"values", numbers(n)}};
    };
    QJsonObject json = minimalPreset();
    json["sweep"] = QJsonArray{axis("seed", 100), axis("epochs", 100)};
    QCOMPARE(parseError(json), QString());  // exactly the limit is fine
    json["sweep"] = QJsonArray{axis("seed", 120), axis("epochs", 100)};
    QCOMPARE(parseError(json),
             QStringLiteral("mine.json: sweep: expands to 12000 runs, expected at most 10000"));

    json = minimalPreset();
    json["quick"] = QJsonObject{{"sweep", QJsonArray{axis("seed", 10001)}}};
    QVERIFY(parseError(json).startsWith("mine.json: quick.sweep: expands to 10001 runs"));

    json = minimalPreset();
    json.remove("sweep");
    QJsonArray variants;
    for (int i = 0; i <= 10000; ++i) variants.append(QJsonObject{{"key", QString::number(i)}});
    json["variants"] = variants;
    QVERIFY(parseError(json).startsWith("mine.json: variants: expands to 10001 runs"));

    json = minimalPreset();
    json.remove("sweep");
    json["kind"] = "calibrate";
    json["calibrate"] = QJsonObject{{"target_epsilons", numbers(10001)}};
    QVERIFY(parseError(json).startsWith(
        "mine.json: calibrate.target_epsilons: expands to 10001 runs, expected at most 10000"));
  }

  void filesAndNamesAreFound() {
    QTemporaryDir dir;
    const QString path = dir.filePath("tiny.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(minimalPreset()).toJson());
    file.close();
    QCOMPARE(findPreset(path).name, QString("tiny"));
    QCOMPARE(findPreset("report-fig4-noise").sweep.front().values.size(), std::size_t{5});
    try {
      findPreset("no-such-preset");
      QFAIL("expected a ConfigError");
    } catch (const ConfigError& e) {
      QVERIFY(QString(e.what()).startsWith("unknown preset 'no-such-preset'"));
      QVERIFY(QString(e.what()).contains("report-fig3-clip-norm"));
    }
  }

  void aMissingDataSetFallsBackAndSaysSo() {
    Preset p = presetFromJson(minimalPreset(), "tiny.json");
    p.datasetPreference = {"no-such-data-set", "mnist-10k"};
    QString note;
    QCOMPARE(chooseDataset(p, &note), QString("mnist-10k"));
    QVERIFY(note.contains("no-such-data-set is not installed"));
    p.datasetPreference = {"mnist-10k"};
    note.clear();
    QCOMPARE(chooseDataset(p, &note), QString("mnist-10k"));
    QVERIFY(note.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestPresetFile)
#include "test_preset_file.moc"
