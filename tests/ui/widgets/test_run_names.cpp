// Run names and the grid's legend: a five-run sweep gets five different names that say what
// differs; the one legend below the grid shows every full name (the per-chart legends, which
// elided names, are hidden) and exported grids draw it; hiding a run rescales the axes.
#include <QChart>
#include <QImage>
#include <QLabel>
#include <QLogValueAxis>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QValueAxis>

#include "base/session/run_model.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

MainWindow::Options testOptions() {
  MainWindow::Options o;
  o.useSettings = false;
  return o;
}

// σ 0.5, 1, 2 and 4 with 30 epochs, and σ 1 again with 100 epochs.
std::vector<train::SweepPoint> fivePoints() {
  std::vector<train::SweepPoint> points;
  for (double sigma : {0.5, 1.0, 2.0, 4.0, 1.0}) {
    train::SweepPoint p;
    p.config.dataset.name = "circle";
    p.config.privacy.noise.initial = sigma;
    p.config.training.epochs = points.size() == 4 ? 100 : 30;
    points.push_back(p);
  }
  return points;
}

QString legendPlainText(const ChartPanel& panel) {
  QTextDocument document;
  document.setHtml(panel.legend()->text());
  return document.toPlainText().replace(QChar(0x00a0), QLatin1Char(' '));
}

// A finished run whose ε grows linearly to `finalEpsilon` over four epochs.
int addFinishedRun(RunModel* model, const QString& name, double finalEpsilon) {
  RunRecord r;
  r.name = name;
  r.status = RunStatus::Done;
  for (int e = 0; e <= 4; ++e) {
    EvalPoint p;
    p.epoch = e;
    p.testAccuracy = 0.8;
    p.epsilon = finalEpsilon * e / 4.0;
    r.evals.push_back(p);
  }
  return model->addRun(r);
}

double epsilonAxisMax(const ChartPanel& panel) {
  QChart* chart = panel.charts()->chart(ChartKind::EpsilonVsEpoch);
  return qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).first())->max();
}

}  // namespace

