// The Experiment panel's input: the wheel over an unfocused combo box scrolls the panel and
// leaves the value (it changes it only once the combo has the focus); live mode is off by
// default and remembered once turned on; replacing a finished live run can be undone.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>

#include "base/session/run_model.h"
#include "base/session/session_history.h"
#include "tests/ui/widgets/test_window_options.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

void turnWheelDown(QWidget* target) {
  const QPointF local(target->width() / 2.0, target->height() / 2.0);
  QWheelEvent wheel(local, target->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(target, &wheel);
}

bool finished(const RunModel& m, int id) {
  const RunRecord* r = m.run(id);
  return r && !r->isActive();
}

}  // namespace

class TestPanelInput : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings in a test location
    QSettings().clear();
  }
  void cleanupTestCase() { QSettings().clear(); }

  void wheelOverUnfocusedComboScrollsInstead() {
    MainWindow w(test::quietWindowOptions());
    w.resize(1024, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QComboBox* combo = w.experimentPanel()->accountantCombo();
    QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);  // the wheel does not give it the focus
    auto* scroll = qobject_cast<QScrollArea*>(w.experimentPanel()->parentWidget()->parentWidget());
    QVERIFY(scroll);
    w.experimentPanel()->runButton()->setFocus();
    const int index = combo->currentIndex();
    const int scrolled = scroll->verticalScrollBar()->value();
    QVERIFY(scroll->verticalScrollBar()->maximum() > scrolled);  // there is room to scroll
    turnWheelDown(combo);
    QCOMPARE(combo->currentIndex(), index);
    QVERIFY(scroll->verticalScrollBar()->value() > scrolled);

    // Once the combo has the focus, the wheel is its own again.
    combo->setFocus();
    QTRY_VERIFY(combo->hasFocus());
    turnWheelDown(combo);
    QVERIFY(combo->currentIndex() != index);
  }

  void liveModeOffByDefaultAndRemembered() {
    QSettings().clear();
    MainWindow::Options options;  // the application's: settings on
    {
      MainWindow w(options);
      QVERIFY(!w.experimentPanel()->liveMode());
      w.experimentPanel()->setLiveMode(true);
      QCOMPARE(QSettings().value(QStringLiteral("liveMode")).toBool(), true);
    }
    MainWindow again(options);
    QVERIFY(again.experimentPanel()->liveMode());
    QSettings().clear();
  }

  void paceMenuSpreadsASmallRun() {
    MainWindow w(test::quietWindowOptions());
    QComboBox* data = w.experimentPanel()->datasetCombo();
    data->setCurrentIndex(data->findText(QStringLiteral("circle")));
    w.experimentPanel()->epochsSlider()->setValue(2);
    auto* twoSeconds = w.findChild<QAction*>(QStringLiteral("pace2"));
    QVERIFY(twoSeconds);
    twoSeconds->trigger();
    const int id = w.startRun();
    QCOMPARE(w.runModel()->run(id)->config.training.paceSeconds, 2.0);
    QTRY_VERIFY_WITH_TIMEOUT(finished(*w.runModel(), id), 60000);
    QCOMPARE(w.runModel()->run(id)->status, RunStatus::Done);
    QVERIFY2(w.runModel()->run(id)->elapsedSeconds >= 1.9,
             qPrintable(QString::number(w.runModel()->run(id)->elapsedSeconds)));

    w.findChild<QAction*>(QStringLiteral("pace0"))->trigger();  // real time again
    const int fast = w.startRun();
    QCOMPARE(w.runModel()->run(fast)->config.training.paceSeconds, 0.0);
    w.controller()->cancelAll();
  }

  void replacingAFinishedLiveRunIsUndoable() {
    MainWindow w(test::quietWindowOptions());
    test::trainInRealTime(w);
    QComboBox* data = w.experimentPanel()->datasetCombo();
    data->setCurrentIndex(data->findText(QStringLiteral("circle")));
    w.experimentPanel()->epochsSlider()->setValue(2);
    w.experimentPanel()->setLiveMode(true);
    QDoubleSpinBox* sigma = w.experimentPanel()->noiseSlider()->spinBox();
    sigma->setValue(2.0);  // a typed value is a committed change: a live run starts
    QTRY_COMPARE_WITH_TIMEOUT(w.runModel()->rowCount(), 1, 5000);
    const int first = w.runModel()->idAt(0);
    QTRY_VERIFY_WITH_TIMEOUT(finished(*w.runModel(), first), 60000);
    const int steps = w.undoStack()->count();

    sigma->setValue(3.0);
    QTRY_VERIFY_WITH_TIMEOUT(w.runModel()->rowCount() == 1 && w.runModel()->idAt(0) != first, 5000);
    const int second = w.runModel()->idAt(0);
    // Two edits: σ moved, then the live run replaced (undone in the opposite order).
    QCOMPARE(w.undoStack()->count(), steps + 2);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Replace live run"));

    w.undoStack()->undo();
    QCOMPARE(w.runModel()->rowCount(), 1);
    QVERIFY(w.runModel()->run(first) != nullptr);
    QCOMPARE(w.runModel()->run(first)->status, RunStatus::Done);
    QVERIFY(w.runModel()->run(second) == nullptr);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Change noise_multiplier"));
    w.undoStack()->undo();  // σ goes back, and no live run starts for it
    QCOMPARE(sigma->value(), 2.0);
    QTest::qWait(600);
    QCOMPARE(w.runModel()->rowCount(), 1);
    QVERIFY(w.runModel()->run(first) != nullptr);

    w.undoStack()->redo();
    QCOMPARE(sigma->value(), 3.0);
    w.undoStack()->redo();
    QVERIFY(w.runModel()->run(first) == nullptr);
    QVERIFY(w.runModel()->run(second) != nullptr);
  }
};

QTEST_MAIN(TestPanelInput)
#include "test_panel_input.moc"
