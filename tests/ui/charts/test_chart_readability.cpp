// Charts a class can read: at projector sizes (1024×720, 1024×768, 1280×720, 1920×1080), in
// normal and presentation mode, with five runs on the charts, Qt Charts elides no chart title,
// axis title or tick label ("Test accuracy v...", "5001e+..."), no tick label takes an
// exponent, the Runs table's columns fit its width with the name, "Test accuracy" and ε
// whole, the privacy readout's ε lines and attacker sentence are in view above a gradient-norm
// histogram of a useful height, and the docks' tabs show their whole titles side by side.
// The Sweep map's message (no map yet) is written at least at the charts' text size.
// A run whose loss blows up (σ 8 with momentum 0.9 on xor) turns the loss axis logarithmic.
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLogValueAxis>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "base/session/run_model.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/font_size_control.h"
#include "ui/widgets/gradient_norm_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/privacy_readout.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/sweep_map_view.h"

using namespace epsilon::ui;

namespace {

// A finished run of the noise-and-epsilon lesson's shape: 20 epochs, 1000 steps, its final
// ε and accuracy as given; its loss climbs to `peakLoss` nats when that is above 1.
RunRecord lessonRun(const QString& name, double finalEpsilon, double finalAccuracy,
                    double peakLoss) {
  RunRecord r;
  r.name = name;
  r.status = RunStatus::Done;
  r.progress = 1.0;
  for (int epoch = 0; epoch <= 20; ++epoch) {
    EvalPoint p;
    p.step = 50 * epoch;
    p.epoch = epoch;
    p.testAccuracy = 0.5 + (finalAccuracy - 0.5) * std::sqrt(epoch / 20.0);
    p.epsilon = finalEpsilon * std::sqrt(epoch / 20.0);
    r.evals.push_back(p);
  }
  for (int step = 1; step <= 1000; ++step) {
    const double t = step / 1000.0;
    const double loss = peakLoss > 1 ? 0.7 + peakLoss * t * t : 0.7 * std::exp(-4 * t);
    r.losses.push_back({step, loss});
  }
  return r;
}

void addLessonRuns(RunModel* model) {
  model->addRun(lessonRun(QStringLiteral("mlp · σ 0.5"), 27.3, 0.99, 0));
  model->addRun(lessonRun(QStringLiteral("mlp · σ 1"), 4.32, 0.965, 0));
  model->addRun(lessonRun(QStringLiteral("mlp · σ 2"), 1.4, 0.93, 0));
  model->addRun(lessonRun(QStringLiteral("mlp · σ 4"), 0.6, 0.85, 40));
  model->addRun(lessonRun(QStringLiteral("mlp · σ 8"), 0.3, 0.8, 8000));
}

// Runs named as the features preset names them: one name is wider than the legend of a
// 1024-pixel window in presentation mode.
void addPresetRuns(RunModel* model) {
  model->addRun(lessonRun(
      QStringLiteral("scatter-linear · σ 2.23 · C 0.1 · momentum · η 4 · L 1024"), 2.99, 0.966, 0));
  model->addRun(lessonRun(QStringLiteral("scatter-cnn · σ 2.23 · C 0.1 · momentum · η 4 · L 1024"),
                          2.99, 0.957, 0));
  model->addRun(lessonRun(QStringLiteral("tfp-cnn-tanh · σ 1.32 · C 1 · sgd · η 0.15 · L 256"),
                          2.99, 0.87, 0));
  model->addRun(
      lessonRun(QStringLiteral("tfp-cnn · σ 1.32 · C 1 · sgd · η 0.15 · L 256"), 2.99, 0.83, 0));
  model->addRun(lessonRun(QStringLiteral("tfp-cnn · σ 1.32 · C 1 · sgd · η 0.15 · L 256 · seed 2"),
                          2.99, 0.82, 0));
}

bool elided(const QString& text) {
  return text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026));
}

QStringList chartTexts(QChartView* view);

