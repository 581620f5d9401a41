// `epsilonlab-cli epsilon` and `calibrate`, run as a user would: the JSON they print for
// the published settings, and exit status 2 with the flag named for every invalid input.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "cli_runner.h"

namespace {

using Run = epsilon::test::CliOutcome;
using epsilon::test::runCli;

QJsonObject parseJson(const Run& run) {
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
  if (error.error != QJsonParseError::NoError || !document.isObject()) return {};
  return document.object();
}

// A small experiment on "xor" (64 training points, lots of 16, 2 epochs) with `privacy`.
QString writeExperiment(const QTemporaryDir& dir, const QString& privacy) {
  const QString path = dir.filePath(QStringLiteral("experiment.json"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(QStringLiteral(R"({"format": "epsilonlab-experiment", "version": 1,
      "dataset": {"name": "xor", "size": 80}, "model": {"preset": "mlp", "hidden": [4]},
      "privacy": {%1}, "training": {"lot_size": 16, "epochs": 2, "eval_every_steps": 3}})")
                 .arg(privacy)
                 .toUtf8());
  return path;
}

}  // namespace

class TestCliPrivacy : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void epsilonRdp() {
    const Run run = runCli({"epsilon", "--sample-rate", "0.01", "--noise-multiplier", "4",
                            "--steps", "10000", "--delta", "1e-5"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.count('\n'), 1);  // one JSON object on one line
    const QJsonObject json = parseJson(run);
    QVERIFY(std::fabs(json["epsilon"].toDouble() - 1.0355) < 5e-4);
    QCOMPARE(json["delta"].toDouble(), 1e-5);
    QCOMPARE(json["accountant"].toString(), QStringLiteral("rdp"));
    QCOMPARE(json["rdp_order"].toDouble(), 17.0);
    QCOMPARE(json["privacy_status"].toString(), QStringLiteral("DP guarantee"));
    QCOMPARE(json["sampling"].toString(), QStringLiteral("Poisson sampling"));
    QCOMPARE(json["sample_rate"].toDouble(), 0.01);
    QCOMPARE(json["noise_multiplier"].toDouble(), 4.0);
    QCOMPARE(json["steps"].toInteger(), 10000);
  }

