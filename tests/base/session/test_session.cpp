#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/session_file.h"
#include "base/session/dataset_store.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "base/session/session_history.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {
RunRecord runWithSigma(double sigma) {
  RunRecord r;
  r.config.privacy.noise.initial = sigma;
  r.config.dataset.name = "circle";
  EvalPoint p;
  p.step = 10;
  p.epoch = 1;
  p.testAccuracy = 0.5 + sigma / 10;
  p.epsilon = 1.0 / sigma;
  r.evals.push_back(p);
  r.status = RunStatus::Done;
  return r;
}
}  // namespace

class TestSession : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void historyUndoesRedoesAndKnowsTheSavedState() {
    SessionHistory history;
    int value = 0;
    const auto set = [&value, &history](int to, const QString& text) {
      const int from = value;
      value = to;
      history.push({text, [&value, from] { value = from; }, [&value, to] { value = to; }});
    };
    QVERIFY(history.isClean());
    QVERIFY(!history.canUndo());
    set(1, QStringLiteral("one"));
    set(2, QStringLiteral("two"));
    QVERIFY(!history.isClean());
    QCOMPARE(history.undoText(), QStringLiteral("two"));
    history.setClean();
    history.undo();
    QCOMPARE(value, 1);
    QVERIFY(!history.isClean());  // undone past the save
    QCOMPARE(history.redoText(), QStringLiteral("two"));
    history.redo();
    QCOMPARE(value, 2);
    QVERIFY(history.isClean());
    history.undo();
    set(3, QStringLiteral("three"));  // drops "two": the saved state is gone for good
    QCOMPARE(history.count(), 2);
    QVERIFY(!history.canRedo());
    QVERIFY(!history.isClean());
    history.undo();
    history.undo();
    QCOMPARE(value, 0);
    QVERIFY(!history.canUndo());
    history.undo();  // nothing left: a no-op
    QCOMPARE(value, 0);
  }

  void editsMadeByAnUndoAreNotRecorded() {
    SessionHistory history;
    int value = 0;
    history.push({QStringLiteral("set"),
                  [&] {
                    value = 0;
                    history.push({QStringLiteral("echo"), [] {}, [] {}});  // e.g. a signal loop
                  },
                  [&] { value = 1; }});
    history.undo();
    QCOMPARE(history.count(), 1);
    QVERIFY(history.canRedo());
  }

  void panelSettingsAreUndoable() {
    Session session;
    train::ExperimentConfig start;
    start.privacy.noise.initial = 1.0;
    session.resetPanelConfig(start);
    QVERIFY(!session.history()->canUndo());
    QSignalSpy restored(&session, &Session::panelConfigRestored);

    train::ExperimentConfig moved = start;
    moved.privacy.noise.initial = 2.5;
    session.commitPanelConfig(moved);
    QCOMPARE(session.history()->undoText(), QStringLiteral("Change noise_multiplier"));
    session.commitPanelConfig(moved);  // nothing changed: nothing recorded
    QCOMPARE(session.history()->count(), 1);

    session.history()->undo();
    QCOMPARE(restored.count(), 1);
    QCOMPARE(restored.at(0).at(0).value<train::ExperimentConfig>().privacy.noise.initial, 1.0);
    QCOMPARE(session.panelConfig().privacy.noise.initial, 1.0);
    session.history()->redo();
    QCOMPARE(session.panelConfig().privacy.noise.initial, 2.5);

    train::ExperimentConfig several = moved;
    several.privacy.privatizer.clipNorm = 3.0;
    several.training.epochs = 7;
    session.commitPanelConfig(several);
    QCOMPARE(session.history()->undoText(), QStringLiteral("Change 2 settings"));
  }

  void renamingAndHidingInTheTableAreUndoable() {
    Session session;
    const int id = session.runs()->addRun(runWithSigma(1.0));
    const QString name = session.runs()->run(id)->name;
    const QModelIndex cell = session.runs()->index(0, RunModel::NameColumn);
    QVERIFY(session.runs()->setData(cell, QStringLiteral("baseline"), Qt::EditRole));
    QCOMPARE(session.history()->undoText(), QStringLiteral("Rename run"));
    QVERIFY(session.runs()->setData(cell, Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(session.history()->undoText(), QStringLiteral("Hide run"));
    QVERIFY(session.runs()->setData(cell, Qt::Unchecked, Qt::CheckStateRole));  // no change
    QCOMPARE(session.history()->count(), 2);
    session.history()->undo();
    QVERIFY(session.runs()->run(id)->visible);
    session.history()->undo();
    QCOMPARE(session.runs()->run(id)->name, name);
    QCOMPARE(session.history()->count(), 2);  // undo records nothing
    session.history()->redo();
    QCOMPARE(session.runs()->run(id)->name, QStringLiteral("baseline"));
    // Renaming from code (a lesson naming its runs) is not an edit of the user's.
    session.runs()->rename(id, QStringLiteral("by code"));
    QCOMPARE(session.history()->index(), 1);
  }

  void runsSetAsideComeBackWholeAndUndoably() {
    Session session;
    const int a = session.runs()->addRun(runWithSigma(1.0));
    const int b = session.runs()->addRun(runWithSigma(2.0));
    session.runs()->rename(b, QStringLiteral("kept name"));
    QSignalSpy aside(&session, &Session::runsSetAsideChanged);
    session.setRunsAside(QStringLiteral("Start lesson"));
    QCOMPARE(session.runs()->rowCount(), 0);  // a clean page
    QCOMPARE(session.runsSetAside(), 2);
    QCOMPARE(aside.last().at(0).toInt(), 2);
    QCOMPARE(session.history()->undoText(), QStringLiteral("Start lesson"));
    const int lessonRun = session.runs()->addRun(runWithSigma(3.0));
    QVERIFY(lessonRun != a && lessonRun != b);  // ids are never reused

    session.bringBackRunsSetAside();
    QCOMPARE(session.runs()->rowCount(), 3);
    QCOMPARE(session.runsSetAside(), 0);
    QCOMPARE(session.runs()->idAt(0), lessonRun);  // after the current runs
    QCOMPARE(session.runs()->run(b)->name, QStringLiteral("kept name"));
    QCOMPARE(session.runs()->run(a)->evals.size(), std::size_t{1});
    session.history()->undo();  // aside again
    QCOMPARE(session.runs()->rowCount(), 1);
    QCOMPARE(session.runsSetAside(), 2);
    session.history()->undo();  // the lesson's start undone: the old runs are back in place
    QCOMPARE(session.runsSetAside(), 0);
    QCOMPARE(session.runs()->idAt(0), a);
    QCOMPARE(session.runs()->idAt(1), b);
    QCOMPARE(session.runs()->rowCount(), 3);

    Session empty;
    empty.setRunsAside(QStringLiteral("Start lesson"));  // nothing there: nothing recorded
    QCOMPARE(empty.history()->count(), 0);
  }

  void unsavedWorkIsKeptInTheRecoveryCopy() {
    QTemporaryDir dir;
    // In a folder that does not exist yet (a fresh account's data folder).
    const QString recovery = dir.filePath(QStringLiteral("EpsilonLab/recovery.json"));
    Session session;
    session.setRecoveryFile(recovery, 10);
    QVERIFY(!session.isModified());
    QSignalSpy modified(&session, &Session::modifiedChanged);
    session.runs()->addRun(runWithSigma(1.0));
    session.runs()->addRun(runWithSigma(2.0));
    QVERIFY(session.isModified());
    QCOMPARE(modified.count(), 1);
    QTRY_VERIFY(QFile::exists(recovery));  // written after the delay, without being asked
    const std::vector<RunRecord> back = loadSession(recovery);
    QCOMPARE(back.size(), std::size_t{2});
    QCOMPARE(back[1].evals.size(), std::size_t{1});
    QCOMPARE(back[1].evals[0].testAccuracy, session.runs()->runs()[1].evals[0].testAccuracy);

    session.runs()->rename(session.runs()->idAt(0), QStringLiteral("baseline"));
    session.writeRecoveryNow();
    QCOMPARE(loadSession(recovery)[0].name, QStringLiteral("baseline"));

    session.setRunsAside(QStringLiteral("lesson"));  // set aside is still work: kept, hidden
    session.runs()->addRun(runWithSigma(3.0));
    session.writeRecoveryNow();
    const std::vector<RunRecord> withAside = loadSession(recovery);
    QCOMPARE(withAside.size(), std::size_t{3});
    QVERIFY(withAside[0].visible);
    QVERIFY(!withAside[1].visible);
    QCOMPARE(withAside[1].name, QStringLiteral("baseline"));

    session.setSaved();  // saved or discarded: no copy is left to offer
    QVERIFY(!session.isModified());
    QVERIFY(!QFile::exists(recovery));
    session.markRecovered();  // runs taken back from a copy are unsaved, and copied at once
    QVERIFY(session.isModified());
    QVERIFY(QFile::exists(recovery));
  }

  void aSaveOvertakesABackgroundRecoveryWrite() {
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery.json"));
    Session session;
    session.setRecoveryFile(recovery, 0);
    for (int i = 0; i < 50; ++i) session.runs()->addRun(runWithSigma(1.0 + i / 100.0));
    // The autosave's job is requested on the next turn of the event loop; the work is saved
    // right after, while that job is queued or writing.
    QTRY_VERIFY(JobService::instance().jobs().size() > 0 || QFile::exists(recovery));
    session.setSaved();
    JobService::instance().waitForIdle();
    QCoreApplication::processEvents();
    QVERIFY(!QFile::exists(recovery));          // the copy never comes back after a save
    session.runs()->addRun(runWithSigma(4.0));  // new work is copied again, in the background
    QTRY_VERIFY(QFile::exists(recovery));
    QCOMPARE(loadSession(recovery).size(), std::size_t{51});
  }

  void aRecoveryCopyThatCannotBeWrittenSaysSo() {
    Session session;
    session.setRecoveryFile(QStringLiteral("/proc/no-such-dir/recovery.json"), 10);
    QSignalSpy failed(&session, &Session::recoveryFailed);
    session.runs()->addRun(runWithSigma(1.0));
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("recovery.json")));
    QCOMPARE(session.runs()->rowCount(), 1);  // the work goes on
  }

  void oneDataSetStoreSharesLoads() {
    DatasetStore& store = DatasetStore::instance();
    store.clear();
    QSignalSpy loaded(&store, &DatasetStore::loaded);
    QVERIFY(!store.cached("circle"));
    store.request(QStringLiteral("circle"));
    store.request(QStringLiteral("circle"));  // already loading: one load, one answer
    QTRY_COMPARE(loaded.count(), 1);
    const auto first = store.cached("circle");
    QVERIFY(first);
    QVERIFY(first->train.size() > 0);
    store.request(QStringLiteral("circle"));  // held: answered at once with the same copy
    QCOMPARE(loaded.count(), 2);
    QCOMPARE(loaded.at(1).at(1).value<std::shared_ptr<const data::Dataset>>(), first);
    QCOMPARE(store.load("circle"), first);

    data::DatasetOptions noisier;
    noisier.noise = 0.4;  // other options: another set, kept beside the first
    const auto other = store.load("circle", noisier);
    QVERIFY(other != first);
    QCOMPARE(store.cached("circle"), first);
    QCOMPARE(store.cached("circle", noisier), other);
  }

  void aFailedLoadNamesTheSet() {
    QSignalSpy failed(&DatasetStore::instance(), &DatasetStore::failed);
    DatasetStore::instance().request(QStringLiteral("no-such-set"));
    QTRY_COMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no-such-set"));
    QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("no-such-set")));
  }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
