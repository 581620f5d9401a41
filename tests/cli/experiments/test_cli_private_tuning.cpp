// `epsilonlab-cli sweep --private-tuning DIST` (issue 28) as a user runs it: K runs drawn from
// the grid with the sweep's seed (the same K and points again for the same seed), the best by
// final test accuracy released, its tuned ε beside one run's and ⌈μ⌉ composed, bounded by the
// grid's most expensive point; bad input exits with status 2 naming --private-tuning.
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;
using epsilon::test::runCli;

// A two-class circle of 200 points, an MLP 2-4-2, 10 DP-SGD steps with `accountant`.
QString writeExperiment(const QTemporaryDir& dir, const char* accountant = "rdp") {
  const QString path = dir.filePath("exp.json");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(QStringLiteral(R"({"format": "epsilonlab-experiment", "version": 1,
    "dataset": {"name": "circle", "size": 200}, "model": {"preset": "mlp", "hidden": [4]},
    "privacy": {"noise_multiplier": 1.0, "clip_norm": 1.0, "accountant": "%1"},
    "optimizer": {"name": "sgd", "learning_rate": 0.1},
    "training": {"lot_size": 32, "steps": 10, "eval_every_steps": 5, "eval_every_epoch": false,
                 "seed": 3}})")
                 .arg(QLatin1String(accountant))
                 .toUtf8());
  return path;
}

QStringList tuningArgs(const QString& config, const QString& dist) {
  return {"sweep",
          "--config",
          config,
          "--param",
          "noise_multiplier=0.8,1.5,3",
          "--param2",
          "learning_rate=0.05,0.2",
          "--jobs",
          "2",
          "--private-tuning",
          dist};
}

}  // namespace

class TestCliPrivateTuning : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void releasesTheBestOfARandomNumberOfRuns() {
    QTemporaryDir dir;
    const QString config = writeExperiment(dir);
    const CliOutcome run = runCli(tuningArgs(config, "geometric:6"));
    QCOMPARE(run.exitCode, 0);
    const QList<QJsonObject> lines = run.jsonLines();
    QVERIFY(!lines.isEmpty());
    const QJsonObject tuning = lines.back()["private_tuning"].toObject();
    const qint64 k = tuning["runs_drawn"].toInteger();
    QVERIFY(k >= 2);                // seed 3 draws two runs (the geometric law never draws 0)
    QCOMPARE(lines.size(), k + 1);  // one line per run, then the summary
    QCOMPARE(tuning["grid_points_drawn"].toArray().size(), k);
    QCOMPARE(tuning["grid_points"].toInteger(), 6);
    // The grid's most expensive point is σ 0.8 (either learning rate: the same privacy).
    QVERIFY(tuning["bounding_label"].toString().contains("noise_multiplier=0.8"));
    QCOMPARE(tuning["selection_score"].toString(),
             QStringLiteral("final test accuracy on the held-out test set"));
    QCOMPARE(tuning["delta"].toDouble(), 1e-5);
    QCOMPARE(tuning["accountant"].toString(), QStringLiteral("rdp"));
    const double tuned = tuning["epsilon"].toDouble();
    const double one = tuning["one_run"].toObject()["epsilon"].toDouble();
    QVERIFY(tuned > one);
    QCOMPARE(tuning["composed_runs"].toObject()["runs"].toInteger(), 6);
    // The released run is the best of the K by final accuracy.
    const QJsonObject released = tuning["released"].toObject();
    double best = -1.0;
    for (qint64 i = 0; i < k; ++i) best = std::max(best, lines[i]["final_accuracy"].toDouble());
    QCOMPARE(released["final_accuracy"].toDouble(), best);
    // The same seed draws the same runs.
    const CliOutcome again = runCli(tuningArgs(config, "geometric:6"));
    QCOMPARE(again.jsonLines().back()["private_tuning"].toObject()["grid_points_drawn"],
             tuning["grid_points_drawn"]);
  }

  void badInputNamesTheFlag_data() {
    QTest::addColumn<QString>("dist");
    QTest::addColumn<QString>("extra");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative shape") << "tnb:3:-1"
                                    << ""
                                    << "shape";
    QTest::newRow("mean below 1") << "poisson:0"
                                  << ""
                                  << "mean number of runs";
    QTest::newRow("unknown law") << "uniform:3"
                                 << ""
                                 << "expected poisson:MEAN";
    QTest::newRow("shard") << "poisson:3"
                           << "--shard=1/2"
                           << "--shard";
    QTest::newRow("pld") << "poisson:3"
                         << "pld"
                         << "PLD accountant";
  }
  void badInputNamesTheFlag() {
    QFETCH(QString, dist);
    QFETCH(QString, extra);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QStringList args =
        tuningArgs(writeExperiment(dir, extra == QLatin1String("pld") ? "pld" : "rdp"), dist);
    if (extra.startsWith(QLatin1String("--"))) args << extra;
    const CliOutcome run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("--private-tuning")), qPrintable(run.err));
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestCliPrivateTuning)
#include "test_cli_private_tuning.moc"
