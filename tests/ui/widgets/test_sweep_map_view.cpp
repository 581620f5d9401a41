// The Sweep map tab (issue 28, item 5): a 2×2 sweep's runs make a 2×2 map that follows the
// runs as they finish, the run marked best under an ε level is the right one, a click on it
// selects it in the Runs table, and the map's SVG export, drawn by librsvg's rsvg-convert,
// shows the heat map and the best run's mark.
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "base/session/run_model.h"
#include "tests/base/io/sweep_map_runs.h"
#include "ui/charts/sweep_map_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_map_view.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A window without settings, recovery copy or questions, as for a scripted picture.
MainWindow::Options testOptions() {
  return MainWindow::startupOptions(false, true);
}

RunRecord sweepRun(double sigma, double clip, double accuracy, double epsilon) {
  return test::finishedSweepRun(sigma, clip, accuracy, epsilon);
}

// Pixels of the best-run mark's magenta (#e4007c), within a tolerance for antialiasing.
int markPixels(const QImage& image) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      count += std::abs(qRed(p) - 0xe4) < 24 && qGreen(p) < 40 && std::abs(qBlue(p) - 0x7c) < 24;
    }
  return count;
}

}  // namespace

class TestSweepMapView : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void mapFollowsTheRunsAndSelectsTheClickedOne() {
    MainWindow window(testOptions());
    window.resize(1280, 720);
    window.show();
    QVERIFY(window.showTab(QStringLiteral("Sweep map")));
    RunModel* runs = window.runModel();
    // ε rises as σ falls; accuracy rises with ε. At ε ≤ 2 the best is σ 1 · C 4 (ε 1.8, 88%).
    const int lowNoise = runs->addRun(sweepRun(0.5, 1, 0.93, 6.0));
    runs->addRun(sweepRun(0.5, 4, 0.95, 6.5));
    runs->addRun(sweepRun(1.0, 1, 0.86, 1.7));
    RunRecord pending = sweepRun(1.0, 4, 0.0, 0.0);
    pending.status = RunStatus::Running;
    pending.evals.clear();
    const int best = runs->addRun(pending);
    SweepMapView* view = window.sweepMapView();
    QVERIFY(view);
    view->redrawNow();
    const SweepMapChart& chart = view->chart();
    QVERIFY2(chart.map().valid(), qPrintable(chart.map().problem));
    QCOMPARE(chart.map().nx(), 2);
    QCOMPARE(chart.map().ny(), 2);
    // Running: no value yet, so the best under ε 2 is σ 1 · C 1 for now.
    int bestCell = bestCellUnder(chart.map(), 2.0);
    QVERIFY(bestCell >= 0);
    QVERIFY(chart.map().runIds[static_cast<std::size_t>(bestCell)] != best);
    // The run finishes: the map follows the model's signals without being asked.
    EvalPoint last;
    last.epoch = 2;
    last.testAccuracy = 0.88;
    last.epsilon = 1.8;
    runs->appendEval(best, last);
    runs->setStatus(best, RunStatus::Done);
    QTRY_VERIFY(bestCellUnder(view->chart().map(), 2.0) >= 0 &&
                view->chart().map().runIds[static_cast<std::size_t>(
                    bestCellUnder(view->chart().map(), 2.0))] == best);
    QVERIFY(std::find(chart.levels().begin(), chart.levels().end(), 2.0) != chart.levels().end());
    bestCell = bestCellUnder(chart.map(), 2.0);
    QCOMPARE(chart.map().runIds[static_cast<std::size_t>(bestCell)], best);
    QVERIFY(chart.describeRun(best).contains(QStringLiteral("σ 1 · C 4")));
    QVERIFY(chart.describeRun(best).contains(QStringLiteral("δ = 1e-5")));
    // A click on its cell selects it in the Runs table; another cell, another run.
    const QPoint centre = chart.cellRect(view->rect(), bestCell).center().toPoint();
    QTest::mouseClick(view, Qt::LeftButton, {}, centre);
    QCOMPARE(window.runsView()->selectedRunIds(), QList<int>{best});
    const int other = chart.map().runIds[0];  // the lowest σ and C: σ 0.5 · C 1
    QCOMPARE(other, lowNoise);
    QTest::mouseClick(view, Qt::LeftButton, {}, chart.cellRect(view->rect(), 0).center().toPoint());
    QCOMPARE(window.runsView()->selectedRunIds(), QList<int>{other});
  }

  void svgExportRendersTheMap() {
    const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
    QVERIFY2(!rsvg.isEmpty(), "rsvg-convert not found: install Debian's librsvg2-bin");
    MainWindow window(testOptions());
    RunModel* runs = window.runModel();
    runs->addRun(sweepRun(0.5, 1, 0.93, 6.0));
    runs->addRun(sweepRun(0.5, 4, 0.95, 6.5));
    runs->addRun(sweepRun(1.0, 1, 0.86, 1.7));
    runs->addRun(sweepRun(1.0, 4, 0.88, 1.8));
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("map.svg"));
    const QString png = dir.filePath(QStringLiteral("map.png"));
    QCOMPARE(window.exportChartTo(kSweepMapChart, svg, QSize(1200, 800), 96), QString());
    QProcess process;
    process.start(rsvg, {QStringLiteral("-w"), QStringLiteral("1200"), QStringLiteral("-h"),
                         QStringLiteral("800"), QStringLiteral("-b"), QStringLiteral("white"),
                         QStringLiteral("-o"), png, svg});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1200, 800));
    QVERIFY2(markPixels(image) > 200, "the best run's mark is missing from the SVG");
    // The heat map's darkest colour (viridis' start, the lowest accuracy) fills a cell.
    int dark = 0;
    for (int y = 0; y < image.height(); y += 2)
      for (int x = 0; x < image.width(); x += 2) {
        const QRgb p = image.pixel(x, y);
        dark += qRed(p) < 0x50 && qGreen(p) < 0x10 && qBlue(p) > 0x40 && qBlue(p) < 0x60;
      }
    QVERIFY2(dark > 2000, qPrintable(QStringLiteral("dark cell pixels: %1").arg(dark)));
  }
};

QTEST_MAIN(TestSweepMapView)
#include "test_sweep_map_view.moc"
