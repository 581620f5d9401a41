// Every file dialog starts in the folder its kind of dialog was last accepted in (QSettings,
// file_dialogs.h): the real Qt dialogs are driven here, and the main window's Open session and
// Save session actions go through them. The window is named before a session is open.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>

#include "base/session/run_model.h"
#include "ui/widgets/file_dialogs.h"
#include "ui/widgets/main_window.h"

using namespace epsilon::ui;

namespace {

QString canonical(const QString& path) {
  return QFileInfo(path).canonicalFilePath();
}

// What a person does in the dialog that `open` shows: reads the folder it starts in, picks
// `choose` and accepts. Returns the folder the dialog started in (empty if none appeared).
QString answerDialog(const std::function<void()>& open, const QString& choose) {
  QString started;
  QTimer poll;
  poll.setInterval(20);
  QObject::connect(&poll, &QTimer::timeout, [&] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) return;
    poll.stop();
    started = canonical(dialog->directory().absolutePath());
    // Typed as a person would: the dialog's list of files fills in asynchronously, the
    // typed path does not depend on it.
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    if (name) name->setText(choose);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, as the Save button does
  });
  poll.start();
  open();
  return started;
}

QAction* actionNamed(QWidget& window, const QString& text) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == text) return a;
  return nullptr;
}

}  // namespace

class TestFileDialogs : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings in a test location
    QSettings().clear();
  }
  void cleanupTestCase() { QSettings().clear(); }

  void eachPurposeHasItsFolder() {
    QTemporaryDir dir;
    const QString sessions = QDir(dir.path()).filePath(QStringLiteral("lectures"));
    const QString data = QDir(dir.path()).filePath(QStringLiteral("mnist"));
    QVERIFY(QDir().mkpath(sessions));
    QVERIFY(QDir().mkpath(data));
    QCOMPARE(lastFolder(FolderPurpose::Sessions), QDir::homePath());
    rememberFolder(FolderPurpose::Sessions, QDir(sessions).filePath(QStringLiteral("week1.json")));
    rememberFolder(FolderPurpose::DataFolders, data);  // a folder is remembered as itself
    QCOMPARE(canonical(lastFolder(FolderPurpose::Sessions)), canonical(sessions));
    QCOMPARE(canonical(lastFolder(FolderPurpose::DataFolders)), canonical(data));
    QCOMPARE(lastFolder(FolderPurpose::Charts), QDir::homePath());  // untouched
    QVERIFY(QSettings().contains(folderKey(FolderPurpose::Sessions)));
    QVERIFY(QDir(data).removeRecursively());  // a folder that is gone: back to home
    QCOMPARE(lastFolder(FolderPurpose::DataFolders), QDir::homePath());
  }

  void dialogsStartWhereTheLastOneEnded() {
    QTemporaryDir dir;
    const QString first = QDir(dir.path()).filePath(QStringLiteral("first"));
    const QString second = QDir(dir.path()).filePath(QStringLiteral("second"));
    QVERIFY(QDir().mkpath(first) && QDir().mkpath(second));
    rememberFolder(FolderPurpose::Histories, first);
    const QString target = QDir(second).filePath(QStringLiteral("runs.csv"));
    QString chosen;
    const QString started = answerDialog(
        [&] {
          chosen = askSaveFile(nullptr, FolderPurpose::Histories, QStringLiteral("Export"),
                               QStringLiteral("runs.csv"), QStringLiteral("CSV (*.csv)"));
        },
        target);
    QCOMPARE(started, canonical(first));
    QCOMPARE(canonical(QFileInfo(chosen).absolutePath()), canonical(second));
    QCOMPARE(canonical(lastFolder(FolderPurpose::Histories)), canonical(second));

    // A folder dialog (the data folder) starts in its own remembered folder.
    rememberFolder(FolderPurpose::DataFolders, first);
    QString folder;
    const QString folderStart = answerDialog(
        [&] { folder = askFolder(nullptr, FolderPurpose::DataFolders, QStringLiteral("Data")); },
        second);
    QCOMPARE(folderStart, canonical(first));
    QCOMPARE(canonical(folder), canonical(second));
    QCOMPARE(canonical(lastFolder(FolderPurpose::DataFolders)), canonical(second));
  }

  void windowSessionDialogsRemember() {
    QTemporaryDir dir;
    const QString lectures = QDir(dir.path()).filePath(QStringLiteral("lectures"));
    QVERIFY(QDir().mkpath(lectures));
    const QString file = QDir(lectures).filePath(QStringLiteral("week1.json"));
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    // Named before any session; "[*]" shows as "*" once there is unsaved work.
    QCOMPARE(w.windowTitle(), QStringLiteral("EpsilonLab[*]"));
    QVERIFY(!w.isWindowModified());
    RunRecord run;
    run.name = QStringLiteral("saved run");
    w.runModel()->addRun(run);
    QAction* save = actionNamed(w, QStringLiteral("&Save session…"));
    QAction* open = actionNamed(w, QStringLiteral("&Open session…"));
    QVERIFY(save && open);
    answerDialog([&] { save->trigger(); }, file);
    QVERIFY(QFileInfo::exists(file));
    QCOMPARE(canonical(lastFolder(FolderPurpose::Sessions)), canonical(lectures));
    QVERIFY2(w.windowTitle().contains(QStringLiteral("week1.json")), qPrintable(w.windowTitle()));

    MainWindow next(options);
    const QString started = answerDialog([&] { open->trigger(); }, file);
    QCOMPARE(started, canonical(lectures));
    const QString reopened =
        answerDialog([&] { actionNamed(next, QStringLiteral("&Open session…"))->trigger(); }, file);
    QCOMPARE(reopened, canonical(lectures));  // a new window starts there too
    // File › Open session reads and checks the file as a job: the runs arrive a moment later.
    QTRY_COMPARE_WITH_TIMEOUT(next.runModel()->rowCount(), 1, 10000);
    QCOMPARE(next.runModel()->runs().front().name, QStringLiteral("saved run"));
  }
};

QTEST_MAIN(TestFileDialogs)
#include "test_file_dialogs.moc"
