// Exploring to a budget from the CLI (issue 28, item 6): `sweep --target-epsilon` calibrates
// every point for its own settings (a sweep over epochs ends every run within [0.99, 1] × the
// target), a target_epsilon axis does the same per value, a sweep of noise_multiplier with a
// target is refused saying why; summary.csv names model, lot size, epochs, learning rate and
// every setting that differs; `--plot … --privacy-caption` writes the caption into the SVG;
// the train line "Copy settings" makes reads back (train --print-config) to the same config.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <set>

#include "base/io/experiment_json.h"
#include "base/io/train_command.h"
#include "cli_runner.h"
#include "core/train/experiment_schema.h"

using epsilon::test::CliOutcome;
using epsilon::test::runCli;

namespace {

// A two-class circle, lots of 32 over 10 epochs' worth of steps at most: a second or two.
QString writeEpochExperiment(const QString& dir) {
  return epsilon::test::writeTestFile(dir, R"({"format": "epsilonlab-experiment", "version": 1,
    "dataset": {"name": "circle", "size": 400},
    "model": {"preset": "mlp", "hidden": [8]},
    "privacy": {"noise_multiplier": 1.0, "clip_norm": 1.0},
    "optimizer": {"name": "momentum", "learning_rate": 0.1},
    "training": {"lot_size": 32, "epochs": 1, "seed": 3}})");
}

QList<QStringList> csvRows(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QList<QStringList> rows;
  for (const QString& line : QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts))
    rows << line.split(',');  // the cells these sweeps write hold no quoted commas
  return rows;
}

// Every run file's (target, final ε, σ₀) in `dir`.
struct Landed {
  double target = 0, epsilon = 0, sigma = 0;
};
QList<Landed> landedRuns(const QString& dir, double fixedTarget) {
  QList<Landed> out;
  for (const QString& name : QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files)) {
    QFile file(QDir(dir).filePath(name));
    if (!file.open(QIODevice::ReadOnly)) continue;
    const QJsonObject run = QJsonDocument::fromJson(file.readAll()).object();
    Landed l;
    const QJsonObject values = run["sweep"].toObject()["values"].toObject();
    l.target = values.contains("target_epsilon") ? values["target_epsilon"].toString().toDouble()
                                                 : fixedTarget;
    l.sigma = run["experiment"].toObject()["privacy"].toObject()["noise_multiplier"].toDouble();
    const QJsonArray history = run["history"].toArray();
    l.epsilon = history.last().toObject()["epsilon"].toDouble();
    out << l;
  }
  return out;
}

// The words of a line a POSIX shell would split (plain words and single-quoted ones).
QStringList shellWords(const QString& line) {
  QStringList words;
  QString word;
  bool quoted = false, any = false;
  for (QChar ch : line) {
    if (ch == '\'') {
      quoted = !quoted;
      any = true;
    } else if (ch == ' ' && !quoted) {
      if (any) words << word;
      word.clear();
      any = false;
    } else {
      word += ch;
      any = true;
    }
  }
  if (any) words << word;
  return words;
}

}  // namespace