// Whether any chart shows an elided text; `which` names it.
bool anyElided(MainWindow& w, QString* which) {
  for (ChartKind kind : kAllChartKinds) {
    QChartView* view = w.chartPanel()->view(kind);
    for (const QString& text : chartTexts(view)) {
      if (!elided(text)) continue;
      *which = QStringLiteral("%1 (%2×%3): \"%4\"")
                   .arg(chartTitle(kind))
                   .arg(view->width())
                   .arg(view->height())
                   .arg(text);
      return true;
    }
  }
  return false;
}

// Every text Qt Charts drew in the chart (title, axis titles, tick labels).
QStringList chartTexts(QChartView* view) {
  QStringList texts;
  for (QGraphicsItem* item : view->scene()->items()) {
    auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item);
    if (text && text->isVisible() && !text->toPlainText().isEmpty()) texts << text->toPlainText();
  }
  return texts;
}

// Ends the process with a message when the test is still running after `seconds`: a layout
// that never settles keeps the event loop inside one processEvents() call for ever.
class HangGuard {
 public:
  HangGuard(int seconds, const char* what)
      : m_thread([this, seconds, what] {
          std::unique_lock lock(m_mutex);
          if (!m_finished.wait_for(lock, std::chrono::seconds(seconds), [this] { return m_done; }))
            qFatal("%s: the event loop did not return within %d s", what, seconds);
        }) {}
  ~HangGuard() {
    {
      const std::lock_guard lock(m_mutex);
      m_done = true;
    }
    m_finished.notify_all();
    m_thread.join();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_finished;
  bool m_done = false;
  std::thread m_thread;
};

}  // namespace

