// The folder watcher the GUI follows a cluster sweep with: a run file that lands (in one
// rename, as QSaveFile writes it) is reported once with its sweep index, through the folder's
// change notification; where notifications do not come (here: a folder that did not exist yet
// when watching began, as on a network file system) polling finds it; temporary files and
// other files are never reported.
#include <QDir>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "base/cluster/run_folder_watcher.h"

using epsilon::cluster::RunFolderWatcher;

namespace {

void land(const QString& path) {
  QSaveFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("{}");
  QVERIFY(file.commit());
}

}  // namespace

class TestRunFolderWatcher : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void notifiedOncePerRunFile() {
    QTemporaryDir dir;
    RunFolderWatcher watcher(dir.path(), 3600 * 1000);  // no polling within the test
    QSignalSpy landed(&watcher, &RunFolderWatcher::runLanded);
    land(dir.filePath("run-04-seed=2.json"));
    land(dir.filePath("summary.csv"));
    QVERIFY(landed.wait(5000));
    QTest::qWait(200);
    QCOMPARE(landed.size(), 1);
    QCOMPARE(landed[0][0].toInt(), 4);
    QCOMPARE(landed[0][1].toString(), dir.filePath("run-04-seed=2.json"));
    land(dir.filePath("run-05-seed=3.json"));
    QVERIFY(landed.wait(5000));
    QCOMPARE(landed.size(), 2);
    QCOMPARE(landed[1][0].toInt(), 5);
    watcher.check();
    QCOMPARE(landed.size(), 2);
  }

  void pollingFindsWhatNotificationsMiss() {
    QTemporaryDir parent;
    const QString dir = parent.filePath("later");
    RunFolderWatcher watcher(dir, 50);  // nothing to watch yet: only polling sees it
    QSignalSpy landed(&watcher, &RunFolderWatcher::runLanded);
    QVERIFY(QDir().mkpath(dir));
    land(QDir(dir).filePath("run-00-x.json"));
    QVERIFY(landed.wait(5000));
    QCOMPARE(landed.size(), 1);
    QCOMPARE(landed[0][0].toInt(), 0);
  }
};

QTEST_GUILESS_MAIN(TestRunFolderWatcher)
#include "test_run_folder_watcher.moc"