class TestCliBudget : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void calibratedSweepOverEpochsEndsEveryRunAtItsTarget() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out");
    const CliOutcome o =
        runCli({"sweep", "--config", writeEpochExperiment(dir.path()), "--param", "epochs=1,2,5",
                "--target-epsilon", "2", "--out", out, "--quiet", "--jobs", "2"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QList<Landed> runs = landedRuns(out, 2.0);
    QCOMPARE(runs.size(), 3);
    std::set<double> sigmas;
    for (const Landed& r : runs) {
      QVERIFY2(r.epsilon <= r.target && r.epsilon >= 0.99 * r.target,
               qPrintable(QString::number(r.epsilon, 'g', 9)));
      sigmas.insert(r.sigma);
    }
    QCOMPARE(sigmas.size(), std::size_t{3});  // each point's own σ

    // summary.csv: the report's settings, then what differs (epochs and the calibrated σ).
    const QList<QStringList> rows = csvRows(QDir(out).filePath("summary.csv"));
    QCOMPARE(rows.size(), 4);
    for (const char* column : {"model.preset", "training.lot_size", "training.epochs",
                               "optimizer.learning_rate", "privacy.noise_multiplier"})
      QVERIFY2(rows[0].contains(QLatin1String(column)), qPrintable(rows[0].join(',')));
    const qsizetype epochs = rows[0].indexOf("training.epochs");
    QSet<QString> epochValues;
    for (int i = 1; i < rows.size(); ++i) epochValues << rows[i][epochs];
    QCOMPARE(epochValues, (QSet<QString>{"1", "2", "5"}));
  }

  void targetEpsilonAxisCalibratesEachValue() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out");
    const CliOutcome o =
        runCli({"sweep", "--config", writeEpochExperiment(dir.path()), "--param",
                "target_epsilon=1,4", "--param2", "epochs=1,3", "--out", out, "--quiet"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QList<Landed> runs = landedRuns(out, 0.0);
    QCOMPARE(runs.size(), 4);
    for (const Landed& r : runs)
      QVERIFY2(r.target > 0 && r.epsilon <= r.target && r.epsilon >= 0.99 * r.target,
               qPrintable(QStringLiteral("%1 for %2").arg(r.epsilon).arg(r.target)));
  }

  void aTargetRefusesASweepOfSigma() {
    QTemporaryDir dir;
    const CliOutcome o = runCli({"sweep", "--config", writeEpochExperiment(dir.path()), "--param",
                                 "noise_multiplier=1,2", "--target-epsilon", "2"});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("noise_multiplier cannot be swept"), qPrintable(o.err));
    const CliOutcome bad = runCli(
        {"sweep", "--config", writeEpochExperiment(dir.path()), "--param", "target_epsilon=1,-3"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("sweep.target_epsilon: expected a number > 0, got '-3'"),
             qPrintable(bad.err));
  }

  void plotCarriesThePrivacyCaption() {
#ifndef EPSILON_HAVE_PLOT
    QSKIP("epsilonlab-plot is built with the GUI only");
#else
    QTemporaryDir dir;
    const QString svg = dir.filePath("grid.svg");
    const CliOutcome o = runCli({"sweep", "--config", writeEpochExperiment(dir.path()), "--param",
                                 "epochs=1,2", "--plot", svg, "--privacy-caption", "--quiet"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    for (const QString& path : {svg, dir.filePath("grid-map.svg")}) {
      QFile file(path);
      QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
      const QString text = QString::fromUtf8(file.readAll());
      // (an SVG writes a text's Greek and Latin runs as separate <text> elements)
      QVERIFY2(text.contains(QStringLiteral("e-5 · RDP · Poisson sampling")), qPrintable(path));
    }
    // train --plot carries it as well.
    const QString trained = dir.filePath("train.svg");
    QCOMPARE(runCli({"train", "--config", writeEpochExperiment(dir.path()), "--plot", trained,
                     "--privacy-caption", "--quiet"})
                 .exitCode,
             0);
    QFile trainedFile(trained);
    QVERIFY(trainedFile.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(trainedFile.readAll()).contains(QStringLiteral("Poisson sampling")));
    // Without the flag the grid names no sampling (the sweep map's own caption always does).
    const QString plain = dir.filePath("plain.svg");
    QCOMPARE(runCli({"sweep", "--config", writeEpochExperiment(dir.path()), "--param", "epochs=1,2",
                     "--plot", plain, "--quiet"})
                 .exitCode,
             0);
    QFile file(plain);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!QString::fromUtf8(file.readAll()).contains(QStringLiteral("Poisson sampling")));
#endif
  }

  void copiedTrainLineReadsBackToTheSameConfig() {
    epsilon::train::ExperimentConfig config;
    config.dataset.name = "circle";
    config.model.hiddenWidths = {16, 8};
    config.privacy.noise.initial = 1.721;
    config.privacy.delta = 3e-6;
    config.optimizer.learningRate = 0.05;
    config.training.lotSize = 64;
    config.training.epochs = 2.5;
    config.training.evalEveryEpoch = false;
    config.training.evalEverySteps = 7;
    config.training.seed = 42;
    const QString line = epsilon::ui::trainCommandLine(config);
    QStringList words = shellWords(line);
    QCOMPARE(words.mid(0, 2), (QStringList{"epsilonlab-cli", "train"}));
    QVERIFY2(line.contains("--no-epoch-eval") || line.contains("--no-eval-every-epoch"),
             qPrintable(line));
    const CliOutcome o = runCli(words.mid(1) + QStringList{"--print-config"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err + line));
    QCOMPARE(o.jsonLines().size(), 1);
    QCOMPARE(o.jsonLines().front(), epsilon::ui::experimentToJson(config));
    // The default experiment needs no flag at all.
    QCOMPARE(epsilon::ui::trainCommandLine({}), QStringLiteral("epsilonlab-cli train"));
  }
};

QTEST_MAIN(TestCliBudget)
#include "test_cli_budget.moc"
