// `epsilonlab-cli train` as a user runs it: a tiny run printing one JSON line per
// evaluation and writing --out and --csv; --config with flags overriding it; the same output
// with 1 and 2 threads; exit status 2 with the field named for bad flags, values and files.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#ifdef EPSILON_HAVE_PLOT
#include <QImage>
#endif
#include <QProcess>
#include <QTemporaryDir>

#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;

// `epsilonlab-cli train ARGUMENTS`.
CliOutcome runCli(const QStringList& arguments) {
  return epsilon::test::runCli(QStringList{QStringLiteral("train")} + arguments, 120000);
}

// A two-class circle of 400 points, an MLP 2-8-2, 20 DP-SGD steps, evaluated every 10.
QStringList tinyRun() {
  return {"--dataset",
          "circle",
          "--data-size",
          "400",
          "--hidden",
          "8",
          "--batch-size",
          "32",
          "--steps",
          "20",
          "--eval-every",
          "10",
          "--no-epoch-eval",
          "--seed",
          "3",
          "--noise-multiplier",
          "1.1",
          "--clip-norm",
          "1",
          "--optimizer",
          "momentum",
          "--lr",
          "0.1"};
}

}  // namespace

class TestCliTrain : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void plotDrawsTheGuiCharts() {
    QTemporaryDir dir;
    const QString png = dir.filePath("charts.png"), svg = dir.filePath("charts.svg");
#ifndef EPSILON_HAVE_PLOT
    // Built without the GUI: no plot tool, and --plot says so before training.
    const CliOutcome missing = runCli(tinyRun() + QStringList{"--quiet", "--plot", png});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("epsilonlab-plot") && missing.err.contains("EPSILON_BUILD_GUI"),
             qPrintable(missing.err));
    QVERIFY(!QFile::exists(png));
#else
    QVERIFY2(runCli(tinyRun() + QStringList{"--quiet", "--plot", png}).exitCode == 0, "png");
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1600, 1100));
    // Beside it, the gradient-norm view: a histogram in the run's blue and the clip line in
    // red-orange, both drawn (not a blank image).
    const QImage norms(dir.filePath("charts-gradient-norms.png"));
    QCOMPARE(norms.size(), QSize(1100, 800));
    int blue = 0, orange = 0;
    for (int y = 0; y < norms.height(); y += 2)
      for (int x = 0; x < norms.width(); x += 2) {
        const QColor c = norms.pixelColor(x, y);
        blue += c.blue() > 150 && c.red() < 60 && c.green() > 80 && c.green() < 150;
        orange += c.red() > 180 && c.green() > 60 && c.green() < 120 && c.blue() < 60;
      }
    QVERIFY2(blue > 50 && orange > 20, qPrintable(QStringLiteral("%1 %2").arg(blue).arg(orange)));
    QVERIFY2(runCli(tinyRun() + QStringList{"--quiet", "--plot", svg}).exitCode == 0, "svg");
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("<svg"));
    QFile normsSvg(dir.filePath("charts-gradient-norms.svg"));
    QVERIFY(normsSvg.open(QIODevice::ReadOnly));
    QVERIFY(normsSvg.readAll().contains("clip norm C = 1"));
