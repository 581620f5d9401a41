// The main window bound to its session (base/session): a slider move is undone with Ctrl+Z
// and the Edit menu says so; closing with unsaved runs asks Save / Discard / Cancel, and
// Cancel keeps the window and its runs; a recovery copy left by a killed app is offered at the
// next start and brings every run back with its history, still unsaved.
#include <QAbstractButton>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "base/session/session_history.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/privacy_readout.h"
#include "ui/widgets/runs_view.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A scripted window's options: no settings, no questions, no recovery copy.
MainWindow::Options testOptions() {
  return MainWindow::startupOptions(false, true);
}

RunRecord finishedRun(double sigma) {
  RunRecord r;
  r.config.dataset.name = "circle";
  r.config.privacy.noise.initial = sigma;
  r.status = RunStatus::Done;
  for (int step = 1; step <= 3; ++step) {
    EvalPoint p;
    p.step = 10 * step;
    p.epoch = step;
    p.testAccuracy = 0.6 + 0.1 * step;
    p.epsilon = step / sigma;
    r.evals.push_back(p);
  }
  return r;
}

// Clicks the button of the next message box whose text is `button` ("Cancel", "Recover").
void answerNextMessageBox(const QString& button, QString* shownText = nullptr) {
  QTimer::singleShot(50, [button, shownText] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return answerNextMessageBox(button, shownText);
    if (shownText) *shownText = box->text();
    for (QAbstractButton* b : box->buttons())
      if (b->text().remove(QLatin1Char('&')) == button) return b->click();
    QFAIL(qPrintable(QStringLiteral("no button %1").arg(button)));
  });
}

QAction* editAction(MainWindow& w, int index) {
  for (QAction* menu : w.menuBar()->actions())
    if (menu->text().remove(QLatin1Char('&')) == QStringLiteral("Edit"))
      return menu->menu()->actions().at(index);
  return nullptr;
}

}  // namespace

