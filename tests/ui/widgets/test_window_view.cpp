// The View menu for a class: the Focus view (F10) shows the charts and the lesson only, full
// screen, and puts every dock back as it was; one text size (Ctrl++, Ctrl+-, Ctrl+0) scales
// every chart, the Attack chart included; no two actions of the window share a key.
#include <QAbstractAxis>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QMap>
#include <QStatusBar>
#include <QTest>

#include "base/session/run_model.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/attack_view.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/focus_view.h"
#include "ui/widgets/font_size_control.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon::ui;

namespace {

struct DockPlace {
  bool visible = false;
  QRect geometry;
  bool operator==(const DockPlace&) const = default;
};

QMap<QString, DockPlace> docks(MainWindow& w) {
  QMap<QString, DockPlace> places;
  for (QDockWidget* dock : w.findChildren<QDockWidget*>())
    places.insert(dock->objectName(), {dock->isVisible(), dock->geometry()});
  return places;
}

int axisLabelPoints(QChart* chart) {
  return chart->axes(Qt::Horizontal).value(0)->labelsFont().pointSize();
}

}  // namespace

class TestWindowView : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void noTwoActionsShareAKey() {
    MainWindow w(MainWindow::startupOptions(false, true));
    QMap<QString, QString> owner;
    for (QAction* action : w.findChildren<QAction*>()) {
      for (const QKeySequence& key : action->shortcuts()) {
        const QString text = key.toString();
        const QString name = action->text().remove(QLatin1Char('&'));
        QVERIFY2(!owner.contains(text) || owner.value(text) == name,
                 qPrintable(text + QStringLiteral(": ") + owner.value(text) + " and " + name));
        owner.insert(text, name);
      }
    }
    QCOMPARE(owner.value(QStringLiteral("F10")), QStringLiteral("Focus view"));
    QCOMPARE(owner.value(QStringLiteral("F11")), QStringLiteral("Presentation mode"));
    QCOMPARE(owner.value(QKeySequence(QKeySequence::ZoomIn).toString()), QStringLiteral("Larger"));
  }

  void focusViewShowsChartsAndLessonThenRestores() {
    MainWindow w(MainWindow::startupOptions(false, true));
    w.resize(1016, 728);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.openLesson(QStringLiteral("noise-and-epsilon")).isEmpty());
    w.controller()->cancelAll();
    QTest::qWait(300);
    const QMap<QString, DockPlace> before = docks(w);
    QVERIFY(before.value(QStringLiteral("lessonDock")).visible);
    QVERIFY(before.value(QStringLiteral("experimentDock")).visible);

    QTest::keyClick(&w, Qt::Key_F10);
    QVERIFY(w.focusView()->isOn());
    QTRY_VERIFY(w.windowState() & Qt::WindowFullScreen);
    for (QDockWidget* dock : w.findChildren<QDockWidget*>())
      QCOMPARE(dock->isVisible(), dock->objectName() == QStringLiteral("lessonDock"));
    QVERIFY(!w.statusBar()->isVisible());
    QVERIFY(w.chartPanel()->isVisible());

    QTest::keyClick(&w, Qt::Key_F10);
    QVERIFY(!w.focusView()->isOn());
    QTRY_VERIFY(!(w.windowState() & Qt::WindowFullScreen));
    QVERIFY(w.statusBar()->isVisible());
    // Every dock where it was, shown or hidden, at its size.
    QTRY_COMPARE(docks(w), before);
  }

  // A tab hidden behind another does no work when the runs change, and is up to date the
  // moment it is shown: the Attack tab behind the charts, the charts behind the Attack tab.
  void aHiddenTabWaitsUntilShown() {
    MainWindow w(MainWindow::startupOptions(false, true));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.showTab(QStringLiteral("Charts")));
    AttackView* attack = w.attackView();
    QVERIFY(!attack->isVisible());
    QTest::qWait(400);  // what the window's start asked for is done
    const int refreshes = attack->refreshCount();
    RunRecord run;
    run.name = QStringLiteral("added behind the charts");
    run.status = RunStatus::Done;
    const int id = w.runModel()->addRun(run);
    QTest::qWait(600);  // more than the tab's 250 ms
    QCOMPARE(attack->refreshCount(), refreshes);
    QVERIFY(!attack->summaryText().contains(run.name));
    attack->setRuns({id});  // the run selected in the Runs table: the tab still waits
    QCOMPARE(attack->refreshCount(), refreshes);
    const int redraws = w.chartPanel()->redrawCount();
    QVERIFY(w.chartPanel()->redrawCount() > 0);
    QVERIFY(w.showTab(QStringLiteral("Attack")));
    QCOMPARE(attack->refreshCount(), refreshes + 1);
    QVERIFY2(attack->summaryText().contains(run.name), qPrintable(attack->summaryText()));
    QCOMPARE(attack->shownRuns(), QList<int>{id});
    // Shown, the tab follows the runs again; the charts, hidden now, wait in turn.
    w.runModel()->rename(id, QStringLiteral("renamed while shown"));
    QTRY_VERIFY(attack->summaryText().contains(QStringLiteral("renamed while shown")));
    const int redrawsHidden = w.chartPanel()->redrawCount();
    QVERIFY(redrawsHidden >= redraws);
    w.runModel()->rename(id, QStringLiteral("renamed behind the Attack tab"));
    QTest::qWait(400);
    QCOMPARE(w.chartPanel()->redrawCount(), redrawsHidden);
    QVERIFY(w.showTab(QStringLiteral("Charts")));
    QCOMPARE(w.chartPanel()->redrawCount(), redrawsHidden + 1);
    QStringList names;  // every chart's series, drawn at once on being shown
    for (ChartKind kind : kAllChartKinds)
      for (QAbstractSeries* series : w.chartPanel()->charts()->chart(kind)->series())
        names << series->name();
    QCOMPARE(names.count(QStringLiteral("renamed behind the Attack tab")), 2 * kChartKindCount);
  }

  void oneTextSizeScalesEveryChart() {
    MainWindow w(MainWindow::startupOptions(false, true));
    w.resize(1600, 1000);  // charts large enough that no tick label is shrunk to fit
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    RunCharts* charts = w.chartPanel()->charts();
    const int runBefore = axisLabelPoints(charts->chart(ChartKind::AccuracyVsEpoch));
    const int attackBefore = axisLabelPoints(w.attackView()->chartView()->chart());
    const int legendBefore = charts->legendPointSize();
    QCOMPARE(attackBefore, runBefore);  // the Attack chart takes the run charts' size
    QTest::keySequence(&w, QKeySequence::ZoomIn);
    QTest::keySequence(&w, QKeySequence::ZoomIn);
    QCOMPARE(w.fontSize()->step(), 2);
    QCOMPARE(axisLabelPoints(charts->chart(ChartKind::AccuracyVsEpoch)), runBefore + 2);
    QCOMPARE(axisLabelPoints(charts->chart(ChartKind::LossVsStep)), runBefore + 2);
    QCOMPARE(axisLabelPoints(w.attackView()->chartView()->chart()), attackBefore + 2);
    QCOMPARE(charts->legendPointSize(), legendBefore + 2);
    // Presentation mode (F11) enlarges the Attack chart as well, the step kept on top.
    w.setPresentationMode(true);
    QVERIFY(axisLabelPoints(w.attackView()->chartView()->chart()) > attackBefore + 2);
    QCOMPARE(axisLabelPoints(w.attackView()->chartView()->chart()),
             axisLabelPoints(charts->chart(ChartKind::AccuracyVsEpoch)));
    w.setPresentationMode(false);
    QTest::keySequence(&w, QKeySequence::ZoomOut);
    QCOMPARE(w.fontSize()->step(), 1);
    QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(w.fontSize()->step(), 0);
    QCOMPARE(axisLabelPoints(w.attackView()->chartView()->chart()), attackBefore);
    // Bounded: the smallest size is reached and stays.
    for (int i = 0; i < 20; ++i) QTest::keySequence(&w, QKeySequence::ZoomOut);
    QCOMPARE(w.fontSize()->step(), FontSizeControl::kSmallest);
    QVERIFY(axisLabelPoints(charts->chart(ChartKind::AccuracyVsEpoch)) >= 6);
  }
};

QTEST_MAIN(TestWindowView)
#include "test_window_view.moc"
