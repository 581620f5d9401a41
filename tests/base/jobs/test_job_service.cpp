#include <tbb/task_arena.h>

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <stdexcept>

#include "base/jobs/job_service.h"
#include "core/train/job_runner.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A job of `kind` that holds its lane until `release`, then sets `done` when delivered.
void startHeld(JobKind kind, QObject& receiver, std::atomic<bool>& release, bool& done) {
  JobService::instance().start<int>(
      kind, QStringLiteral("held"), &receiver,
      [&release](JobContext&) {
        while (!release.load()) QThread::msleep(1);
        return 1;
      },
      [&done](const int&) { done = true; });
}

}  // namespace

class TestJobService : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void resultsArriveOnTheReceiversThread() {
    QObject receiver;
    QThread* workerThread = nullptr;
    QThread* doneThread = nullptr;
    int value = 0;
    JobService::instance().start<int>(
        JobKind::Preview, QStringLiteral("preview"), &receiver,
        [&workerThread](JobContext&) {
          workerThread = QThread::currentThread();
          return 42;
        },
        [&](const int& v) {
          doneThread = QThread::currentThread();
          value = v;
        });
    QTRY_COMPARE(value, 42);
    QCOMPARE(doneThread, QThread::currentThread());
    QVERIFY(workerThread != QThread::currentThread());
  }

  // A Slurm command that hangs (an unreachable controller) holds up no preview: cluster work
  // has a lane of its own.
  void aWaitingClusterJobHoldsUpNoPreview() {
    QObject receiver;
    std::atomic<bool> release{false};
    bool clusterDone = false;
    bool previewDone = false;
    startHeld(JobKind::Cluster, receiver, release, clusterDone);
    JobService::instance().start<int>(
        JobKind::Preview, QStringLiteral("preview"), &receiver, [](JobContext&) { return 2; },
        [&](const int&) { previewDone = true; });
    QTRY_VERIFY(previewDone);
    QVERIFY(!clusterDone);
    release = true;
    QTRY_VERIFY(clusterDone);
  }

  void anExceptionReachesFailedWithItsMessage() {
    QObject receiver;
    QString message;
    bool done = false;
    JobService::instance().start<int>(
        JobKind::DatasetLoad, QStringLiteral("load"), &receiver,
        [](JobContext&) -> int { throw std::runtime_error("no such data set 'x'"); },
        [&](const int&) { done = true; }, [&](const QString& m) { message = m; });
    QTRY_COMPARE(message, QStringLiteral("no such data set 'x'"));
    QVERIFY(!done);
  }

  void aCancelledJobDeliversNothing() {
    QObject receiver;
    // The quick lane has one thread: block it, queue a second job, cancel that one.
    std::atomic<bool> release{false};
    std::atomic<bool> secondRan{false};
    bool firstDone = false;
    bool secondDone = false;
    startHeld(JobKind::Preview, receiver, release, firstDone);
    const JobId second = JobService::instance().start<int>(
        JobKind::Preview, QStringLiteral("second"), &receiver,
        [&secondRan](JobContext&) {
          secondRan = true;
          return 2;
        },
        [&](const int&) { secondDone = true; });
    QVERIFY(JobService::instance().pending(second));
    QVERIFY(JobService::instance().cancel(second));
    release = true;
    QTRY_VERIFY(firstDone);
    QTRY_VERIFY(!JobService::instance().pending(second));
    QVERIFY(!secondRan.load());  // never started
    QVERIFY(!secondDone);
    QVERIFY(!JobService::instance().cancel(second));  // over
  }

  void theNewestRequestWins() {
    QObject receiver;
    LatestRequest request;
    QList<int> delivered;
    for (int i = 1; i <= 50; ++i)
      request.start<int>(
          JobKind::Calibration, &receiver,
          [i] {
            QThread::usleep(200);
            return i;
          },
          [&delivered](const int& v) { delivered << v; });
    QVERIFY(request.busy());
    QTRY_VERIFY(!request.busy());
    QCOMPARE(delivered, QList<int>{50});
  }

  void aReceiverThatIsGoneGetsNothing() {
    bool done = false;
    JobId id = 0;
    {
      QObject receiver;
      id = JobService::instance().start<int>(
          JobKind::Attack, QStringLiteral("attack"), &receiver,
          [](JobContext&) {
            QThread::msleep(20);
            return 1;
          },
          [&done](const int&) { done = true; });
    }
    QTRY_VERIFY(!JobService::instance().pending(id));
    QVERIFY(!done);
  }

  void heavyWorkRunsOnTheRunnersThreadsWithProgress() {
    QObject receiver;
    QSignalSpy progress(&JobService::instance(), &JobService::jobProgress);
    QSignalSpy changed(&JobService::instance(), &JobService::jobsChanged);
    bool inArena = false;
    double result = 0;
    const JobId id = JobService::instance().start<double>(
        JobKind::Audit, QStringLiteral("audit"), &receiver,
        [&inArena](JobContext& context) {
          inArena =
              tbb::this_task_arena::max_concurrency() == JobService::instance().runner().threads();
          for (int i = 1; i <= 4; ++i) {
            QThread::msleep(5);
            context.setProgress(i / 4.0, QStringLiteral("step %1").arg(i));
          }
          return 0.5;
        },
        [&result](const double& v) { result = v; });
    bool listed = false;
    for (const JobInfo& job : JobService::instance().jobs())
      listed |= job.id == id && job.kind == JobKind::Audit && job.label == QStringLiteral("audit");
    QVERIFY(listed);
    QTRY_COMPARE(result, 0.5);
    QVERIFY(inArena);
    QVERIFY(changed.count() >= 2);  // started, ended
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0).toLongLong(), id);
    QCOMPARE(progress.last().at(1).toDouble(), 1.0);
    QCOMPARE(progress.last().at(2).toString(), QStringLiteral("step 4"));
  }

  void aCancelledHeavyJobSeesTheFlag() {
    QObject receiver;
    std::atomic<bool> sawCancel{false};
    std::atomic<bool> started{false};
    const JobId id = JobService::instance().start<int>(
        JobKind::Audit, QStringLiteral("long audit"), &receiver,
        [&](JobContext& context) {
          started = true;
          while (!context.cancelled()) QThread::msleep(1);
          sawCancel = context.cancelFlag()->load();
          return 0;
        },
        [](const int&) { QFAIL("a cancelled job delivered its result"); });
    QTRY_VERIFY(started.load());
    QVERIFY(JobService::instance().cancel(id));
    QTRY_VERIFY(!JobService::instance().pending(id));
    QVERIFY(sawCancel.load());
  }
};

QTEST_GUILESS_MAIN(TestJobService)
#include "test_job_service.moc"
