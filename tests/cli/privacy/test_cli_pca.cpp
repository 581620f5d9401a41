// The DP-PCA projection through the CLI, as a user would run it: a pca-mlp run's ε lies between
// the DP-SGD-only ε and that plus the PCA release's own ε, all three from the CLI, for RDP and
// PLD; `epsilon` accounts DP-SGD only, both, or the PCA alone; `calibrate` holds the PCA fixed;
// every bad PCA value exits 2 naming its flag; experiment files carry the three settings, and
// `sweep` can vary them.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "cli_runner.h"

namespace {

using Run = epsilon::test::CliOutcome;
using epsilon::test::runCli;

QJsonObject lastJson(const Run& run) {
  const auto lines = run.jsonLines();
  return lines.isEmpty() ? QJsonObject{} : lines.back();
}

// `epsilonlab-cli epsilon` with the given flags; its ε (NaN when it failed).
double cliEpsilon(const QStringList& flags) {
  const Run run = runCli(QStringList{"epsilon", "--delta", "1e-5"} + flags);
  if (run.exitCode != 0) return std::nan("");
  return lastJson(run)["epsilon"].toDouble(std::nan(""));
}

const QStringList kPcaRun = {"--dataset",
                             "uci-digits",
                             "--model",
                             "pca-mlp",
                             "--pca-dims",
                             "16",
                             "--pca-noise",
                             "4",
                             "--pca-sample",
                             "0.5",
                             "--batch-size",
                             "100",
                             "--steps",
                             "30",
                             "--noise-multiplier",
                             "2",
                             "--clip-norm",
                             "1",
                             "--lr",
                             "0.1",
                             "--delta",
                             "1e-5"};

// The experiment kPcaRun resolves to, as `train --print-config` prints it (empty on failure).
QJsonObject pcaExperiment() {
  const Run printed = runCli(QStringList{"train", "--print-config"} + kPcaRun);
  return printed.exitCode == 0 ? lastJson(printed) : QJsonObject{};
}

bool writeJson(const QString& path, const QJsonObject& object) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
         file.write(QJsonDocument(object).toJson()) > 0;
}

}  // namespace

