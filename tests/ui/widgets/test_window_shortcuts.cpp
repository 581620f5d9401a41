// Esc (cancel the selected or newest active run), Shift+Esc (cancel all) and Del (delete the
// selected runs, undoable) act wherever the focus is in the window: here a spin box of the
// Experiment panel has it, not the Runs table.
#include <QAction>
#include <QDoubleSpinBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "base/session/run_model.h"
#include "base/session/session_history.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/runs_view.h"

using namespace epsilon::ui;

namespace {

MainWindow::Options testOptions() {
  MainWindow::Options o;
  o.useSettings = false;
  return o;
}

// Runs as the table shows them; the statuses are set directly (no training is needed to
// see which runs a shortcut asks to cancel or delete).
int addRun(RunModel* model, const QString& name, RunStatus status) {
  RunRecord r;
  r.name = name;
  r.status = status;
  return model->addRun(r);
}

void selectRow(RunsView* view, int row) {
  view->table()->selectionModel()->select(
      view->table()->model()->index(row, 0),
      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QDoubleSpinBox* focusSpinBox(MainWindow& w) {
  QDoubleSpinBox* spin = w.experimentPanel()->noiseSlider()->spinBox();
  spin->setFocus();
  return spin;
}

}  // namespace

class TestWindowShortcuts : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void escapeCancelsSelectedOrNewest() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    RunModel* m = w.runModel();
    const int a = addRun(m, QStringLiteral("a"), RunStatus::Running);
    const int b = addRun(m, QStringLiteral("b"), RunStatus::Running);
    addRun(m, QStringLiteral("c"), RunStatus::Done);
    QSignalSpy cancelled(w.runsView(), &RunsView::cancelRequested);
    QDoubleSpinBox* spin = focusSpinBox(w);
    QTRY_VERIFY(spin->hasFocus());

    QTest::keyClick(spin, Qt::Key_Escape);  // nothing selected: the newest active run
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(cancelled.at(0).at(0).value<QList<int>>(), QList<int>{b});

    selectRow(w.runsView(), 0);
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Escape);  // the selected one
    QCOMPARE(cancelled.size(), 2);
    QCOMPARE(cancelled.at(1).at(0).value<QList<int>>(), QList<int>{a});
  }

  void shiftEscapeCancelsAll() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    addRun(w.runModel(), QStringLiteral("a"), RunStatus::Running);
    QSignalSpy all(w.runsView(), &RunsView::cancelAllRequested);
    QDoubleSpinBox* spin = focusSpinBox(w);
    QTRY_VERIFY(spin->hasFocus());
    QTest::keyClick(spin, Qt::Key_Escape, Qt::ShiftModifier);
    QCOMPARE(all.size(), 1);
  }

  void deleteRemovesSelectedUndoably() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    RunModel* m = w.runModel();
    addRun(m, QStringLiteral("a"), RunStatus::Done);
    const int b = addRun(m, QStringLiteral("b"), RunStatus::Done);
    selectRow(w.runsView(), 1);
    QDoubleSpinBox* spin = focusSpinBox(w);
    QTRY_VERIFY(spin->hasFocus());
    const double sigma = spin->value();
    spin->findChild<QLineEdit*>()->end(false);  // the caret after the number: nothing to erase
    QTest::keyClick(spin, Qt::Key_Delete);
    QCOMPARE(m->rowCount(), 1);
    QVERIFY(m->run(b) == nullptr);
    QCOMPARE(spin->value(), sigma);
    w.undoStack()->undo();
    QCOMPARE(m->rowCount(), 2);
    QVERIFY(m->run(b) != nullptr);

    // With a digit after the caret, Del edits the number as in any text field.
    selectRow(w.runsView(), 1);
    spin->setFocus();
    spin->findChild<QLineEdit*>()->home(false);
    const QString before = spin->text();
    QTest::keyClick(spin, Qt::Key_Delete);
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(spin->text(), before.mid(1));
  }
};

QTEST_MAIN(TestWindowShortcuts)
#include "test_window_shortcuts.moc"
