// `epsilonlab-cli presets` and `sweep` as users run them: a 2×2 sweep on the circle data set
// writes one run file per point and summary.csv; shards 1/2 and 2/2 cover every index once
// and give the same numbers as the whole sweep; --plot writes a PNG that loads; an
// accountant preset runs instantly; bad input exits with status 2 naming the flag or field.
#include <QDir>
#include <QFile>
#include <QMap>
#include <QSet>
#include <QTest>
#ifdef EPSILON_HAVE_PLOT
#include <QImage>
#endif
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "cli_runner.h"

namespace {

using epsilon::test::CliOutcome;
using epsilon::test::runCli;

// A well-formed preset whose sweep asks for 120 × 100 = 12000 runs, over the 10000 limit.
QString writeHugePreset(const QTemporaryDir& dir) {
  const auto axis = [](const char* parameter, int n) {
    QJsonArray values;
    for (int i = 1; i <= n; ++i) values.append(i);
    return QJsonObject{{"parameter", parameter}, {"values", values}};
  };
  QJsonObject preset = QJsonDocument::fromJson(R"({
    "format": "epsilonlab-preset", "version": 1, "name": "huge", "title": "t", "source": "s",
    "reproduces": "r", "document_says": "d", "experiment": {"dataset": {"name": "circle"}},
    "expected_trend": [{"figure": "F", "statement": "s", "metric": "final_accuracy",
                        "over": "seed", "order": "flat", "tolerance": 1}]})")
                           .object();
  preset["sweep"] = QJsonArray{axis("seed", 120), axis("epochs", 100)};
  const QString path = dir.filePath("huge-preset.json");
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(QJsonDocument(preset).toJson());
  return path;
}

QStringList sweepArgs(const QString& config) {
  return {"sweep",    "--config",      config,   "--param", "noise_multiplier=0.5,2",
          "--param2", "clip_norm=1,4", "--jobs", "2",       "--quiet"};
}

// The cell of column `name` in a summary.csv row, counted from the row's end: the label before
// it may hold quoted commas, the header's names and the settings cells of these sweeps none.
QString cellNamed(const QString& header, const QString& row, const QString& name) {
  const QStringList names = header.split(','), cells = row.split(',');
  const qsizetype fromEnd = names.size() - names.indexOf(name);
  return names.contains(name) && cells.size() >= fromEnd ? cells[cells.size() - fromEnd]
                                                         : QString();
}

// index -> final accuracy, from summary.csv.
QMap<int, QString> summaryOf(const QString& dir) {
  QFile file(QDir(dir).filePath("summary.csv"));
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
  QMap<int, QString> out;
  for (int i = 1; i < rows.size(); ++i)
    out.insert(rows[i].section(',', 0, 0).toInt(), cellNamed(rows[0], rows[i], "final_accuracy"));
  return out;
}

}  // namespace

