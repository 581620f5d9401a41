// Strings are capped where the charts draw them: a figure with a 100 KB title, axis titles and
// series names, or runs with a 1 MB name, are drawn with a few hundred characters and "…",
// quickly, to PNG (what epsilonlab-plot does); a short text is drawn as it is.
#include <QChart>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include "base/io/figure_file.h"
#include "base/io/run_record.h"
#include "ui/charts/drawn_text.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/headless_plot.h"
#include "ui/charts/run_legend.h"

using namespace epsilon::ui;

namespace {

const QString kLong(100 * 1024, QLatin1Char('w'));  // one 100 KB word

Figure longFigure() {
  Figure figure;
  figure.title = kLong;
  figure.x.title = kLong;
  figure.y.title = kLong;
  FigureSeries series;
  series.name = kLong;
  series.points = {{0, 0}, {1, 1}};
  figure.series.push_back(series);
  return figure;
}

RunRecord longRun() {
  RunRecord run;
  run.id = 1;
  run.name = QString(1 << 20, QLatin1Char('n'));
  run.color = QStringLiteral("#1f77b4");
  run.status = RunStatus::Done;
  for (int i = 1; i <= 3; ++i) {
    EvalPoint e;
    e.step = i;
    e.epoch = i;
    e.testAccuracy = 0.5 + 0.1 * i;
    e.epsilon = i;
    e.trainLoss = 1.0 / i;
    run.evals.push_back(e);
  }
  return run;
}

}  // namespace

class TestDrawnText : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void shortTextIsUnchangedLongIsElided() {
    QCOMPARE(drawnText(QStringLiteral("σ 0.5 · C 4")), QStringLiteral("σ 0.5 · C 4"));
    const QString drawn = drawnText(kLong);
    QCOMPARE(drawn.size(), kMaxDrawnCharacters + 1);
    QVERIFY(drawn.endsWith(QChar(0x2026)));
  }

  void figureTextsAreCapped() {
    const auto chart = buildFigureChart(longFigure());
    QVERIFY(chart->title().size() <= kMaxDrawnCharacters + 1);
    QVERIFY(chart->series().first()->name().size() <= kMaxDrawnCharacters + 1);
    for (QAbstractAxis* axis : chart->axes())
      QVERIFY(axis->titleText().size() <= kMaxDrawnCharacters + 1);
  }

  void figureWithALongTitlePlotsQuickly() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("figure.png"));
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(plotFigureToFile(longFigure(), out, {800, 600}, 96), QString());
    QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(QFileInfo(out).size() > 0);
  }

  void runWithALongNamePlotsQuickly() {
    QVERIFY(runLegendHtml({longRun()}).size() < 2 * kMaxDrawnCharacters);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("runs.png"));
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(plotChartToFile({longRun()}, QStringLiteral("accuracy-vs-epoch"), out, {800, 600}, 96,
                             kLong),
             QString());
    QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
  }

  // A legend breaks lines between runs only: "tfp-cnn · σ 4" never ends a line at its hyphen.
  void legendEntriesStayWhole() {
    std::vector<RunRecord> runs(4);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      runs[i].name = QStringLiteral("tfp-cnn · σ %1").arg(i + 1);
      runs[i].color = QStringLiteral("#1f77b4");
    }
    QTextDocument document;
    document.setHtml(runLegendHtml(runs));
    const qreal oneLine = document.idealWidth();
    for (int percent = 30; percent < 100; percent += 5) {  // too narrow for one line
      document.setTextWidth(oneLine * percent / 100);
      int lines = 0;
      for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        QTextLayout* layout = block.layout();
        for (int i = 0; i < layout->lineCount(); ++i, ++lines) {
          const QTextLine line = layout->lineAt(i);
          const QString text = block.text().mid(line.textStart(), line.textLength()).trimmed();
          QVERIFY2(!text.endsWith(QLatin1Char('-')) && !text.startsWith(QStringLiteral("cnn")),
                   qPrintable(QStringLiteral("%1%: '%2'").arg(percent).arg(text)));
        }
      }
      QVERIFY(lines >= 2);
    }
  }
};

QTEST_MAIN(TestDrawnText)
#include "test_drawn_text.moc"