class TestCliPca : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void trainedEpsilonLiesBetweenTheParts_data() {
    QTest::addColumn<QString>("accountant");
    QTest::newRow("rdp") << "rdp";
    QTest::newRow("pld") << "pld";
  }
  void trainedEpsilonLiesBetweenTheParts() {
    QFETCH(QString, accountant);
    const Run train =
        runCli(QStringList{"train"} + kPcaRun + QStringList{"--accountant", accountant});
    QCOMPARE(train.exitCode, 0);
    const QJsonObject last = lastJson(train);
    QCOMPARE(last["accountant"].toString(), accountant);
    QVERIFY2(last["pca_label"].toString().startsWith(QStringLiteral("PCA: σ 4 on 50% of the data")),
             qPrintable(last["pca_label"].toString()));
    const double withPca = last["epsilon"].toDouble();
    const qint64 steps = last["step"].toInteger();
    QCOMPARE(steps, 30);
    // uci-digits has 1,438 training images: q = L/N.
    const QString q = QString::number(100.0 / 1438.0, 'g', 17);
    const QStringList common{"--accountant", accountant};
    const double dpSgdOnly =
        cliEpsilon(common + QStringList{"--sample-rate", q, "--steps", QString::number(steps),
                                        "--noise-multiplier", "2"});
    const double pcaAlone = cliEpsilon(common + QStringList{"--steps", "0", "--pca-noise", "4"});
    const QString detail = QStringLiteral("train %1, DP-SGD only %2, PCA alone %3")
                               .arg(withPca)
                               .arg(dpSgdOnly)
                               .arg(pcaAlone);
    QVERIFY2(std::isfinite(dpSgdOnly) && std::isfinite(pcaAlone), qPrintable(detail));
    QVERIFY2(withPca >= dpSgdOnly, qPrintable(detail));
    QVERIFY2(withPca > dpSgdOnly * (1 + 1e-6), qPrintable(detail));  // the PCA release is charged
    QVERIFY2(withPca <= dpSgdOnly + pcaAlone, qPrintable(detail));
    // `epsilon` with the same PCA flags composes the same ledger as the run.
    const double both =
        cliEpsilon(common + QStringList{"--sample-rate", q, "--steps", QString::number(steps),
                                        "--noise-multiplier", "2", "--pca-noise", "4"});
    QVERIFY2(std::abs(both - withPca) <= 1e-6 * withPca,
             qPrintable(detail + QStringLiteral(", epsilon --pca-noise %1").arg(both)));
  }

  void epsilonNamesTheMechanism() {
    const Run pcaOnly = runCli({"epsilon", "--steps", "0", "--pca-noise", "7", "--delta", "1e-5"});
    QCOMPARE(pcaOnly.exitCode, 0);
    const QJsonObject alone = lastJson(pcaOnly);
    QCOMPARE(alone["mechanism"].toString(), QStringLiteral("pca"));
    const QJsonObject pca = alone["pca"].toObject();
    QCOMPARE(pca["epsilon_alone"].toDouble(), alone["epsilon"].toDouble());
    QCOMPARE(pca["noise_multiplier"].toDouble(), 7.0);
    QCOMPARE(pca["sample_fraction"].toDouble(), 0.1);
    QVERIFY(pca["label"].toString().startsWith(QStringLiteral("PCA: σ 7 on 10% of the data")));
    // One Gaussian release with σ 7 at δ 1e-5 costs well under 1 and more than 0.
    QVERIFY(alone["epsilon"].toDouble() > 0.3 && alone["epsilon"].toDouble() < 1.0);

    const QStringList dpSgd{"epsilon", "--sample-rate", "0.075",
                            "--steps", "520",           "--noise-multiplier",
                            "4",       "--delta",       "1e-5"};
    const QJsonObject only = lastJson(runCli(dpSgd));
    QCOMPARE(only["mechanism"].toString(), QStringLiteral("dp-sgd"));
    QVERIFY(!only.contains("pca"));
    const QJsonObject both = lastJson(runCli(dpSgd + QStringList{"--pca-noise", "7"}));
    QCOMPARE(both["mechanism"].toString(), QStringLiteral("pca+dp-sgd"));
    QVERIFY(both["epsilon"].toDouble() > only["epsilon"].toDouble());
    QVERIFY(both["epsilon"].toDouble() < only["epsilon"].toDouble() + alone["epsilon"].toDouble());
  }

  void calibrateHoldsThePcaFixed() {
    const QStringList base{"calibrate", "--target-epsilon", "2",   "--sample-rate",
                           "0.075",     "--steps",          "520", "--delta",
                           "1e-5"};
    for (const QString& accountant : {QStringLiteral("rdp"), QStringLiteral("pld")}) {
      const QJsonObject plain = lastJson(runCli(base + QStringList{"--accountant", accountant}));
      const Run run = runCli(base + QStringList{"--accountant", accountant, "--pca-noise", "7"});
      QCOMPARE(run.exitCode, 0);
      const QJsonObject withPca = lastJson(run);
      QVERIFY(withPca["pca"].toObject()["held_fixed"].toBool());
      QCOMPARE(withPca["pca"].toObject()["noise_multiplier"].toDouble(), 7.0);  // untouched
      QVERIFY(withPca["epsilon"].toDouble() <= 2.0);
      QVERIFY(withPca["epsilon"].toDouble() > 1.99);
      // Part of the budget went to the PCA: the steps need more noise.
      QVERIFY(withPca["noise_multiplier"].toDouble() > plain["noise_multiplier"].toDouble());
    }
    const Run unreachable =
        runCli({"calibrate", "--target-epsilon", "0.2", "--sample-rate", "0.075", "--steps", "520",
                "--delta", "1e-5", "--pca-noise", "7"});
    QCOMPARE(unreachable.exitCode, 2);
    QVERIFY2(
        unreachable.err.contains("--target-epsilon") && unreachable.err.contains("--pca-noise 7"),
        qPrintable(unreachable.err));
  }

  void badValuesNameTheFlag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("flag");
    const QStringList train{"train", "--dataset", "uci-digits", "--steps", "1", "--quiet"};
    const QStringList pcaTrain = train + QStringList{"--model", "pca-mlp"};
    QTest::newRow("train: pca flag on mlp")
        << train + QStringList{"--model", "mlp", "--pca-noise", "4"} << "--pca-noise";
    QTest::newRow("train: sample above 1")
        << pcaTrain + QStringList{"--pca-sample", "1.5"} << "--pca-sample";
    QTest::newRow("train: sample 0")
        << pcaTrain + QStringList{"--pca-sample", "0"} << "--pca-sample";
    QTest::newRow("train: negative noise")
        << pcaTrain + QStringList{"--pca-noise", "-1"} << "--pca-noise";
    QTest::newRow("train: dims 0") << pcaTrain + QStringList{"--pca-dims", "0"} << "--pca-dims";
    QTest::newRow("train: dims above the features")
        << pcaTrain + QStringList{"--pca-dims", "65"} << "--pca-dims";
    QTest::newRow("train: dims not a number")
        << pcaTrain + QStringList{"--pca-dims", "six"} << "--pca-dims";
    const QStringList epsilon{"epsilon", "--delta", "1e-5"};
    QTest::newRow("epsilon: negative noise")
        << epsilon + QStringList{"--steps", "0", "--pca-noise", "-2"} << "--pca-noise";
    QTest::newRow("epsilon: sample without noise")
        << epsilon + QStringList{"--sample-rate",      "0.1", "--steps",      "5",
                                 "--noise-multiplier", "1",   "--pca-sample", "0.5"}
        << "--pca-sample";
    QTest::newRow("epsilon: sample above 1")
        << epsilon + QStringList{"--steps", "0", "--pca-noise", "4", "--pca-sample", "2"}
        << "--pca-sample";
    QTest::newRow("epsilon: dims 0")
        << epsilon + QStringList{"--steps", "0", "--pca-noise", "4", "--pca-dims", "0"}
        << "--pca-dims";
    QTest::newRow("epsilon: 0 steps without PCA")
        << epsilon + QStringList{"--sample-rate", "0.1", "--steps", "0", "--noise-multiplier", "1"}
        << "--steps";
    QTest::newRow("calibrate: 0 steps")
        << QStringList{"calibrate", "--target-epsilon", "2", "--steps", "0", "--delta",
                       "1e-5",      "--pca-noise",      "7"}
        << "--steps";
  }
  void badValuesNameTheFlag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, flag);
    const Run run = runCli(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(flag), qPrintable(run.err));
  }

  void experimentFileCarriesThePca() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QJsonObject experiment = pcaExperiment();
    const QJsonObject model = experiment["model"].toObject();
    QCOMPARE(model["preset"].toString(), QStringLiteral("pca-mlp"));
    QCOMPARE(model["pca_dims"].toInt(), 16);
    QCOMPARE(model["pca_noise"].toDouble(), 4.0);
    QCOMPARE(model["pca_sample"].toDouble(), 0.5);
    // Read back from a file, it gives the same experiment.
    const QString path = dir.filePath("pca.json");
    QVERIFY(writeJson(path, experiment));
    const Run reread = runCli({"train", "--config", path, "--print-config"});
    QCOMPARE(reread.exitCode, 0);
    QCOMPARE(lastJson(reread), experiment);
    // A wrong type is refused, naming the key.
    QJsonObject bad = experiment;
    QJsonObject badModel = model;
    badModel["pca_noise"] = "seven";
    bad["model"] = badModel;
    QVERIFY(writeJson(path, bad));
    const Run refused = runCli({"train", "--config", path, "--print-config"});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("model.pca_noise"), qPrintable(refused.err));
  }

  void sweepOverThePcaNoise() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("pca.json");
    QVERIFY(writeJson(path, pcaExperiment()));
    const Run sweep =
        runCli({"sweep", "--config", path, "--param", "pca_noise=2,16", "--jobs", "1"});
    QCOMPARE(sweep.exitCode, 0);
    const auto lines = sweep.jsonLines();
    QCOMPARE(lines.size(), 2);
    double epsilonAt2 = 0, epsilonAt16 = 0;
    for (const QJsonObject& line : lines) {
      (line["label"].toString().contains("=16") ? epsilonAt16 : epsilonAt2) =
          line["final_epsilon"].toDouble();
    }
    // More PCA noise, less ε for the same steps.
    QVERIFY2(epsilonAt16 > 0 && epsilonAt16 < epsilonAt2, qPrintable(sweep.out));
  }
};

QTEST_APPLESS_MAIN(TestCliPca)
#include "test_cli_pca.moc"