class TestWindowSession : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void ctrlZAfterASliderMoveRestoresTheValue() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QDoubleSpinBox* sigma = w.experimentPanel()->noiseSlider()->spinBox();
    const double before = sigma->value();
    sigma->setValue(before + 1.5);  // a typed value is a committed change
    QAction* undo = editAction(w, 0);
    QVERIFY(undo);
    QVERIFY(undo->isEnabled());
    QCOMPARE(undo->text(), QStringLiteral("&Undo Change noise_multiplier"));
    w.activateWindow();
    sigma->clearFocus();  // Ctrl+Z in a spin box is the spin box's own undo
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(sigma->value(), before);
    QCOMPARE(w.experimentPanel()->config().privacy.noise.initial, before);
    QVERIFY(!undo->isEnabled());
    QCOMPARE(editAction(w, 1)->text(), QStringLiteral("&Redo Change noise_multiplier"));
  }

  void resetToDefaultsIsUndoable() {
    MainWindow w(testOptions());
    QDoubleSpinBox* sigma = w.experimentPanel()->noiseSlider()->spinBox();
    const double initial = sigma->value();
    sigma->setValue(initial + 2.0);
    QAction* reset = nullptr;
    for (QAction* a : qobject_cast<QWidget*>(editAction(w, 0)->parent())->actions())
      if (a->text() == QStringLiteral("Reset settings to defaults")) reset = a;
    QVERIFY(reset);
    reset->trigger();
    QCOMPARE(sigma->value(), initial);
    QCOMPARE(editAction(w, 0)->text(), QStringLiteral("&Undo Change noise_multiplier"));
    w.undoStack()->undo();
    QCOMPARE(sigma->value(), initial + 2.0);
  }

  void theReadoutSaysWhoseStatementItShows() {
    MainWindow w(testOptions());
    QVERIFY(w.privacyReadout()->subjectText().contains(QStringLiteral("panel settings")));
    RunRecord run = finishedRun(4.0);
    run.name = QStringLiteral("quiet run");
    run.config.privacy.noise.initial = 4.0;
    const int id = w.runModel()->addRun(run);
    QSignalSpy updated(w.privacyReadout(), &PrivacyReadout::previewUpdated);
    w.runsView()->table()->selectRow(w.runModel()->rowOf(id));
    QCOMPARE(w.privacyReadout()->subjectText(), QStringLiteral("run “quiet run”"));
    QDockWidget* dock = w.findChild<QDockWidget*>(QStringLiteral("privacyDock"));
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QStringLiteral("Privacy budget: run “quiet run”"));
    QTRY_VERIFY(!updated.isEmpty());  // the run's statement is computed as a job
    const QString runEpsilon = w.privacyReadout()->epsilonText();
    QDoubleSpinBox* sigma = w.experimentPanel()->noiseSlider()->spinBox();
    sigma->setValue(0.5);  // a moved control: the panel's settings again
    QVERIFY(w.privacyReadout()->subjectText().contains(QStringLiteral("panel settings")));
    QTRY_VERIFY(w.privacyReadout()->epsilonText() != runEpsilon);
  }

  void closingWithUnsavedRunsAsksAndCancelKeepsThem() {
    MainWindow::Options options = testOptions();
    options.guardUnsavedWork = true;
    MainWindow w(options);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.runModel()->addRun(finishedRun(1.0));
    QVERIFY(w.session()->isModified());
    QVERIFY(w.windowTitle().contains(QStringLiteral("[*]")));
    QVERIFY(w.isWindowModified());
    QString asked;
    answerNextMessageBox(QStringLiteral("Cancel"), &asked);
    QVERIFY(!w.close());
    QVERIFY(asked.contains(QStringLiteral("1 runs that are not saved")));
    QVERIFY(w.isVisible());
    QCOMPARE(w.runModel()->rowCount(), 1);

    answerNextMessageBox(QStringLiteral("Discard"));
    QVERIFY(w.close());
  }

  void savedWorkClosesWithoutAsking() {
    QTemporaryDir dir;
    MainWindow::Options options = testOptions();
    options.guardUnsavedWork = true;
    MainWindow w(options);
    w.runModel()->addRun(finishedRun(2.0));
    QVERIFY(w.saveSessionTo(dir.filePath(QStringLiteral("s.json"))).isEmpty());
    QVERIFY(!w.session()->isModified());
    QVERIFY(w.close());  // a message box here would block the test until it times out
  }

  void aKilledSessionIsRecoveredAtTheNextStart() {
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery-session.json"));
    // What the autosave of a window that was then killed left behind.
    {
      Session left;
      left.setRecoveryFile(recovery, 1);
      left.runs()->addRun(finishedRun(1.0));
      left.runs()->addRun(finishedRun(4.0));
      left.writeRecoveryNow();
    }
    QVERIFY(QFile::exists(recovery));
    MainWindow::Options options = testOptions();
    options.recoveryFile = recovery;
    answerNextMessageBox(QStringLiteral("Recover"));
    MainWindow w(options);
    QTRY_COMPARE(w.runModel()->rowCount(), 2);
    QCOMPARE(w.runModel()->runs()[1].evals.size(), std::size_t{3});
    QCOMPARE(w.runModel()->runs()[1].evals.back().testAccuracy, 0.6 + 0.1 * 3);
    QVERIFY(w.session()->isModified());  // still not saved anywhere
    QVERIFY(QFile::exists(recovery));    // and still protected
  }

  void aLessonStartsOnACleanPage() {
    MainWindow w(testOptions());
    const int before = w.runModel()->addRun(finishedRun(1.0));
    w.runModel()->addRun(finishedRun(2.0));
    const QList<int> lesson = w.openLesson(QStringLiteral("noise-and-epsilon"));
    QVERIFY(!lesson.isEmpty());
    w.cancelSweep();  // what is on the page is all this test looks at
    QCOMPARE(w.runModel()->rowCount(), lesson.size());  // only the lesson's runs
    for (int id : lesson) QVERIFY(w.runModel()->run(id));
    QVERIFY(!w.runModel()->run(before));
    QCOMPARE(w.session()->runsSetAside(), 2);
    QAction* back = nullptr;
    for (QAction* a : qobject_cast<QWidget*>(editAction(w, 0)->parent())->actions())
      if (a->text().startsWith(QStringLiteral("Bring back"))) back = a;
    QVERIFY(back);
    QCOMPARE(back->text(), QStringLiteral("Bring back 2 runs set aside"));
    back->trigger();
    QCOMPARE(w.runModel()->rowCount(), lesson.size() + 2);
    QVERIFY(w.runModel()->run(before));
    QVERIFY(!back->isEnabled());
  }

  void theLessonPanelCanAlwaysBeReopened() {
    MainWindow w(testOptions());
    QAction* lessonView = nullptr;
    for (QAction* menu : w.menuBar()->actions())
      if (menu->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
        for (QAction* a : menu->menu()->actions())
          if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Lesson")) lessonView = a;
    QVERIFY(lessonView);  // listed before any lesson was opened
    QVERIFY(!lessonView->isChecked());
  }

  void aDiscardedRecoveryIsGone() {
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery-session.json"));
    saveSession(recovery, {finishedRun(1.0)});
    MainWindow::Options options = testOptions();
    options.recoveryFile = recovery;
    answerNextMessageBox(QStringLiteral("Discard"));
    MainWindow w(options);
    QTRY_VERIFY(!QFile::exists(recovery));
    QCOMPARE(w.runModel()->rowCount(), 0);
  }
};

QTEST_MAIN(TestWindowSession)
#include "test_window_session.moc"
