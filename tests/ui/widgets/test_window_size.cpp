// The window fits a 1024×768 projector: its minimum size is at most 1024×720 in normal and in
// presentation mode (large fonts), the docks scrolling rather than pushing the window wider;
// the first window fits the screen, and at 1024×728 (a 768-pixel screen less a frame) the Runs
// table shows at least 5 rows in both modes.
#include <QAbstractSpinBox>
#include <QHeaderView>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTest>

#include "spin_box_widths.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"

using namespace epsilon::ui;

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
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    w.setPresentationMode(presentation);
    w.resize(1016, 728);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(400);  // presentation mode lays the docks out again after 250 ms
    QTableView* table = w.runsView()->table();
    const int rows =
        table->viewport()->height() / std::max(1, table->verticalHeader()->defaultSectionSize());
    QVERIFY2(rows >= RunsView::kMinimumRows,
             qPrintable(QStringLiteral("%1 rows of %2 px in %3 px")
                            .arg(rows)
                            .arg(table->verticalHeader()->defaultSectionSize())
                            .arg(table->viewport()->height())));
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