class TestCliSweep : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetsAreListed() {
    const CliOutcome table = runCli({"presets"});
    QCOMPARE(table.exitCode, 0);
    for (const char* name :
         {"report-fig3-clip-norm", "abadi-privacy-levels", "amian-tanh-output-range",
          "mindarmour-noise-decay", "teach-epochs-cost"})
      QVERIFY2(table.out.contains(name), name);
    const CliOutcome json = runCli({"presets", "--json"});
    QCOMPARE(json.exitCode, 0);
    const QStringList lines = json.out.split('\n', Qt::SkipEmptyParts);
    // One line per preset file in resources/presets (each is compiled in).
    const qsizetype files = QDir(QStringLiteral(EPSILON_SOURCE_DIR "/resources/presets"))
                                .entryList({QStringLiteral("*.json")}, QDir::Files)
                                .size();
    QVERIFY(files >= 17);
    QCOMPARE(lines.size(), files);
    const QJsonObject first = QJsonDocument::fromJson(lines.first().toUtf8()).object();
    QCOMPARE(first["name"].toString(), QString("report-fig3-clip-norm"));
    QVERIFY(first["source"].toString().contains("seed 000"));
    QCOMPARE(first["figures"].toArray().first().toString(), QString("Fig. 3"));
  }

  void twoByTwoSweepWritesEveryPoint() {
    QTemporaryDir dir;
    const QString out = dir.filePath("all");
    const CliOutcome o = runCli(sweepArgs(epsilon::test::writeCircleExperiment(dir.path())) +
                                QStringList{"--out", out});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QStringList files = QDir(out).entryList({"run-*.json"}, QDir::Files, QDir::Name);
    QCOMPARE(files, (QStringList{"run-00-noise_multiplier=0.5,clip_norm=1.json",
                                 "run-01-noise_multiplier=0.5,clip_norm=4.json",
                                 "run-02-noise_multiplier=2,clip_norm=1.json",
                                 "run-03-noise_multiplier=2,clip_norm=4.json"}));
    QFile file(QDir(out).filePath(files[3]));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject run = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(run["format"].toString(), QString("epsilonlab-run"));
    QCOMPARE(run["status"].toString(), QString("done"));
    QCOMPARE(run["experiment"].toObject()["privacy"].toObject()["noise_multiplier"].toDouble(),
             2.0);
    QCOMPARE(run["experiment"].toObject()["privacy"].toObject()["clip_norm"].toDouble(), 4.0);
    QCOMPARE(run["history"].toArray().size(), 3);  // steps 0, 10, 20
    QCOMPARE(run["sweep"].toObject()["index"].toInt(), 3);
    const auto summary = summaryOf(out);
    QCOMPARE(summary.keys(), (QList<int>{0, 1, 2, 3}));
    for (const QString& accuracy : summary)
      QVERIFY(accuracy.toDouble() > 0.0 && accuracy.toDouble() <= 1.0);
    // σ = 0.5 spends more ε than σ = 2 (column final_epsilon).
    QFile csv(QDir(out).filePath("summary.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    // The run's outcome, then the settings a report needs and those that differ.
    QCOMPARE(rows[0], QString("index,label,values,final_accuracy,final_epsilon,nominal_epsilon,"
                              "delta,accountant,status,seconds,model.preset,model.hidden,"
                              "training.lot_size,training.epochs,optimizer.learning_rate,"
                              "privacy.clip_norm,privacy.noise_multiplier"));
    QVERIFY(cellNamed(rows[0], rows[1], "final_epsilon").toDouble() >
            cellNamed(rows[0], rows[3], "final_epsilon").toDouble());
    QCOMPARE(cellNamed(rows[0], rows[3], "privacy.noise_multiplier"), QString("2"));  // index 2
    QCOMPARE(cellNamed(rows[0], rows[4], "privacy.clip_norm"), QString("4"));         // index 3
  }

  void shardsCoverEveryIndexOnceWithTheSameNumbers() {
    QTemporaryDir dir;
    const QString config = epsilon::test::writeCircleExperiment(dir.path());
    QVERIFY(runCli(sweepArgs(config) + QStringList{"--out", dir.filePath("all")}).exitCode == 0);
    const CliOutcome a =
        runCli(sweepArgs(config) + QStringList{"--shard", "1/2", "--out", dir.filePath("s1")});
    const CliOutcome b =
        runCli(sweepArgs(config) + QStringList{"--shard", "2/2", "--out", dir.filePath("s2")});
    QVERIFY2(a.exitCode == 0 && b.exitCode == 0, qPrintable(a.err + b.err));
    const auto first = summaryOf(dir.filePath("s1")), second = summaryOf(dir.filePath("s2")),
               all = summaryOf(dir.filePath("all"));
    QCOMPARE(first.keys(), (QList<int>{0, 2}));
    QCOMPARE(second.keys(), (QList<int>{1, 3}));
    for (int i : {0, 1, 2, 3})
      QCOMPARE((first.contains(i) ? first : second)[i], all[i]);  // bit-identical runs
    QVERIFY(QFile::exists(dir.filePath("s2/run-03-noise_multiplier=2,clip_norm=4.json")));
    QVERIFY(!QFile::exists(dir.filePath("s2/run-02-noise_multiplier=2,clip_norm=1.json")));
  }

  void plotWritesAnImage() {
    QTemporaryDir dir;
    const QString png = dir.filePath("sweep.png");
    const CliOutcome o = runCli(sweepArgs(epsilon::test::writeCircleExperiment(dir.path())) +
                                QStringList{"--plot", png});
#ifndef EPSILON_HAVE_PLOT
    // Built without the GUI: no plot tool, and --plot says so before any run.
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("epsilonlab-plot") && o.err.contains("EPSILON_BUILD_GUI"),
             qPrintable(o.err));
    QVERIFY(!QFile::exists(png));
#else
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QImage image;
    QVERIFY(image.load(png));
    QCOMPARE(image.size(), QSize(1400, 950));
    // Not a blank canvas: the curves and text put many colours on it.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 20);
    // The σ × C sweep is drawn as a map beside the grid (sweep-map.png): a heat map of four
    // cells, the best run under an ε level marked in magenta (#e4007c).
    QImage map;
    QVERIFY(map.load(dir.filePath("sweep-map.png")));
    QCOMPARE(map.size(), QSize(1200, 800));
    int marked = 0;
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x) {
        const QRgb p = map.pixel(x, y);
        marked += qRed(p) > 0xd0 && qGreen(p) < 0x30 && qBlue(p) > 0x60 && qBlue(p) < 0x98;
      }
    QVERIFY2(marked > 100, "no best-run mark on the sweep map");
#endif
  }

  void accountantPresetRunsWithoutTraining() {
    QTemporaryDir dir;
    const CliOutcome o =
        runCli({"sweep", "--preset", "report-fig6-epsilon-epochs", "--out", dir.path()});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QStringList lines = o.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    double previous = 1e300;
    for (const QString& line : lines) {  // σ = 0.5 … 8: less and less ε
      const double epsilon =
          QJsonDocument::fromJson(line.toUtf8()).object()["final_epsilon"].toDouble();
      QVERIFY(epsilon > 0 && epsilon < previous);
      previous = epsilon;
    }
    QFile file(QDir(dir.path()).filePath("run-00-noise_multiplier=0.5.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray history =
        QJsonDocument::fromJson(file.readAll()).object()["history"].toArray();
    QCOMPARE(history.size(), 16);  // epochs 0 … 15
    for (int i = 1; i < history.size(); ++i)
      QVERIFY(history[i].toObject()["epsilon"].toDouble() >
              history[i - 1].toObject()["epsilon"].toDouble());
  }

  void badInputExitsTwoNamingTheFlag_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("neither") << QStringList{"sweep"} << "--config/--preset";
    QTest::newRow("both") << QStringList{"sweep", "--preset", "teach-clip-range", "--config",
                                         "x.json"}
                          << "--config/--preset";
    QTest::newRow("param form") << QStringList{"sweep", "--config", "@EXP", "--param",
                                               "noise_multiplier"}
                                << "--param: expected NAME=v1,v2";
    QTest::newRow("param name") << QStringList{"sweep", "--config", "@EXP", "--param", "colour=1,2"}
                                << "--param: sweep.parameter: expected one of";
    QTest::newRow("param value") << QStringList{"sweep", "--config", "@EXP", "--param",
                                                "clip_norm=1,big"}
                                 << "sweep.clip_norm: expected a number";
    QTest::newRow("no param") << QStringList{"sweep", "--config", "@EXP"} << "--param: required";
    QTest::newRow("shard") << QStringList{"sweep", "--preset", "teach-clip-range", "--shard", "3/2"}
                           << "--shard";
    QTest::newRow("preset") << QStringList{"sweep", "--preset", "no-such-preset"}
                            << "--preset: unknown preset 'no-such-preset'";
    QTest::newRow("plot") << QStringList{"sweep",  "--config", "@EXP", "--param",
                                         "seed=1", "--plot",   "x.txt"}
                          << "--plot: expected a .png, .svg or .pdf";
    QTest::newRow("jobs") << QStringList{"sweep",  "--config", "@EXP", "--param",
                                         "seed=1", "--jobs",   "0"}
                          << "--jobs";
    QTest::newRow("quick") << QStringList{"sweep",   "--config", "@EXP",
                                          "--param", "seed=1",   "--quick"}
                           << "--quick: only with a preset";
    QTest::newRow("lot") << QStringList{"sweep", "--config", "@EXP", "--param", "lot_size=32,5000"}
                         << "lot";
    QTest::newRow("config file") << QStringList{"sweep", "--config", "/no/such/file.json",
                                                "--param", "seed=1"}
                                 << "/no/such/file.json";
    QTest::newRow("preset file") << QStringList{"sweep", "--config", "@BADPRESET"}
                                 << "bad-preset.json: colour: unknown key";
    const auto values = [](const char* parameter, int n) {
      QStringList v;
      for (int i = 1; i <= n; ++i) v << QString::number(i);
      return QLatin1String(parameter) + QLatin1Char('=') + v.join(QLatin1Char(','));
    };
    QTest::newRow("too many runs")
        << QStringList{"sweep",    "--config",          "@EXP", "--param", values("seed", 200),
                       "--param2", values("epochs", 60)}
        << "--param/--param2: 200 × 60 values give 12000 runs, expected at most 10000";
    QTest::newRow("huge preset") << QStringList{"sweep", "--config", "@HUGEPRESET"}
                                 << "huge-preset.json: sweep: expands to 12000 runs, expected "
                                    "at most 10000";
    QTest::newRow("reproduce only") << QStringList{"reproduce", "--out", "@DIR", "--only", "nope"}
                                    << "--only: unknown preset 'nope'";
    QTest::newRow("reproduce out") << QStringList{"reproduce"} << "--out: required";
  }
  void badInputExitsTwoNamingTheFlag() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString config = epsilon::test::writeCircleExperiment(dir.path());
    // A preset file with one key too many.
    QFile preset(dir.filePath("bad-preset.json"));
    QVERIFY(preset.open(QIODevice::WriteOnly));
    preset.write(R"({"format": "epsilonlab-preset", "version": 1, "colour": "blue"})");
    preset.close();
    for (QString& a : arguments)
      a.replace("@EXP", config)
          .replace("@DIR", dir.filePath("report"))
          .replace("@BADPRESET", preset.fileName())
          .replace("@HUGEPRESET", writeHugePreset(dir));
    const CliOutcome o = runCli(arguments);
    QVERIFY2(o.exitCode == 2, qPrintable(QString::number(o.exitCode) + ": " + o.err));
    QVERIFY2(o.err.contains(expected), qPrintable(o.err));
  }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