class TestRunNames : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void fiveRunSweepHasUniqueReadableNames() {
    MainWindow w(testOptions());
    w.resize(1024, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QList<int> ids = w.startSweep(fivePoints());
    w.controller()->cancelAll();
    QCOMPARE(ids.size(), 5);
    QSet<QString> names;
    for (int id : ids) {
      const QString name = w.runModel()->run(id)->name;
      QVERIFY(!name.isEmpty());
      names.insert(name);
    }
    QCOMPARE(names.size(), 5);
    QCOMPARE(w.runModel()->run(ids[4])->name.contains(QStringLiteral("100")),
             true);  // epochs differ

    w.chartPanel()->redrawNow();
    for (ChartKind kind : kAllChartKinds)
      QVERIFY(!w.chartPanel()->charts()->chart(kind)->legend()->isVisible());  // no eliding legends
    const QString legend = legendPlainText(*w.chartPanel());
    for (const QString& name : names)
      QVERIFY2(legend.contains(name), qPrintable(name + QStringLiteral(" in ") + legend));
    QLabel* label = w.chartPanel()->legend();
    QTRY_VERIFY(label->isVisible());
    QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(label->height())
                                .arg(label->heightForWidth(label->width()))));
  }

  void exportedGridDrawsTheLegend() {
    MainWindow w(testOptions());
    const int a = addFinishedRun(w.runModel(), QStringLiteral("first run"), 2.0);
    const int b = addFinishedRun(w.runModel(), QStringLiteral("second run"), 3.0);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("grid.png"));
    QCOMPARE(w.exportChartTo(-1, path, QSize(1200, 800), 96), QString());
    const QImage image(path);
    QVERIFY(!image.isNull());
    // Each run's colour swatch is drawn in the bottom strip, below the charts.
    for (int id : {a, b}) {
      const QColor colour(w.runModel()->run(id)->color);
      bool found = false;
      for (int y = image.height() - 60; y < image.height() && !found; ++y)
        for (int x = 0; x < image.width() && !found; ++x) found = image.pixelColor(x, y) == colour;
      QVERIFY2(found, qPrintable(colour.name()));
    }
  }

  void hidingARunRescalesTheAxes() {
    MainWindow w(testOptions());
    addFinishedRun(w.runModel(), QStringLiteral("small ε"), 2.0);
    const int big = addFinishedRun(w.runModel(), QStringLiteral("large ε"), 28.0);
    w.chartPanel()->redrawNow();
    QVERIFY(epsilonAxisMax(*w.chartPanel()) >= 28.0);
    w.runModel()->setVisible(big, false);
    w.chartPanel()->redrawNow();
    QVERIFY2(epsilonAxisMax(*w.chartPanel()) < 5.0,
             qPrintable(QString::number(epsilonAxisMax(*w.chartPanel()))));
    QVERIFY(!legendPlainText(*w.chartPanel()).contains(QStringLiteral("large ε")));
  }

  // The Focus view hides the privacy readout: the legend under the grid says what the shown
  // runs' ε assume, each distinct statement once, and only of the runs shown.
  void legendSaysWhatTheShownEpsilonAssume() {
    MainWindow w(testOptions());
    const QString rdp = QStringLiteral("δ = 1e-5 · RDP · Poisson sampling · DP guarantee");
    const QString pld = QStringLiteral("δ = 1e-6 · PLD · Poisson sampling · DP guarantee");
    const int a = addFinishedRun(w.runModel(), QStringLiteral("rdp run"), 2.0);
    const int b = addFinishedRun(w.runModel(), QStringLiteral("rdp again"), 3.0);
    const int c = addFinishedRun(w.runModel(), QStringLiteral("pld run"), 4.0);
    w.runModel()->setPrivacyLabel(a, rdp);
    w.runModel()->setPrivacyLabel(b, rdp);
    w.runModel()->setPrivacyLabel(c, pld);
    w.chartPanel()->redrawNow();
    QString legend = legendPlainText(*w.chartPanel());
    QVERIFY2(legend.contains(QStringLiteral("ε at ") + rdp + QStringLiteral("; ") + pld),
             qPrintable(legend));
    QCOMPARE(legend.count(rdp), 1);
    w.runModel()->setVisible(c, false);
    w.chartPanel()->redrawNow();
    legend = legendPlainText(*w.chartPanel());
    QVERIFY2(legend.contains(rdp) && !legend.contains(pld), qPrintable(legend));
    w.runModel()->setPrivacyLabel(a, {});
    w.runModel()->setPrivacyLabel(b, {});
    w.chartPanel()->redrawNow();
    legend = legendPlainText(*w.chartPanel());
    QVERIFY2(legend.contains(QStringLiteral("no run states its privacy")), qPrintable(legend));
  }

  void epsilonAxesTurnLogarithmicPastATwentyfoldSpan() {
    MainWindow w(testOptions());
    addFinishedRun(w.runModel(), QStringLiteral("ε 1"), 1.0);
    const int big = addFinishedRun(w.runModel(), QStringLiteral("ε 28"), 28.0);
    RunCharts* charts = w.chartPanel()->charts();
    w.chartPanel()->redrawNow();
    QVERIFY(charts->epsilonAxesLogarithmic());  // 28 / 1 > 20
    QChart* chart = charts->chart(ChartKind::EpsilonVsEpoch);
    auto* log = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).first());
    QVERIFY(log);
    QVERIFY(log->min() <= 0.25 &&
            log->max() >= 28.0);  // the smallest ε > 0 (epoch 1: 0.25) is shown
    // ε = 0 at epoch 0 cannot be drawn on a log axis: 4 of the 5 points remain.
    QCOMPARE(charts->pointCount(ChartKind::EpsilonVsEpoch, big), 4);

    w.runModel()->setVisible(big, false);
    w.chartPanel()->redrawNow();
    QVERIFY(!charts->epsilonAxesLogarithmic());
    QVERIFY(qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).first()));

    charts->setEpsilonScale(RunCharts::EpsilonScale::Logarithmic);  // the View menu's choice
    w.chartPanel()->redrawNow();
    QVERIFY(charts->epsilonAxesLogarithmic());
    QVERIFY(qobject_cast<QLogValueAxis*>(
        charts->chart(ChartKind::AccuracyVsEpsilon)->axes(Qt::Horizontal).first()));
  }
};

QTEST_MAIN(TestRunNames)
#include "test_run_names.moc"
