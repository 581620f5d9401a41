// File › Open session as a job (base/session/session_opener.h): the window's thread is not
// held while a big session is read and checked — the open call returns before its runs are
// in and a timer keeps ticking until they are — and cancelling it leaves the session that was
// open before as it was.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include "base/io/session_file.h"
#include "base/jobs/job_service.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "test_window_options.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/main_window.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// `count` finished runs, each with its own σ (a new accounting to check when opened) and an
// evaluation whose ε the file states.
void writeSession(const QString& path, int count, const QString& prefix) {
  std::vector<RunRecord> runs(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    RunRecord& run = runs[static_cast<std::size_t>(i)];
    run.id = i + 1;
    run.name = QStringLiteral("%1 %2").arg(prefix).arg(i + 1);
    run.status = RunStatus::Done;
    run.progress = 1.0;
    run.config.privacy.noise.initial = 0.8 + 0.001 * i;
    EvalPoint point;
    point.step = 40;
    point.epsilon = 1.0;
    point.testAccuracy = 0.5;
    run.evals.push_back(point);
  }
  saveSession(path, runs);
}

constexpr int kBig = 1000;

// A window showing a session of two runs ("before 1", "before 2"), and a session of `big`
// runs beside it, in `dir`: what an open replaces, and what it opens.
QString showSmallSession(MainWindow& w, const QTemporaryDir& dir, int big) {
  const QString small = dir.filePath(QStringLiteral("small.json"));
  writeSession(small, 2, QStringLiteral("before"));
  const QString path = dir.filePath(QStringLiteral("big.json"));
  writeSession(path, big, QStringLiteral("big"));
  w.show();
  if (!w.openSessionFrom(small).isEmpty() || w.runModel()->rowCount() != 2) return {};
  return path;
}

}  // namespace

class TestWindowOpen : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void openDoesNotHoldTheWindow() {
    QTemporaryDir dir;
    MainWindow w(test::quietWindowOptions());
    const QString big = showSmallSession(w, dir, kBig);
    QVERIFY(!big.isEmpty());

    int ticks = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.startOpeningSession(big);
    // The call returned before the runs were read: the window still shows the old ones.
    QVERIFY(w.openingSession());
    QCOMPARE(w.runModel()->rowCount(), 2);
    QVERIFY(opened.wait(60000));
    QCOMPARE(opened.at(0).at(1).toString(), QString());
    QCOMPARE(opened.at(0).at(2).toBool(), false);
    QCOMPARE(w.runModel()->rowCount(), kBig);
    // The event loop ran while the runs were read, checked and added in chunks.
    QVERIFY2(ticks >= 2, qPrintable(QStringLiteral("%1 ticks").arg(ticks)));
    QVERIFY(!w.openingSession());
  }

  void theChartsDrawAnOpenOnceNotPerChunk() {
    QTemporaryDir dir;
    MainWindow w(test::quietWindowOptions());
    const QString big = showSmallSession(w, dir, 3000);  // chunks of 500, 2000 and 500
    QVERIFY(!big.isEmpty());
    // A slow machine: each chunk takes longer than the charts' and the Sweep map's timers.
    int chunks = 0;
    connect(w.runModel(), &QAbstractItemModel::rowsInserted, [&] {
      ++chunks;
      QThread::msleep(200);
    });
    const int before = w.chartPanel()->redrawCount();
    QVERIFY(w.openSessionFrom(big).isEmpty());
    QCOMPARE(chunks, 3);
    QCOMPARE(w.runModel()->rowCount(), 3000);
    QVERIFY(!w.runModel()->arriving());
    // Once as the runs before leave, once when all the new ones are in.
    QCOMPARE(w.chartPanel()->redrawCount() - before, 2);
    QTest::qWait(300);  // no timer left to redraw the runs again
    QCOMPARE(w.chartPanel()->redrawCount() - before, 2);
  }

  void cancelKeepsTheSessionBefore() {
    QTemporaryDir dir;
    MainWindow w(test::quietWindowOptions());
    const QString big = showSmallSession(w, dir, kBig);
    QVERIFY(!big.isEmpty());
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.startOpeningSession(big);
    QVERIFY(w.cancelOpeningSession());
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.at(0).at(2).toBool(), true);  // cancelled
    QVERIFY(!w.openingSession());
    QVERIFY(!w.cancelOpeningSession());  // nothing left to stop
    JobService::instance().waitForIdle();
    QTest::qWait(50);  // anything the cancelled job could still have delivered
    QCOMPARE(opened.size(), 1);
    QCOMPARE(w.runModel()->rowCount(), 2);
    QCOMPARE(w.runModel()->runs()[0].name, QStringLiteral("before 1"));
    QCOMPARE(w.runModel()->runs()[1].name, QStringLiteral("before 2"));
    QVERIFY(!w.session()->isModified());
  }

  void badFileKeepsTheSessionBefore() {
    QTemporaryDir dir;
    MainWindow w(test::quietWindowOptions());
    const QString big = showSmallSession(w, dir, 300);
    QVERIFY(!big.isEmpty());
    // Run 201's σ made negative: the file is refused, naming the file and the run.
    QFile file(big);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    file.close();
    const QByteArray name = "\"big 201\"";
    QVERIFY(bytes.contains(name));
    const qsizetype at = bytes.indexOf(name);
    // A run's keys are written in order, "config" before "name": its σ is the last before.
    const qsizetype sigma = bytes.lastIndexOf("\"noise_multiplier\"", at);
    QVERIFY(sigma > 0);
    const qsizetype colon = bytes.indexOf(':', sigma);
    bytes.insert(colon + 1, "-");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
    file.close();
    const QString error = w.openSessionFrom(big);
    QVERIFY2(error.contains(QStringLiteral("big.json")), qPrintable(error));
    QVERIFY2(
        error.contains(QStringLiteral("big 201")) || error.contains(QStringLiteral("runs[200]")),
        qPrintable(error));
    QCOMPARE(w.runModel()->rowCount(), 2);
    QCOMPARE(w.runModel()->runs()[0].name, QStringLiteral("before 1"));
  }
};

QTEST_MAIN(TestWindowOpen)
#include "test_window_open.moc"
