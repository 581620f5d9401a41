// `epsilonlab-cli reproduce --quick` end to end: index.html exists, has a section for every
// preset file in resources/presets/, a verdict ("same trend" or "different trend") for every
// figure each preset names, and every image it references exists and loads.
#include <QDir>
#include <QFile>
#include <QJsonValue>
#include <QSet>
#include <QTest>
#ifdef EPSILON_HAVE_PLOT
#include <QImage>
#endif
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_runner.h"

class TestCliReproduce : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void quickReportCoversEveryPresetAndFigure() {
    QTemporaryDir dir;
    const QString out = dir.filePath("report");
    const epsilon::test::CliOutcome o =
        epsilon::test::runCli({"reproduce", "--quick", "--quiet", "--out", out}, 1700000);
#ifndef EPSILON_HAVE_PLOT
    // Built without the GUI: the report's charts cannot be drawn, and reproduce says why at once.
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("epsilonlab-plot") && o.err.contains("EPSILON_BUILD_GUI"),
             qPrintable(o.err));
    QVERIFY(!QFile::exists(QDir(out).filePath("index.html")));
#else
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QVERIFY(o.out.contains("figures show the same trend"));

    QFile file(QDir(out).filePath("index.html"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(file.readAll());
    QVERIFY(html.contains("<b>quick</b>"));
    QVERIFY(html.contains("Wall time"));

    // Every preset file, and every figure it names, has its section and verdict.
    const QDir presets(QStringLiteral(EPSILON_SOURCE_DIR "/resources/presets"));
    const QStringList files = presets.entryList({"*.json"}, QDir::Files);
    QVERIFY(files.size() >= 14);
    int verdicts = 0;
    for (const QString& name : files) {
      QFile presetFile(presets.filePath(name));
      QVERIFY(presetFile.open(QIODevice::ReadOnly));
      const QJsonObject preset = QJsonDocument::fromJson(presetFile.readAll()).object();
      const QString id = preset["name"].toString();
      QVERIFY2(html.contains("<section id=\"preset-" + id + "\">"), qPrintable(id));
      QSet<QString> figures;
      for (const QJsonValue& trend : preset["expected_trend"].toArray())
        figures.insert(trend.toObject()["figure"].toString());
      for (const QString& figure : figures) {
        const QRegularExpression verdict("data-preset=\"" + QRegularExpression::escape(id) +
                                         "\" data-figure=\"" +
                                         QRegularExpression::escape(figure.toHtmlEscaped()) +
                                         "\" data-verdict=\"(same trend|different trend)\"");
        QVERIFY2(verdict.match(html).hasMatch(), qPrintable(id + " / " + figure));
        ++verdicts;
      }
    }
    QCOMPARE(html.count("class=\"verdict\""), verdicts);

    // Every image referenced exists and loads.
    const QRegularExpression image("<img src=\"([^\"]+)\"");
    int images = 0;
    for (auto it = image.globalMatch(html); it.hasNext();) {
      const QString path = QDir(out).filePath(it.next().captured(1));
      QImage loaded;
      QVERIFY2(loaded.load(path), qPrintable(path));
      QVERIFY(loaded.width() >= 800 && loaded.height() >= 500);
      ++images;
    }
    QCOMPARE(images, static_cast<int>(files.size()));
    // The per-preset numbers are there as CSV too.
    QVERIFY(QFile::exists(QDir(out).filePath("runs/report-fig4-noise/summary.csv")));
#endif
  }
};

QTEST_GUILESS_MAIN(TestCliReproduce)
#include "test_cli_reproduce.moc"
