// Figure files (a described line chart for epsilonlab-plot) round-trip exactly, and a bad file
// is refused with a message naming the file and the key.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/figure_file.h"
#include "core/common/errors.h"

using namespace epsilon::ui;

namespace {

Figure sampleFigure() {
  Figure f;
  f.title = QStringLiteral("Measured ε̂ ≥ 1.20 vs accountant ε ≤ 4");
  f.x = {QStringLiteral("false-positive rate"), true, 1e-4, 1.0};
  f.y = {QStringLiteral("true-positive rate"), false, 0.0, 0.0};
  f.series = {{QStringLiteral("bound"),
               FigureLine::Bold,
               {{1e-4, 0.01}, {0.5, 0.9}, {1.0, 1.0}},
               QStringLiteral("#1f77b4")},
              {QStringLiteral("chance"), FigureLine::Dashed, {{1e-4, 1e-4}, {1.0, 1.0}}, {}}};
  return f;
}

QString writeText(const QTemporaryDir& dir, const QByteArray& text) {
  const QString path = dir.filePath(QStringLiteral("figure.json"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) return {};
  return path;
}

}  // namespace

class TestFigureFile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripsExactly() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.json"));
    saveFigure(path, sampleFigure());
    const Figure back = loadFigure(path);
    const Figure original = sampleFigure();
    QCOMPARE(back.title, original.title);
    QCOMPARE(back.x.log, true);
    QCOMPARE(back.x.min, 1e-4);
    QCOMPARE(back.y.log, false);
    QCOMPARE(back.series.size(), std::size_t{2});
    QCOMPARE(back.series[0].line, FigureLine::Bold);
    QCOMPARE(back.series[1].line, FigureLine::Dashed);
    QCOMPARE(back.series[0].points, original.series[0].points);
    QCOMPARE(back.series[0].color, QStringLiteral("#1f77b4"));
    QVERIFY(back.series[1].color.isEmpty());  // no colour: the palette's
  }

  void badFilesNameTheKey_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray head = R"({"format":"epsilonlab-figure","version":1,"x":{},"y":{},)";
    QTest::newRow("unknown key") << QByteArray(head + R"("series":[],"colour":1})") << "colour";
    QTest::newRow("wrong format") << QByteArray(R"({"format":"epsilonlab-session","version":1})")
                                  << "format";
    QTest::newRow("log axis at 0")
        << QByteArray(
               R"({"format":"epsilonlab-figure","version":1,"x":{"log":true,"min":0,"max":1},"y":{},"series":[]})")
        << "x.min";
    QTest::newRow("no points") << QByteArray(head + R"("series":[{"name":"a","points":[]}]})")
                               << "series[0].points";
    QTest::newRow("bad point") << QByteArray(head + R"("series":[{"name":"a","points":[[1]]}]})")
                               << "series[0].points[0]";
    QTest::newRow("bad line")
        << QByteArray(head + R"("series":[{"name":"a","line":"wavy","points":[[1,2]]}]})")
        << "series[0].line";
    QTest::newRow("bad colour")
        << QByteArray(head + R"("series":[{"name":"a","color":"blue","points":[[1,2]]}]})")
        << "series[0].color";
  }

  void badFilesNameTheKey() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = writeText(dir, text);
    QVERIFY(!path.isEmpty());
    try {
      loadFigure(path);
      QFAIL("a bad figure file was accepted");
    } catch (const epsilon::ConfigError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(path) && message.contains(expected), qPrintable(message));
    }
  }
};

QTEST_APPLESS_MAIN(TestFigureFile)
#include "test_figure_file.moc"
