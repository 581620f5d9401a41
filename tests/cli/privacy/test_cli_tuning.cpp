// `epsilonlab-cli epsilon --tuning DIST` (issue 28), run as a user would: the tuned ε beside one
// run's and ⌈μ⌉ runs composed, each with δ and accountant, for every law; exit status 2 with
// --tuning named for a bad law, mean or shape and for the PLD accountant.
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "cli_runner.h"

namespace {

using Run = epsilon::test::CliOutcome;
using epsilon::test::runCli;

// The issue's example: q = 0.004267, σ 1.1, 10,000 steps at δ 1e-5.
QStringList exampleRun(const QString& tuning) {
  return {"epsilon", "--sample-rate", "0.004267", "--noise-multiplier", "1.1", "--steps",
          "10000",   "--delta",       "1e-5",     "--tuning",           tuning};
}

void checkStatementKeys(const QJsonObject& statement) {
  QCOMPARE(statement["delta"].toDouble(), 1e-5);
  QCOMPARE(statement["accountant"].toString(), QStringLiteral("rdp"));
  QCOMPARE(statement["sampling"].toString(), QStringLiteral("Poisson sampling"));
  QVERIFY(statement["epsilon"].isDouble());
}

}  // namespace

class TestCliTuning : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void printsTheThreeStatements_data() {
    QTest::addColumn<QString>("tuning");
    QTest::addColumn<QString>("law");
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::newRow("poisson") << "poisson:10"
                             << "poisson" << 4.75 << 4.85;
    QTest::newRow("geometric") << "geometric:10"
                               << "geometric" << 4.25 << 4.35;
    QTest::newRow("log") << "log:10"
                         << "log" << 3.5 << 3.75;
    QTest::newRow("tnb") << "tnb:10:0.5"
                         << "tnb" << 3.9 << 4.05;
  }
  void printsTheThreeStatements() {
    QFETCH(QString, tuning);
    QFETCH(QString, law);
    QFETCH(double, low);
    QFETCH(double, high);
    const Run run = runCli(exampleRun(tuning));
    QCOMPARE(run.exitCode, 0);
    const QList<QJsonObject> lines = run.jsonLines();
    QCOMPARE(lines.size(), 1);
    const QJsonObject json = lines.front();
    checkStatementKeys(json);
    const double tuned = json["epsilon"].toDouble();
    QVERIFY2(tuned > low && tuned < high, qPrintable(QString::number(tuned)));
    QCOMPARE(json["tuning"].toObject()["distribution"].toString(), law);
    QCOMPARE(json["tuning"].toObject()["mean"].toDouble(), 10.0);
    const QJsonObject one = json["one_run"].toObject();
    checkStatementKeys(one);
    QVERIFY(std::fabs(one["epsilon"].toDouble() - 2.16) < 0.01);
    const QJsonObject composed = json["composed_runs"].toObject();
    checkStatementKeys(composed);
    QCOMPARE(composed["runs"].toInteger(), 10);
    QVERIFY(std::fabs(composed["epsilon"].toDouble() - 7.84) < 0.01);
  }

  // The one-run statement is the plain `epsilon` answer.
  void oneRunIsThePlainAnswer() {
    QStringList plain = exampleRun(QString());
    plain.removeLast();
    plain.removeLast();
    const Run alone = runCli(plain);
    const Run tuned = runCli(exampleRun(QStringLiteral("geometric:4")));
    QCOMPARE(alone.exitCode, 0);
    QCOMPARE(tuned.exitCode, 0);
    QCOMPARE(tuned.jsonLines().front()["one_run"].toObject()["epsilon"].toDouble(),
             alone.jsonLines().front()["epsilon"].toDouble());
    QCOMPARE(tuned.jsonLines().front()["composed_runs"].toObject()["runs"].toInteger(), 4);
  }

  void experimentFileCanBeTuned() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("experiment.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "epsilonlab-experiment", "version": 1,
      "dataset": {"name": "xor", "size": 80}, "model": {"preset": "mlp", "hidden": [4]},
      "privacy": {"noise_multiplier": 2}, "training": {"lot_size": 16, "epochs": 2}})");
    file.close();
    const Run plain = runCli({"epsilon", "--config", path});
    const Run tuned = runCli({"epsilon", "--config", path, "--tuning", "poisson:5"});
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(tuned.exitCode, 0);
    const QJsonObject json = tuned.jsonLines().front();
    QCOMPARE(json["one_run"].toObject()["epsilon"].toDouble(),
             plain.jsonLines().front()["epsilon"].toDouble());
    QVERIFY(json["epsilon"].toDouble() > json["one_run"].toObject()["epsilon"].toDouble());
    QCOMPARE(json["composed_runs"].toObject()["runs"].toInteger(), 5);
  }

  void badInputNamesTheFlag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("mean below 1") << exampleRun("poisson:0.5") << "mean number of runs";
    QTest::newRow("mean NaN") << exampleRun("geometric:nan") << "mean number of runs";
    QTest::newRow("mean missing") << exampleRun("geometric") << "expected poisson:MEAN";
    QTest::newRow("negative shape") << exampleRun("tnb:10:-1") << "shape";
    QTest::newRow("NaN shape") << exampleRun("tnb:10:nan") << "shape";
    QTest::newRow("shape missing") << exampleRun("tnb:10") << "expected poisson:MEAN";
    QTest::newRow("unknown law") << exampleRun("binomial:10") << "expected poisson:MEAN";
    QTest::newRow("long value") << exampleRun(QString(500, QLatin1Char('x'))) << "bytes)";
    QTest::newRow("pld") << (exampleRun("poisson:10") << "--accountant"
                                                      << "pld")
                         << "PLD accountant";
  }
  void badInputNamesTheFlag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const Run run = runCli(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.contains(QStringLiteral("--tuning")), qPrintable(run.err));
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    QVERIFY(run.err.size() < 400);
  }
};

QTEST_GUILESS_MAIN(TestCliTuning)
#include "test_cli_tuning.moc"
