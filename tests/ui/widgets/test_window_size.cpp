// The window fits a 1024×768 projector: its minimum size is at most 1024×720 in normal and in
// presentation mode (large fonts), the docks scrolling rather than pushing the window wider.
#include <QAbstractSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

#include "spin_box_widths.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"

using namespace epsilon::ui;

class TestWindowSize : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void minimumFitsAProjector_data() {
    QTest::addColumn<bool>("presentation");
    QTest::newRow("normal") << false;
    QTest::newRow("presentation") << true;
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
