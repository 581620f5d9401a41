// `epsilonlab-cli epsilon` and `calibrate`, run as a user would: the JSON they print for
// the published settings, and exit status 2 with the flag named for every invalid input.
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QProcess>
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
    QCOMPARE(json["order"].toDouble(), 17.0);
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
    QVERIFY(!json.contains("order"));
  }

  void epsilonFromEpochs() {
    const Run run =
        runCli({"epsilon", "--epochs", "60", "--dataset-size", "60000", "--batch-size", "256",
                "--noise-multiplier", "1.1", "--delta", "1e-5", "--conversion", "classic"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = parseJson(run);
    QCOMPARE(json["steps"].toInteger(), 14063);
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