#endif
    const CliOutcome bad = runCli(tinyRun() + QStringList{"--plot", dir.filePath("charts.bmp")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--plot"));
  }

  void tinyRunPrintsWritesAndExitsZero() {
    QTemporaryDir dir;
    const QString json = dir.filePath("run.json"), csv = dir.filePath("run.csv");
    const CliOutcome o = runCli(tinyRun() + QStringList{"--out", json, "--csv", csv});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QList<QJsonObject> lines = o.jsonLines();
    QCOMPARE(lines.size(), 3);  // steps 0, 10, 20
    double previousEpsilon = -1;
    for (int i = 0; i < 3; ++i) {
      const QJsonObject& line = lines[i];
      QCOMPARE(line["step"].toInt(), 10 * i);
      for (const char* key :
           {"epoch", "train_loss", "test_accuracy", "test_loss", "epsilon", "delta", "accountant",
            "sampling", "sigma", "clip_norm", "fraction_clipped", "gradient_norm"}) {
        QVERIFY2(line.contains(key), key);
      }
      QVERIFY(line["epsilon"].toDouble() > previousEpsilon);
      previousEpsilon = line["epsilon"].toDouble();
      QCOMPARE(line["sigma"].toDouble(), 1.1);
      QCOMPARE(line["accountant"].toString(), QString("rdp"));
    }
    QVERIFY(lines[2]["test_accuracy"].toDouble() > 0.0);

    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject run = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(run["format"].toString(), QString("epsilonlab-run"));
    QCOMPARE(run["status"].toString(), QString("done"));
    QCOMPARE(run["history"].toArray().size(), 3);
    QCOMPARE(run["experiment"].toObject()["training"].toObject()["steps"].toInt(), 20);
    QCOMPARE(run["history"].toArray()[2].toObject()["epsilon"].toDouble(),
             lines[2]["epsilon"].toDouble());

    QFile table(csv);
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(table.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 4);
    QVERIFY2(rows[0].startsWith("run,total_steps,step,epoch,"), qPrintable(rows[0]));
    QVERIFY(
        !QDir(dir.path()).entryList(QDir::Files).join(' ').contains(".tmp"));  // no temporary left
  }

  void sameOutputWithOneAndTwoThreads() {
    CliOutcome one = runCli(tinyRun() + QStringList{"--threads", "1"});
    CliOutcome two = runCli(tinyRun() + QStringList{"--threads", "2"});
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(two.exitCode, 0);
    QList<QJsonObject> oneLines = one.jsonLines(), twoLines = two.jsonLines();
    QCOMPARE(oneLines.size(), twoLines.size());
    for (int i = 0; i < oneLines.size(); ++i) {
      oneLines[i].remove("elapsed_seconds");
      twoLines[i].remove("elapsed_seconds");
      QCOMPARE(oneLines[i], twoLines[i]);
    }
  }

  void configFileWithFlagsOverriding() {
    QTemporaryDir dir;
    const QString path = dir.filePath("experiment.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "epsilonlab-experiment", "version": 1,
                   "dataset": {"name": "circle", "size": 400},
                   "privacy": {"privatizer": "tanh", "tanh_c": 0.5, "noise_multiplier": 2.0},
                   "training": {"steps": 7, "lot_size": 16}})");
    file.close();
    const CliOutcome shown =
        runCli({"--config", path, "--noise-multiplier", "3", "--print-config"});
    QCOMPARE(shown.exitCode, 0);
    const QJsonObject config = shown.jsonLines().value(0);
    QCOMPARE(config["privacy"].toObject()["noise_multiplier"].toDouble(), 3.0);  // the flag wins
    QCOMPARE(config["privacy"].toObject()["tanh_c"].toDouble(), 0.5);            // the file's value
    QCOMPARE(config["training"].toObject()["steps"].toInt(), 7);
    QCOMPARE(config["model"].toObject()["preset"].toString(), QString("mlp"));  // the default
    // Trained: the tanh filter shows its nominal ε, labelled, beside the honest one.
    const CliOutcome trained = runCli({"--config", path, "--hidden", "4"});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const QJsonObject last = trained.jsonLines().last();
    QVERIFY(last.contains("nominal_epsilon"));
    QVERIFY(last["nominal_label"].toString().contains("not a DP guarantee"));
    QVERIFY(last["nominal_epsilon"].toDouble() < last["epsilon"].toDouble());
  }

  void badInputExitsTwoNamingTheField_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("negative sigma")
        << QStringList{"--noise-multiplier", "-1"} << "noise_multiplier";
    QTest::newRow("not a number") << QStringList{"--lr", "fast"} << "--lr";
    QTest::newRow("lot larger than data")
        << QStringList{"--dataset", "circle", "--data-size", "100", "--batch-size", "500"}
        << "lot_size";
    // --learning-rate is the flag now (--lr its old spelling): a name no schema field has.
    QTest::newRow("unknown flag") << QStringList{"--learning-speed", "0.1"} << "learning-speed";
    QTest::newRow("unknown optimizer") << QStringList{"--optimizer", "lion"} << "--optimizer";
    QTest::newRow("unknown privatizer") << QStringList{"--privatizer", "laplace"} << "--privatizer";
    QTest::newRow("unknown data set") << QStringList{"--dataset", "no-such-set"} << "no-such-set";
    QTest::newRow("threads 0") << QStringList{"--threads", "0"} << "--threads";
    QTest::newRow("micro-batch > lot")
        << QStringList{"--microbatch-size", "300"} << "microbatch_size";
    QTest::newRow("stray argument") << QStringList{"extra"} << "extra";
  }
  void badInputExitsTwoNamingTheField() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const CliOutcome o = runCli(arguments);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(named), qPrintable(o.err));
    QVERIFY(o.jsonLines().isEmpty());
  }

  void secureNoiseIsNotReproducible() {
    // The same seed twice: seeded noise gives the same losses, --secure-noise different
    // ones, says so on stderr and records secure_noise in the resolved experiment.
    const CliOutcome seededA = runCli(tinyRun()), seededB = runCli(tinyRun());
    const CliOutcome secureA = runCli(tinyRun() + QStringList{"--secure-noise"});
    const CliOutcome secureB = runCli(tinyRun() + QStringList{"--secure-noise"});
    for (const CliOutcome* o : {&seededA, &seededB, &secureA, &secureB}) {
      QCOMPARE(o->exitCode, 0);
      QVERIFY(o->jsonLines().size() >= 2);
    }
    QCOMPARE(seededA.jsonLines().last()["train_loss"].toDouble(),
             seededB.jsonLines().last()["train_loss"].toDouble());
    QVERIFY(secureA.jsonLines().last()["train_loss"].toDouble() !=
            secureB.jsonLines().last()["train_loss"].toDouble());
    QVERIFY2(secureA.err.contains("NOT reproducible"), qPrintable(secureA.err));
    QVERIFY(!seededA.err.contains("NOT reproducible"));
    const CliOutcome config = runCli(tinyRun() + QStringList{"--secure-noise", "--print-config"});
    QCOMPARE(config.jsonLines().size(), 1);
    QCOMPARE(config.jsonLines()[0]["privacy"].toObject()["secure_noise"].toBool(), true);
    const CliOutcome defaults = runCli(tinyRun() + QStringList{"--print-config"});
    QCOMPARE(defaults.jsonLines()[0]["privacy"].toObject()["secure_noise"].toBool(true), false);
  }

  void badConfigFilesExitTwo_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("named");
    QTest::newRow("unknown key")
        << QByteArray(
               R"({"format": "epsilonlab-experiment", "version": 1, "privacy": {"noise": 1}})")
        << "privacy.noise";
    QTest::newRow("unknown section")
        << QByteArray(R"({"format": "epsilonlab-experiment", "version": 1, "extras": {}})")
        << "extras";
    QTest::newRow("wrong type")
        << QByteArray(
               R"({"format": "epsilonlab-experiment", "version": 1, "training": {"lot_size": "big"}})")
        << "training.lot_size";
    QTest::newRow("newer version")
        << QByteArray(R"({"format": "epsilonlab-experiment", "version": 2})") << "version";
    QTest::newRow("wrong format") << QByteArray(R"({"format": "epsilonlab-session", "version": 1})")
                                  << "format";
    QTest::newRow("not JSON") << QByteArray("{\"format\": ") << "not valid JSON";
    QTest::newRow("bad value") << QByteArray(R"({"format": "epsilonlab-experiment", "version": 1,
                          "dataset": {"name": "xor"}, "privacy": {"delta": 2}})")
                               << "privacy.delta";
    // Which data set would it train on? The file must say (or --dataset).
    QTest::newRow("no data set")
        << QByteArray(R"({"format": "epsilonlab-experiment", "version": 1, "privacy": {}})")
        << "dataset.name: missing";
  }
  void badConfigFilesExitTwo() {
    QFETCH(QByteArray, content);
    QFETCH(QString, named);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();
    const CliOutcome o = runCli({"--config", path});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(named), qPrintable(o.err));
  }

  void missingConfigFileExitsTwo() {
    const CliOutcome o = runCli({"--config", "/nonexistent/experiment.json"});
    QCOMPARE(o.exitCode, 2);
    QVERIFY(o.err.contains("/nonexistent/experiment.json"));
  }
};

QTEST_APPLESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
