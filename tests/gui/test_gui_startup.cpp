// `epsilonlab --session FILE`: a good session opens with its runs (and the window names it);
// a missing or corrupt file shows a message box in the window, prints to stderr and, with
// --screenshot, exits with status 2; a session given never triggers "reopen last session";
// `epsilonlab FILE` does the same as --session FILE.
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "ui/widgets/main_window.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

MainWindow::Options testOptions() {
  MainWindow::Options o;
  o.useSettings = false;
  o.offerLastSession = false;
  return o;
}

// Two finished runs with one evaluation each, written as a session file.
void writeSession(const QString& path) {
  std::vector<RunRecord> runs(2);
  for (int i = 0; i < 2; ++i) {
    runs[i].id = i + 1;
    runs[i].name = QStringLiteral("run %1").arg(i + 1);
    runs[i].status = RunStatus::Done;
    runs[i].progress = 1.0;
    runs[i].config.dataset.name = "circle";
    EvalPoint point;
    point.testAccuracy = 0.5 + 0.1 * i;
    runs[i].evals.push_back(point);
  }
  saveSession(path, runs);
}

struct Result {
  int exitCode = -1;
  QString stderrText;
};

Result runGui(const QStringList& args) {
  QProcess process;
  process.start(QStringLiteral(EPSILON_GUI_PATH), args);
  Result result;
  if (!process.waitForFinished(120000)) {
    process.kill();
    process.waitForFinished();
    return result;
  }
  result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  result.stderrText = QString::fromLocal8Bit(process.readAllStandardError());
  return result;
}

bool messageBoxShown(const MainWindow& w) {
  for (const QMessageBox* box : w.findChildren<QMessageBox*>())
    if (box->isVisible()) return true;
  return false;
}

}  // namespace

class TestGuiStartup : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void sessionGivenNeverOffersTheLastOne() {
    QVERIFY(!MainWindow::startupOptions(true, false).offerLastSession);
    QVERIFY(!MainWindow::startupOptions(true, true).offerLastSession);
    QVERIFY(MainWindow::startupOptions(false, false).offerLastSession);
    QVERIFY(!MainWindow::startupOptions(false, true).useSettings);  // pictures from defaults
  }

  void goodSessionOpens() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.json"));
    writeSession(path);
    MainWindow w(testOptions());
    w.show();
    QCOMPARE(w.openSessionFrom(path), QString());
    QCOMPARE(w.runModel()->rowCount(), 2);
    QVERIFY(w.windowTitle().contains(QStringLiteral("lecture.json")));

    const QString picture = dir.filePath(QStringLiteral("shot.png"));
    const Result r = runGui({QStringLiteral("--session"), path, QStringLiteral("--screenshot"),
                             picture, QStringLiteral("--delay"), QStringLiteral("200")});
    QCOMPARE(r.exitCode, 0);
    // Qt's own platform notes may appear on stderr; a session message must not.
    QVERIFY2(!r.stderrText.contains(QStringLiteral("session")), qPrintable(r.stderrText));
    QVERIFY(!QImage(picture).isNull());
  }

  // A file manager and the desktop entry (Exec=epsilonlab %f) pass the file alone.
  void fileArgumentOpensLikeSession() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.json"));
    writeSession(path);
    const QString picture = dir.filePath(QStringLiteral("shot.png"));
    Result r = runGui({path, QStringLiteral("--screenshot"), picture, QStringLiteral("--delay"),
                       QStringLiteral("200")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!QImage(picture).isNull());

    const QString missing = dir.filePath(QStringLiteral("no-such-lecture.json"));
    r = runGui({missing, QStringLiteral("--screenshot"), picture});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stderrText.contains(QStringLiteral("no-such-lecture.json")),
             qPrintable(r.stderrText));
    r = runGui({path, missing, QStringLiteral("--screenshot"), picture});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stderrText.contains(QStringLiteral("at most one file")), qPrintable(r.stderrText));
  }

  void missingSessionIsReported() {
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("good.json"));
    writeSession(good);
    const QString missing = dir.filePath(QStringLiteral("no-such-lecture.json"));
    MainWindow w(testOptions());
    w.show();
    QCOMPARE(w.openSessionFrom(good), QString());
    const QString error = w.openSessionFrom(missing);
    QVERIFY2(error.contains(QStringLiteral("no-such-lecture.json")), qPrintable(error));
    QVERIFY(messageBoxShown(w));
    QCOMPARE(w.runModel()->rowCount(), 2);  // the open session stays

    const QString picture = dir.filePath(QStringLiteral("shot.png"));
    const Result r =
        runGui({QStringLiteral("--session"), missing, QStringLiteral("--screenshot"), picture});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stderrText.contains(QStringLiteral("no-such-lecture.json")),
             qPrintable(r.stderrText));
    QVERIFY(!QFile::exists(picture));
  }

  void corruptSessionIsReported() {
    QTemporaryDir dir;
    const QString corrupt = dir.filePath(QStringLiteral("corrupt.json"));
    QFile file(corrupt);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"epsilonlab-session\", \"version\": 1, \"runs\": [");  // truncated
    file.close();
    MainWindow w(testOptions());
    w.show();
    const QString error = w.openSessionFrom(corrupt);
    QVERIFY2(error.contains(QStringLiteral("corrupt.json")), qPrintable(error));
    QVERIFY(messageBoxShown(w));

    const QString picture = dir.filePath(QStringLiteral("shot.png"));
    const Result r =
        runGui({QStringLiteral("--session"), corrupt, QStringLiteral("--screenshot"), picture});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.stderrText.contains(QStringLiteral("corrupt.json")), qPrintable(r.stderrText));
  }
};

QTEST_MAIN(TestGuiStartup)
#include "test_gui_startup.moc"
