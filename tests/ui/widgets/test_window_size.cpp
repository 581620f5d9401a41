// The window fits a 1024×768 projector: its minimum size is at most 1024×720 in normal and in
// presentation mode (large fonts), the docks scrolling rather than pushing the window wider;
// the first window fits the screen, and at 1024×728 (a 768-pixel screen less a frame) the Runs
// table shows at least 5 rows in both modes, and a lesson's question and answer are on screen.
#include <QAbstractSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

#include "spin_box_widths.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon::ui;

namespace {

// Shown, tall enough for its wrapped text at its width, inside the window, and nothing of it
// clipped by a parent (a dock or a scroll area cutting it off).
bool wholeOnScreen(QWidget& window, QLabel* label) {
  if (!label->isVisible() || label->height() < label->heightForWidth(label->width())) return false;
  const QRect inWindow(label->mapTo(&window, QPoint(0, 0)), label->size());
  return window.rect().contains(inWindow) && label->visibleRegion() == QRegion(label->rect());
}

// The window at 1024×768 less a frame (1016×728), in the mode, shown and laid out.
bool showAtProjectorSize(MainWindow& w, bool presentation) {
  w.setPresentationMode(presentation);
  w.resize(1016, 728);
  w.show();
  if (!QTest::qWaitForWindowExposed(&w)) return false;
  QTest::qWait(400);  // presentation mode lays the docks out again after 250 ms
  return true;
}

QString placeOf(QWidget& window, QLabel* label) {
  const QPoint at = label->mapTo(&window, QPoint(0, 0));
  return QStringLiteral("%1: %2×%3 at (%4, %5), needs %6 px, visible %7 px, window %8×%9")
      .arg(label->objectName())
      .arg(label->width())
      .arg(label->height())
      .arg(at.x())
      .arg(at.y())
      .arg(label->heightForWidth(label->width()))
      .arg(label->visibleRegion().boundingRect().height())
      .arg(window.width())
      .arg(window.height());
}

}  // namespace

class TestWindowSize : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void minimumFitsAProjector_data() {
    QTest::addColumn<bool>("presentation");
    QTest::newRow("normal") << false;
    QTest::newRow("presentation") << true;
  }
  void firstWindowFitsTheScreen() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    const QSize available = w.screen()->availableGeometry().size();
    QVERIFY2(w.width() <= available.width() && w.height() <= available.height(),
             qPrintable(QStringLiteral("%1×%2 on %3×%4")
                            .arg(w.width())
                            .arg(w.height())
                            .arg(available.width())
                            .arg(available.height())));
  }

  void runsTableShowsFiveRows_data() { minimumFitsAProjector_data(); }
  void runsTableShowsFiveRows() {
    QFETCH(bool, presentation);
    MainWindow w(MainWindow::startupOptions(false, true));
    QVERIFY(showAtProjectorSize(w, presentation));
    QTableView* table = w.runsView()->table();
    const int rows =
        table->viewport()->height() / std::max(1, table->verticalHeader()->defaultSectionSize());
    QVERIFY2(rows >= RunsView::kMinimumRows,
             qPrintable(QStringLiteral("%1 rows of %2 px in %3 px")
                            .arg(rows)
                            .arg(table->verticalHeader()->defaultSectionSize())
                            .arg(table->viewport()->height())));
  }

  // At 1024×768 (a window of 1016×728 inside the frame), in both modes, a lesson's question
  // and, after "Show the answer", its answer are on screen whole, without scrolling; showing
  // the answer leaves the paragraph's scroll position where it was.
  void lessonQuestionAndAnswerOnScreen_data() { minimumFitsAProjector_data(); }
  void lessonQuestionAndAnswerOnScreen() {
    QFETCH(bool, presentation);
    MainWindow w(MainWindow::startupOptions(false, true));
    QVERIFY(showAtProjectorSize(w, presentation));
    QVERIFY(!w.openLesson(QStringLiteral("what-epsilon-means")).isEmpty());
    w.controller()->cancelAll();
    QTest::qWait(400);
    auto* question = w.findChild<QLabel*>(QStringLiteral("lessonQuestion"));
    auto* answer = w.findChild<QLabel*>(QStringLiteral("lessonAnswerText"));
    auto* text = w.findChild<QTextBrowser*>(QStringLiteral("lessonText"));
    QVERIFY(question && answer && text);
    QVERIFY2(w.width() <= 1016 && w.height() <= 728,
             qPrintable(QStringLiteral("window %1×%2").arg(w.width()).arg(w.height())));
    QVERIFY2(wholeOnScreen(w, question), qPrintable(placeOf(w, question)));
    text->verticalScrollBar()->setValue(text->verticalScrollBar()->maximum());
    const int scrolled = text->verticalScrollBar()->value();
    w.findChild<QPushButton*>(QStringLiteral("lessonAnswer"))->click();
    QTest::qWait(300);
    QVERIFY2(wholeOnScreen(w, answer), qPrintable(placeOf(w, answer)));
    QVERIFY2(wholeOnScreen(w, question), qPrintable(placeOf(w, question)));
    QCOMPARE(text->verticalScrollBar()->value(),
             std::min(scrolled, text->verticalScrollBar()->maximum()));
    QVERIFY2(w.width() <= 1016 && w.height() <= 728,
             qPrintable(QStringLiteral("window %1×%2").arg(w.width()).arg(w.height())));
  }

  void minimumFitsAProjector() {
    QFETCH(bool, presentation);
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    w.setPresentationMode(presentation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
    qInfo("minimum size %d×%d", minimum.width(), minimum.height());
    QVERIFY2(
        minimum.width() <= 1024 && minimum.height() <= 720,
        qPrintable(QStringLiteral("minimum %1×%2").arg(minimum.width()).arg(minimum.height())));
    // Forced to that size, the window really is that small (no widget refuses to shrink).
    w.resize(1024, 720);
    QTRY_VERIFY(w.width() <= 1024 && w.height() <= 720);
    // The Experiment panel's values are never cut: each spin box is at least as wide as its
    // text needs at the window's font (the panel scrolls instead).
    int checked = 0;
    const QString cut = cutSpinBox(w.experimentPanel(), checked);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    QVERIFY(checked >= 5);  // σ, C, η, lot size, epochs at least
    // Nor hidden off the dock's edge: at 1024 and 1280 pixels the panel fits its dock's width
    // (the compact layout takes over when the one-line layout would not), so no value sits
    // behind a horizontal scroll bar.
    for (const int width : {1024, 1280}) {
      w.resize(width, 720);
      auto* scroll =
          qobject_cast<QScrollArea*>(w.experimentPanel()->parentWidget()->parentWidget());
      QVERIFY(scroll);
      QTRY_COMPARE(scroll->horizontalScrollBar()->maximum(), 0);
      QVERIFY(w.experimentPanel()->width() <= scroll->viewport()->width());
      qInfo("%d px: panel %d px in a %d px viewport, %s layout", width,
            w.experimentPanel()->width(), scroll->viewport()->width(),
            w.experimentPanel()->compactLayout() ? "compact" : "one-line");
    }
  }
};

QTEST_MAIN(TestWindowSize)
#include "test_window_size.moc"