  void epsilonPld() {
    const Run run = runCli({"epsilon", "--sample-rate", "0.01", "--noise-multiplier", "4",
                            "--steps", "10000", "--delta", "1e-5", "--accountant", "pld"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = parseJson(run);
    QCOMPARE(json["accountant"].toString(), QStringLiteral("pld"));
    QVERIFY(std::fabs(json["epsilon"].toDouble() - 0.947) < 5e-3);
    QVERIFY(!json.contains("rdp_order"));
  }

  void epsilonFromEpochs() {
    const Run run =
        runCli({"epsilon", "--epochs", "60", "--dataset-size", "60000", "--batch-size", "256",
                "--noise-multiplier", "1.1", "--delta", "1e-5", "--conversion", "classic"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = parseJson(run);
    QCOMPARE(json["steps"].toInteger(), 14040);  // 60 epochs of ⌊60000/256⌋ lots, as trained
    QVERIFY(std::fabs(json["sample_rate"].toDouble() - 256.0 / 60000.0) < 1e-15);
    QVERIFY(std::fabs(json["epsilon"].toDouble() - 3.01) < 0.01);
    QCOMPARE(json["conversion"].toString(), QStringLiteral("classic"));
  }

  void calibrate() {
    const Run run = runCli({"calibrate", "--target-epsilon", "2.5966", "--epochs", "60",
                            "--dataset-size", "60000", "--batch-size", "256", "--delta", "1e-5"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = parseJson(run);
    QVERIFY(std::fabs(json["noise_multiplier"].toDouble() - 1.1) < 1e-3);
    QVERIFY(json["epsilon"].toDouble() <= 2.5966);
    QCOMPARE(json["target_epsilon"].toDouble(), 2.5966);
  }

  // `epsilon --config` states what the GUI's preview shows and the trained run ends with: the
  // same double as `train`'s last evaluation, for runs that use every mechanism.
  void epsilonOfAConfigIsTheTrainedRuns_data() {
    QTest::addColumn<QString>("privacy");
    QTest::newRow("tanh, exp schedule, pld, shuffled")
        << R"("privatizer": "tanh", "noise_multiplier": 12, "noise_schedule": "exp",
              "noise_decay_rate": 0.002, "accountant": "pld", "sampling": "shuffle")";
    QTest::newRow("adaptive, step schedule, rdp")
        << R"("privatizer": "adaptive", "noise_multiplier": 2, "clip_count_stddev": 20,
              "noise_schedule": "step", "noise_decay_rate": 0.01)";
    QTest::newRow("clip, time schedule, rdp") << R"("noise_multiplier": 1.5,
              "noise_schedule": "time", "noise_decay_rate": 0.05, "delta": 1e-3)";
  }
  void epsilonOfAConfigIsTheTrainedRuns() {
    QFETCH(QString, privacy);
    QTemporaryDir dir;
    const QString path = writeExperiment(dir, privacy);
    const Run trained = runCli({"train", "--config", path});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const QJsonObject last = trained.jsonLines().last();
    const Run stated = runCli({"epsilon", "--config", path});
    QVERIFY2(stated.exitCode == 0, qPrintable(stated.err));
    const QJsonObject json = parseJson(stated);
    QVERIFY(std::isfinite(json["epsilon"].toDouble()) && json["epsilon"].toDouble() > 0);
    QCOMPARE(json["epsilon"].toDouble(), last["epsilon"].toDouble());  // the same double
    for (const char* key : {"delta", "accountant", "sampling", "privacy_status"})
      QCOMPARE(json[key], last[key]);
    QCOMPARE(json["nominal_epsilon"].toDouble(), last["nominal_epsilon"].toDouble());  // tanh only
    QCOMPARE(json["steps"].toInteger(), last["step"].toInteger());
  }

  // `calibrate --config` gives a σ₀ the run trains with to an ε within [0.99, 1] × the target.
  void calibrateAConfig() {
    QTemporaryDir dir;
    const QString privacy = R"("privatizer": "tanh", "noise_schedule": "exp",
                               "noise_decay_rate": 0.002, "delta": 1e-3)";
    const Run run =
        runCli({"calibrate", "--config", writeExperiment(dir, privacy), "--target-epsilon", "3"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const double sigma = parseJson(run)["noise_multiplier"].toDouble();
    const Run trained = runCli({"train", "--config", writeExperiment(dir, privacy),
                                "--noise-multiplier", QString::number(sigma, 'g', 17)});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const double epsilon = trained.jsonLines().last()["epsilon"].toDouble();
    QVERIFY2(epsilon <= 3.0 && epsilon >= 0.99 * 3.0, qPrintable(QString::number(epsilon)));
    QCOMPARE(epsilon, parseJson(run)["epsilon"].toDouble());
    // The file and the sampling flags cannot be mixed.
    const Run mixed =
        runCli({"epsilon", "--config", writeExperiment(dir, privacy), "--steps", "3"});
    QCOMPARE(mixed.exitCode, 2);
    QVERIFY2(mixed.err.contains("--steps"), qPrintable(mixed.err));
  }

  void calibrateUnreachable() {
    const Run run = runCli({"calibrate", "--target-epsilon", "1e-6", "--sample-rate", "0.5",
                            "--steps", "100000", "--delta", "1e-5"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("cannot be reached"), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }

  void invalidInputNamesTheFlag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("flag");
    const QStringList base{"--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5"};
    QTest::newRow("q = 0") << (QStringList{"epsilon", "--sample-rate", "0"} + base)
                           << "--sample-rate";
    QTest::newRow("q > 1") << (QStringList{"epsilon", "--sample-rate", "1.5"} + base)
                           << "--sample-rate";
    QTest::newRow("q NaN") << (QStringList{"epsilon", "--sample-rate", "nan"} + base)
                           << "--sample-rate";
    QTest::newRow("sigma 0") << QStringList{"epsilon", "--sample-rate", "0.1", "--noise-multiplier",
                                            "0",       "--steps",       "10",  "--delta",
                                            "1e-5"}
                             << "--noise-multiplier";
    QTest::newRow("sigma negative")
        << QStringList{"epsilon", "--sample-rate", "0.1", "--noise-multiplier", "-2", "--steps",
                       "10",      "--delta",       "1e-5"}
        << "--noise-multiplier";
    QTest::newRow("T = 0") << QStringList{"epsilon", "--sample-rate", "0.1", "--noise-multiplier",
                                          "1",       "--steps",       "0",   "--delta",
                                          "1e-5"}
                           << "--steps";
    QTest::newRow("delta = 1") << QStringList{"epsilon", "--sample-rate",
                                              "0.1",     "--noise-multiplier",
                                              "1",       "--steps",
                                              "10",      "--delta",
                                              "1"}
                               << "--delta";
    QTest::newRow("delta = 0") << QStringList{"epsilon", "--sample-rate",
                                              "0.1",     "--noise-multiplier",
                                              "1",       "--steps",
                                              "10",      "--delta",
                                              "0"}
                               << "--delta";
    QTest::newRow("delta NaN") << QStringList{"epsilon", "--sample-rate",
                                              "0.1",     "--noise-multiplier",
                                              "1",       "--steps",
                                              "10",      "--delta",
                                              "NaN"}
                               << "--delta";
    QTest::newRow("accountant") << QStringList{"epsilon", "--sample-rate",
                                               "0.1",     "--noise-multiplier",
                                               "1",       "--steps",
                                               "10",      "--delta",
                                               "1e-5",    "--accountant",
                                               "moments"}
                                << "--accountant";
    QTest::newRow("conversion")
        << QStringList{"epsilon", "--sample-rate", "0.1",  "--noise-multiplier", "1",   "--steps",
                       "10",      "--delta",       "1e-5", "--conversion",       "best"}
        << "--conversion";
    QTest::newRow("batch > N") << QStringList{"epsilon", "--epochs",
                                              "1",       "--dataset-size",
                                              "100",     "--batch-size",
                                              "200",     "--noise-multiplier",
                                              "1",       "--delta",
                                              "1e-5"}
                               << "--batch-size";
    QTest::newRow("missing q") << QStringList{"epsilon", "--noise-multiplier",
                                              "1",       "--steps",
                                              "10",      "--delta",
                                              "1e-5"}
                               << "--sample-rate";
    QTest::newRow("calibrate target")
        << QStringList{"calibrate", "--target-epsilon", "-1",  "--sample-rate", "0.1", "--steps",
                       "10",        "--delta",          "1e-5"}
        << "--target-epsilon";
    QTest::newRow("calibrate q") << QStringList{"calibrate", "--target-epsilon",
                                                "1",         "--sample-rate",
                                                "2",         "--steps",
                                                "10",        "--delta",
                                                "1e-5"}
                                 << "--sample-rate";
    QTest::newRow("unknown flag") << QStringList{"epsilon", "--sample-rate",
                                                 "0.1",     "--noise-multiplier",
                                                 "1",       "--steps",
                                                 "10",      "--delta",
                                                 "1e-5",    "--bogus",
                                                 "1"}
                                  << "bogus";
  }

  void invalidInputNamesTheFlag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, flag);
    const Run run = runCli(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(flag), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestCliPrivacy)
#include "test_cli_privacy.moc"