class TestChartReadability : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void longHistoriesAreThinnedKeepingSpikesAndEnds() {
    // 3,000 evaluations: drawn with at most 500 points, the one spike and both ends kept.
    RunRecord run;
    run.id = 1;
    run.color = QStringLiteral("#0072b2");
    for (int i = 0; i < 3000; ++i) {
      EvalPoint p;
      p.step = i + 1;
      p.epoch = 0.01 * (i + 1);
      p.testAccuracy = i == 1234 ? 0.99 : 0.5 + 0.1 * std::sin(i / 50.0);
      p.epsilon = 0.01 * (i + 1);
      run.evals.push_back(p);
    }
    RunCharts charts;
    charts.update({run});
    QVERIFY(charts.pointCount(ChartKind::AccuracyVsEpoch, 1) <= 500);
    QVERIFY(charts.pointCount(ChartKind::AccuracyVsEpoch, 1) >= 400);
    const auto* series =
        qobject_cast<QXYSeries*>(charts.chart(ChartKind::AccuracyVsEpoch)->series().constFirst());
    QVERIFY(series);
    const QList<QPointF> drawn = series->points();
    QCOMPARE(drawn.front(), QPointF(0.01, 100.0 * run.evals.front().testAccuracy));
    QCOMPARE(drawn.back(), QPointF(30.0, 100.0 * run.evals.back().testAccuracy));
    QVERIFY(drawn.contains(QPointF(0.01 * 1235, 99.0)));
    QVERIFY(std::is_sorted(drawn.begin(), drawn.end(),
                           [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); }));
  }

  void readableAtProjectorSizes_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<bool>("longNames");
    for (const QSize size :
         {QSize(1024, 720), QSize(1024, 768), QSize(1280, 720), QSize(1920, 1080)})
      for (bool presentation : {false, true})
        for (bool longNames : {false, true}) {
          const QString row =
              QStringLiteral("%1x%2 %3%4")
                  .arg(size.width())
                  .arg(size.height())
                  .arg(presentation ? QStringLiteral("presentation") : QStringLiteral("normal"))
                  .arg(longNames ? QStringLiteral(", preset names") : QString());
          QTest::newRow(qPrintable(row)) << size << presentation << longNames;
        }
  }
  void readableAtProjectorSizes() {
    QFETCH(QSize, size);
    QFETCH(bool, presentation);
    QFETCH(bool, longNames);
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    longNames ? addPresetRuns(w.runModel()) : addLessonRuns(w.runModel());
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setPresentationMode(presentation);
    // The gradient norms in front: the tab that scrolled Model view out of the bar, and the
    // histogram that the privacy readout above it squeezed.
    QVERIFY(w.raiseView(QStringLiteral("gradient-norms")));
    w.chartPanel()->redrawNow();
    // The docks are refitted to the font and the charts laid out again, which takes a few
    // rounds of the event loop on a loaded machine.
    QString elidedText;
    QTRY_VERIFY2_WITH_TIMEOUT(!anyElided(w, &elidedText), qPrintable(elidedText), 5000);
    checkCharts(w);
    checkRunsHeader(w);
    checkRunsFit(w, !longNames);
    checkAttackerSentence(w);
    checkGradientNorms(w);
    checkDockTabs(w);
    checkCentralTabs(w);
  }

  // The Sweep map's message in place of a map ("needs at least two shown runs") grows with the
  // other charts' text: presentation mode and View › Chart text size.
  void sweepMapMessageFollowsTheChartText_data() {
    QTest::addColumn<bool>("presentation");
    QTest::addColumn<int>("step");
    QTest::newRow("normal") << false << 0;
    QTest::newRow("presentation") << true << 0;
    QTest::newRow("presentation, text +2") << true << 2;
  }
  void sweepMapMessageFollowsTheChartText() {
    QFETCH(bool, presentation);
    QFETCH(int, step);
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    w.resize(1024, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.showTab(QStringLiteral("Sweep map")));
    w.setPresentationMode(presentation);
    w.fontSize()->setStep(step);  // View › Chart text size
    SweepMapView* map = w.sweepMapView();
    map->redrawNow();
    QVERIFY(!map->chart().map().valid());  // no runs: the message is drawn
    const int chartText = w.chartPanel()->charts()->labelPointSize();
    QCOMPARE(chartText, (presentation ? 12 : 9) + step);
    const double drawn = map->chart().messageFont(map->rect()).pointSizeF();
    QVERIFY2(drawn >= chartText, qPrintable(QStringLiteral("message at %1 pt, chart text %2 pt "
                                                           "in a %3×%4 map")
                                                .arg(drawn)
                                                .arg(chartText)
                                                .arg(map->width())
                                                .arg(map->height())));
  }

  void aRedrawThatKeepsTheRangesLeavesTheAxesAlone() {
    // A training run redraws the charts several times a second; an axis whose range stays
    // must not change its tick type or range (each change lays the whole chart out again).
    RunCharts charts;
    std::vector<RunRecord> runs = {lessonRun(QStringLiteral("a"), 4, 0.97, 0)};
    runs[0].id = 1;
    charts.update(runs);
    auto* x = qobject_cast<QValueAxis*>(
        charts.chart(ChartKind::AccuracyVsEpoch)->axes(Qt::Horizontal).front());
    QVERIFY(x);
    QSignalSpy tickType(x, &QValueAxis::tickTypeChanged);
    QSignalSpy range(x, &QValueAxis::rangeChanged);
    charts.update(runs);
    QCOMPARE(tickType.size(), 0);
    QCOMPARE(range.size(), 0);
    // A run trained ten times longer widens the epoch axis: the range follows.
    runs.push_back(lessonRun(QStringLiteral("b"), 1, 0.93, 0));
    runs.back().id = 2;
    for (EvalPoint& e : runs.back().evals) e.epoch *= 10;
    charts.update(runs);
    QVERIFY(range.size() >= 1);
    QVERIFY(x->max() >= runs.back().evals.back().epoch);
    QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
  }

  void lossAxisTurnsLogarithmicForABlowUp() {
    RunCharts charts;
    std::vector<RunRecord> runs = {lessonRun(QStringLiteral("a"), 4, 0.97, 0),
                                   lessonRun(QStringLiteral("b"), 1, 0.93, 0)};
    runs[0].id = 1;
    runs[1].id = 2;
    charts.update(runs);
    QVERIFY(!charts.lossAxisLogarithmic());  // losses that fall: linear
    runs.push_back(lessonRun(QStringLiteral("c"), 0.3, 0.8, 8000));
    runs.back().id = 3;
    charts.update(runs);
    QVERIFY(charts.lossAxisLogarithmic());  // 8000 nats > 20 × 0.7
    QChart* loss = charts.chart(ChartKind::LossVsStep);
    const auto vertical = loss->axes(Qt::Vertical);
    QCOMPARE(vertical.size(), 1);
    auto* log = qobject_cast<QLogValueAxis*>(vertical.front());
    QVERIFY(log);
    QVERIFY(log->max() >= 8000.7 && log->min() <= 0.7 * std::exp(-4.0));
    QCOMPARE(charts.pointCount(ChartKind::LossVsStep, 3), 1000);  // no point dropped
    runs.back().visible = false;  // hiding the blown-up run brings the linear axis back
    charts.update(runs);
    QVERIFY(!charts.lossAxisLogarithmic());
    charts.setLossScale(RunCharts::AxisScale::Logarithmic);  // the View menu's choice
    charts.update(runs);
    QVERIFY(charts.lossAxisLogarithmic());
  }

  // The ticks are fitted to the plot area, and the tick labels set the plot area's margins.
  // An empty chart of 204×169 pixels in presentation mode (a 1024×720 window running a
  // preset of four long-named runs) alternated between two layouts for ever, relaying out
  // every round of the event loop, and the window stopped running its timers. At every size
  // from a thumbnail to a quarter screen, empty or with runs, the layout settles.
  void layoutSettlesAtEverySize_data() {
    QTest::addColumn<bool>("withRuns");
    QTest::newRow("empty") << false;
    QTest::newRow("five runs") << true;
  }
  void layoutSettlesAtEverySize() {
    QFETCH(bool, withRuns);
    // Declared first so that it is destroyed last: a chart in a view belongs to its scene.
    std::vector<std::unique_ptr<QChartView>> views;
    RunCharts charts;
    charts.setPresentationMode(true);
    std::vector<RunRecord> runs;
    if (withRuns)
      for (double eps : {27.3, 4.32, 1.4, 0.6, 0.3}) {
        runs.push_back(lessonRun(QString::number(eps), eps, 0.9, 0));
        runs.back().id = static_cast<int>(runs.size());
      }
    charts.update(runs);
    int changes = 0;
    for (ChartKind kind : kAllChartKinds) {
      connect(charts.chart(kind), &QChart::plotAreaChanged, this, [&changes] { ++changes; });
      views.push_back(std::make_unique<QChartView>(charts.chart(kind)));
      views.back()->show();
    }
    const HangGuard guard(120, "layoutSettlesAtEverySize");
    QString unsettled;
    for (int height = 150; height <= 250 && unsettled.isEmpty(); height += 19)
      for (int width = 160; width <= 340 && unsettled.isEmpty(); width += 3) {
        for (auto& view : views) view->resize(width, height);
        for (int round = 0; round < 30; ++round) QCoreApplication::processEvents();
        changes = 0;
        for (int round = 0; round < 30; ++round) QCoreApplication::processEvents();
        if (changes > 0)
          unsettled = QStringLiteral("%1×%2: %3 relayouts in 30 rounds after settling")
                          .arg(width)
                          .arg(height)
                          .arg(changes);
      }
    QVERIFY2(unsettled.isEmpty(), qPrintable(unsettled));
  }

 private:
  void checkCharts(MainWindow& w) {
    for (ChartKind kind : kAllChartKinds) {
      QChartView* view = w.chartPanel()->view(kind);
      const QStringList texts = chartTexts(view);
      QVERIFY2(texts.size() >= 6, qPrintable(texts.join(QStringLiteral(" | "))));
      for (const QString& text : texts) {
        QVERIFY2(!elided(text), qPrintable(QStringLiteral("%1 (%2×%3): \"%4\"")
                                               .arg(chartTitle(kind))
                                               .arg(view->width())
                                               .arg(view->height())
                                               .arg(text)));
        QVERIFY2(!text.contains(QStringLiteral("e+")), qPrintable(text));
      }
      // Every value axis keeps at least two labelled ticks.
      for (QAbstractAxis* axis : view->chart()->axes()) {
        if (auto* value = qobject_cast<QValueAxis*>(axis))
          QVERIFY2((value->max() - value->min()) / value->tickInterval() >= 1.0 - 1e-9,
                   qPrintable(chartTitle(kind)));
      }
    }
  }

  // The tabs of the tabified docks (Model view, Help, Gradient norms) are each wide enough for
  // their whole title and all in view side by side, Gradient norms in front: a bar that
  // scrolled to it hid Model view.
  void checkDockTabs(MainWindow& w) {
    const auto bars = w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly);
    int tabs = 0;
    for (QTabBar* bar : bars) {
      if (!bar->isVisible()) continue;
      for (int i = 0; i < bar->count(); ++i, ++tabs) {
        const QString text = bar->tabText(i);
        const int needed = QFontMetrics(bar->font()).horizontalAdvance(text);
        QVERIFY2(bar->tabRect(i).width() >= needed,
                 qPrintable(QStringLiteral("tab '%1': %2 px < %3 px")
                                .arg(text)
                                .arg(bar->tabRect(i).width())
                                .arg(needed)));
        QVERIFY2(bar->tabRect(i).left() >= 0 && bar->tabRect(i).right() < bar->width(),
                 qPrintable(QStringLiteral("tab '%1' ends at %2 of a %3 px bar")
                                .arg(text)
                                .arg(bar->tabRect(i).right())
                                .arg(bar->width())));
      }
    }
    QVERIFY2(tabs >= 2, "expected the tabified Model view and Help docks");
  }

  // Every central tab (Charts, Attack, Sweep map, Per class) is in view with its whole name: a
  // lesson that brings Per class to the front must not scroll Charts out of the bar.
  void checkCentralTabs(MainWindow& w) {
    QTabBar* bar = w.centralTabs()->tabBar();
    const int last = bar->count() - 1;
    QStringList widths;
    for (int i = 0; i <= last; ++i)
      widths << QStringLiteral("%1 %2").arg(bar->tabText(i)).arg(bar->tabRect(i).width());
    const QString what = QStringLiteral("tabs %1 in a %2 px bar")
                             .arg(widths.join(QStringLiteral(", ")))
                             .arg(bar->width());
    QTRY_VERIFY2_WITH_TIMEOUT(
        bar->tabRect(0).left() >= 0 && bar->tabRect(last).right() < bar->width(), qPrintable(what),
        5000);
    for (int i = 0; i <= last; ++i)
      QVERIFY2(
          bar->tabRect(i).width() >= QFontMetrics(bar->font()).horizontalAdvance(bar->tabText(i)),
          qPrintable(what));
  }

  // The run's name, "Test accuracy" and ε keep their whole headers; the columns that give
  // way (differences, worst and best class, time) elide theirs, whose tooltips say the whole.
  void checkRunsHeader(MainWindow& w) {
    QHeaderView* header = w.runsView()->table()->horizontalHeader();
    for (int column :
         {int(RunModel::NameColumn), int(RunModel::AccuracyColumn), int(RunModel::EpsilonColumn)}) {
      const QString text =
          w.runModel()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
      const int needed = QFontMetrics(header->font()).horizontalAdvance(text);
      QVERIFY2(header->sectionSize(column) >= needed + 4,
               qPrintable(QStringLiteral("%1: %2 < %3")
                              .arg(text)
                              .arg(header->sectionSize(column))
                              .arg(needed)));
    }
    for (int column :
         {int(RunModel::ParametersColumn), int(RunModel::ClassesColumn), int(RunModel::TimeColumn)})
      QVERIFY(
          !w.runModel()->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
  }

  // Every column is in the table's width: no horizontal scroll bar. Accuracy and ε are as
  // wide as their values and headers need, and with a lesson's run names so is the name.
  void checkRunsFit(MainWindow& w, bool wholeNames) {
    QTableView* table = w.runsView()->table();
    QHeaderView* header = table->horizontalHeader();
    const QAbstractItemView* view = table;  // sizeHintForColumn is public here
    const auto what = [&] {
      QStringList sizes;
      for (int column = 0; column < header->count(); ++column)
        sizes
            << QStringLiteral("%1 %2 (needs %3)")
                   .arg(
                       w.runModel()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString())
                   .arg(header->sectionSize(column))
                   .arg(view->sizeHintForColumn(column));
      return QStringLiteral("columns %1 in a %2 px view")
          .arg(sizes.join(QStringLiteral(", ")))
          .arg(table->viewport()->width());
    };
    QTRY_VERIFY2_WITH_TIMEOUT(header->length() <= table->viewport()->width() &&
                                  table->horizontalScrollBar()->maximum() == 0,
                              qPrintable(what()), 5000);
    QList<int> whole = {int(RunModel::AccuracyColumn), int(RunModel::EpsilonColumn)};
    if (wholeNames) whole << int(RunModel::NameColumn);
    for (int column : whole)
      QVERIFY2(header->sectionSize(column) >= view->sizeHintForColumn(column), qPrintable(what()));
    // A name elided in its column is whole in its tooltip.
    const QModelIndex first = table->model()->index(0, RunModel::NameColumn);
    QVERIFY(first.data(Qt::ToolTipRole).toString().contains(first.data().toString()));
  }

  // The histogram of the gradient norms keeps its useful height (GradientNormView::kMinPlotLines
  // lines of its font), whole in its dock, under the privacy readout whose ε and ε lines
  // (δ, accountant, sampling) stay in view above it.
  void checkGradientNorms(MainWindow& w) {
    GradientNormView* norms = w.gradientNormView();
    const int needed = GradientNormView::kMinPlotLines * norms->fontMetrics().height();
    const auto where = [&] {
      return QStringLiteral("histogram %1 px high (needs %2) in a %3 px view, %4 px in view")
          .arg(norms->plotArea().height())
          .arg(needed)
          .arg(norms->height())
          .arg(norms->visibleRegion().boundingRect().height());
    };
    QTRY_VERIFY2_WITH_TIMEOUT(norms->isVisible() && norms->plotArea().height() >= needed &&
                                  norms->visibleRegion().boundingRect().height() >= norms->height(),
                              qPrintable(where()), 5000);
    for (const char* name : {"epsilonValue", "epsilonDetails"}) {
      auto* label = w.privacyReadout()->findChild<QLabel*>(QLatin1String(name));
      QVERIFY(label);
      QVERIFY2(label->visibleRegion().boundingRect().height() >= label->height(),
               qPrintable(QStringLiteral("%1: %2 of %3 px in view")
                              .arg(QLatin1String(name))
                              .arg(label->visibleRegion().boundingRect().height())
                              .arg(label->height())));
    }
  }

  // Every line of the sentence is in view. Sideways it is checked from 1280 pixels up: at
  // 1024×720 the Privacy budget dock is still about 40 pixels narrower than its content (the
  // Experiment dock's width is being reworked at the same time), which the notes record.
  void checkAttackerSentence(MainWindow& w) {
    auto* sentence = w.findChild<QLabel*>(QStringLiteral("attackerSentence"));
    QVERIFY(sentence);
    QVERIFY(sentence->text().contains(QStringLiteral("attacker")));
    const QRect seen = sentence->visibleRegion().boundingRect();
    const QString where = QStringLiteral("%1×%2 of %3×%4 in view")
                              .arg(seen.width())
                              .arg(seen.height())
                              .arg(sentence->width())
                              .arg(sentence->height());
    QTRY_VERIFY2_WITH_TIMEOUT(
        sentence->visibleRegion().boundingRect().height() >= sentence->height(), qPrintable(where),
        5000);
    QVERIFY2(seen.width() >= sentence->width() - 1, qPrintable(where));
  }
};

QTEST_MAIN(TestChartReadability)
#include "test_chart_readability.moc"
