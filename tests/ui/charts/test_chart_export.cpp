// Charts draw one point per evaluation and export to PNG (reopened at the requested size),
// SVG (parses) and PDF; an unwritable place gives a message and no file.
#include <QChart>
#include <QDir>
#include <QDomDocument>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include "base/session/run_model.h"
#include "ui/charts/chart_export.h"
#include "ui/widgets/chart_panel.h"

using namespace epsilon::ui;

class TestChartExport : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void chartsHoldOnePointPerEvaluation() {
    RunModel model;
    ChartPanel panel(&model);
    RunRecord r;
    const int id = model.addRun(r);
    for (int e = 1; e <= 5; ++e) {
      EvalPoint p;
      p.step = e * 10;
      p.epoch = e;
      p.testAccuracy = 0.8 + 0.01 * e;
      p.epsilon = 0.5 * e;
      model.appendEval(id, p);
    }
    model.appendLosses(id, {{1, 2.0}, {2, 1.5}, {3, 1.2}});
    panel.redrawNow();
    QCOMPARE(panel.charts()->pointCount(ChartKind::AccuracyVsEpoch, id), 5);
    QCOMPARE(panel.charts()->pointCount(ChartKind::EpsilonVsEpoch, id), 5);
    QCOMPARE(panel.charts()->pointCount(ChartKind::AccuracyVsEpsilon, id), 5);
    QCOMPARE(panel.charts()->pointCount(ChartKind::LossVsStep, id), 3);
    model.setVisible(id, false);
    panel.redrawNow();
    QCOMPARE(panel.charts()->pointCount(ChartKind::AccuracyVsEpoch, id), 0);
  }
  // A live redraw draws one chart a turn: the work the four charts share (the drawn runs, the
  // legend, the log axes) is done at the first chart and reused by the other three, and done
  // again as soon as the runs themselves change between two turns.
  void aRedrawDoesItsSharedWorkOnce() {
    RunCharts charts;
    std::vector<RunRecord> runs(3);
    for (int i = 0; i < 3; ++i) {
      runs[static_cast<std::size_t>(i)].id = i + 1;
      EvalPoint p;
      p.epoch = 1;
      p.testAccuracy = 0.8;
      p.epsilon = 1.0 + i;
      runs[static_cast<std::size_t>(i)].evals.push_back(p);
    }
    charts.update(runs);
    QCOMPARE(charts.sharedWorkCount(), 1);
    for (ChartKind kind : kAllChartKinds) charts.update(runs, kind);
    QCOMPARE(charts.sharedWorkCount(), 2);  // once for the four charts of the redraw
    charts.update(runs, ChartKind::AccuracyVsEpoch);
    QCOMPARE(charts.sharedWorkCount(), 3);
    runs.push_back(runs.back());  // a run added between two turns
    runs.back().id = 4;
    charts.update(runs, ChartKind::EpsilonVsEpoch);
    QCOMPARE(charts.sharedWorkCount(), 4);
    QCOMPARE(charts.pointCount(ChartKind::EpsilonVsEpoch, 4), 1);
    runs.front().visible = false;  // a run hidden between two turns
    charts.update(runs, ChartKind::AccuracyVsEpsilon);
    QCOMPARE(charts.sharedWorkCount(), 5);
    QCOMPARE(charts.pointCount(ChartKind::AccuracyVsEpsilon, 1), 0);
    charts.update(runs, ChartKind::LossVsStep);  // nothing changed: reused
    QCOMPARE(charts.sharedWorkCount(), 5);
  }
  void redrawsAreCoalesced() {
    RunModel model;
    ChartPanel panel(&model);
    const int id = model.addRun(RunRecord{});
    const int before = panel.redrawCount();
    for (int i = 0; i < 200; ++i) model.appendLosses(id, {{i, 1.0}});
    QTRY_VERIFY_WITH_TIMEOUT(panel.redrawCount() > before, 2000);
    QVERIFY2(panel.redrawCount() - before <= 2, "200 updates must not cause 200 redraws");
  }
  // While the privacy readout has a calibration or preview on its way, a redraw that comes due
  // waits for its delivery and follows it without asking again; undelivered, it still comes
  // (charts stay live), but only after the longest wait, never at the usual 100 ms.
  void aRedrawWaitsForTheReadoutsDelivery() {
    RunModel model;
    ChartPanel panel(&model);
    const int id = model.addRun(RunRecord{});
    panel.redrawNow();
    int asked = 0;
    panel.deferRedrawWhile([&asked] {
      ++asked;
      return true;
    });
    const int before = panel.redrawCount();
    model.appendLosses(id, {{1, 1.0}});
    QVERIFY(QTest::qWaitFor([&asked] { return asked > 0; }, 5000));
    QCOMPARE(panel.redrawCount(), before);  // due, the readout busy: not drawn
    const int askedBefore = asked;
    panel.releaseRedraw();
    QTRY_VERIFY_WITH_TIMEOUT(panel.redrawCount() == before + 1, 5000);
    QCOMPARE(asked, askedBefore);  // drawn because delivered, not at the longest wait
    QTRY_COMPARE(panel.charts()->pointCount(ChartKind::LossVsStep, id), 1);  // a chart a turn

    QElapsedTimer waited;
    waited.start();
    model.appendLosses(id, {{2, 0.9}});
    QTRY_VERIFY_WITH_TIMEOUT(panel.redrawCount() == before + 2, 5000);
    QVERIFY2(waited.elapsed() >= 200, qPrintable(QString::number(waited.elapsed())));
    QVERIFY(asked > askedBefore);
  }
  void exportsPngSvgPdf() {
    RunModel model;
    ChartPanel panel(&model);
    panel.resize(800, 600);
    RunRecord r;
    const int id = model.addRun(r);
    EvalPoint p;
    p.epoch = 1;
    p.testAccuracy = 0.9;
    p.epsilon = 1.0;
    model.appendEval(id, p);
    panel.redrawNow();
    QTemporaryDir dir;
    QChart* chart = panel.charts()->chart(ChartKind::AccuracyVsEpoch);
    const RenderFunction one = [chart](QPainter& painter, const QRectF& target) {
      renderChart(chart, painter, target);
    };
    const QString png = dir.filePath(QStringLiteral("a.png"));
    QCOMPARE(exportDrawing(one, png, QSize(1200, 700), 150), QString());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1200, 700));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 150);
    int nonWhite = 0;
    for (int y = 0; y < image.height(); y += 4)
      for (int x = 0; x < image.width(); x += 4)
        nonWhite += image.pixel(x, y) != qRgb(255, 255, 255);
    QVERIFY2(nonWhite > 500, "the exported chart is blank");

    const QString svg = dir.filePath(QStringLiteral("grid.svg"));
    const RenderFunction grid = [&panel](QPainter& painter, const QRectF& target) {
      panel.charts()->renderGrid(painter, target);
    };
    QCOMPARE(exportDrawing(grid, svg, QSize(1000, 800), 96, QStringLiteral("grid")), QString());
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QDomDocument dom;
    QVERIFY(dom.setContent(&svgFile));
    QCOMPARE(dom.documentElement().tagName(), QStringLiteral("svg"));

    const QString pdf = dir.filePath(QStringLiteral("a.pdf"));
    QCOMPARE(exportDrawing(one, pdf, QSize(800, 500), 96), QString());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == QByteArray("%PDF-"));
  }
  void unwritablePlaceGivesMessage() {
    RunModel model;
    ChartPanel panel(&model);
    QChart* chart = panel.charts()->chart(ChartKind::LossVsStep);
    const RenderFunction one = [chart](QPainter& painter, const QRectF& target) {
      renderChart(chart, painter, target);
    };
    const QString error =
        exportDrawing(one, QStringLiteral("/proc/no-such-dir/x.png"), QSize(100, 100));
    QVERIFY2(error.contains(QStringLiteral("/proc/no-such-dir/x.png")), qPrintable(error));
    QVERIFY(exportDrawing(one, QDir::temp().filePath(QStringLiteral("x.bmpx")), QSize(100, 100))
                .contains(QStringLiteral("unknown export format")));
  }
};

QTEST_MAIN(TestChartExport)
#include "test_chart_export.moc"
