// JobRunner: several runs at once, progress from worker threads, cancellation of a queued
// run (at once), of a running run (within one step), of all runs, and by the destructor.
#include <QTest>
#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>
#include <set>
#include <thread>

#include "core/common/thread_priority.h"
#include "core/data/registry.h"
#include "core/train/job_runner.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

std::shared_ptr<const data::Dataset> circle() {
  static const auto dataset = [] {
    data::DatasetOptions options;
    options.size = 1000;
    return std::make_shared<const data::Dataset>(data::loadDataset("circle", options));
  }();
  return dataset;
}

ExperimentConfig quick(long long steps) {
  ExperimentConfig c;
  c.dataset.name = "circle";
  c.model.preset = "mlp";
  c.model.hiddenWidths = {8};
  c.training.lotSize = 32;
  c.training.steps = steps;
  c.training.evalEveryEpoch = false;
  c.training.evalEverySteps = 1;
  return c;
}

}  // namespace

class TestJobRunner : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void runsSeveralAtOnce() {
    JobRunner runner({.threads = 2});
    std::atomic<int> evaluations{0};
    std::mutex mutex;
    std::set<RunId> seen;
    std::vector<RunId> ids;
    for (int i = 0; i < 4; ++i) {
      ExperimentConfig c = quick(20);
      c.training.seed = static_cast<std::uint64_t>(i + 1);
      ids.push_back(runner.submit(
          c,
          [&](const ProgressEvent& e) {
            if (e.kind == EventKind::Evaluation) ++evaluations;
            const std::lock_guard lock(mutex);
            seen.insert(e.runId);
          },
          circle()));
    }
    QCOMPARE(ids, (std::vector<RunId>{1, 2, 3, 4}));
    runner.waitAll();
    for (RunId id : ids) {
      QCOMPARE(runner.status(id), RunStatus::Done);
      QCOMPARE(runner.result(id)->history.size(), std::size_t(21));
    }
    QCOMPARE(evaluations.load(), 4 * 21);
    QCOMPARE(seen.size(), std::size_t(4));
    // Different seeds, different runs.
    QVERIFY(runner.result(1)->history.back().trainLoss !=
            runner.result(2)->history.back().trainLoss);
    QVERIFY(runner.release(1));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, runner.status(1));
  }

  void cancellationStopsWithinOneStep() {
    // The callback asks for cancellation when step 3 has been evaluated; the run must not
    // take step 4.
    JobRunner runner({.threads = 2});
    std::atomic<RunId> id{0};
    std::atomic<bool> asked{false};
    std::atomic<bool> accepted{false};
    const RunId submitted = runner.submit(
        quick(1000),
        [&](const ProgressEvent& e) {
          if (e.kind == EventKind::Evaluation && e.step == 3 && !asked.exchange(true)) {
            while (id.load() == 0) std::this_thread::yield();
            accepted = runner.cancel(id.load());  // from the worker thread, inside the run
          }
        },
        circle());
    id.store(submitted);
    const RunResult result = runner.wait(submitted);
    QVERIFY(accepted);
    QCOMPARE(result.status, RunStatus::Cancelled);
    QCOMPARE(result.history.back().step, 3LL);
    QCOMPARE(result.message, std::string("cancelled after step 3"));
    QVERIFY(result.model != nullptr);    // a cancelled run keeps its model too
    QVERIFY(!runner.cancel(submitted));  // already finished
  }

  void queuedRunIsCancelledAtOnce() {
    // One run at a time: the second waits in the queue and is cancelled there.
    JobRunner runner({.threads = 1, .maxConcurrentRuns = 1});
    std::atomic<bool> started{false};
    const RunId first = runner.submit(
        quick(100000),
        [&](const ProgressEvent& e) {
          if (e.kind == EventKind::Evaluation) started = true;
        },
        circle());
    std::vector<RunStatus> secondStatuses;
    std::mutex mutex;
    const RunId second = runner.submit(
        quick(10),
        [&](const ProgressEvent& e) {
          const std::lock_guard lock(mutex);
          secondStatuses.push_back(e.status);
        },
        circle());
    while (!started) std::this_thread::yield();
    QCOMPARE(runner.status(second), RunStatus::Queued);
    QVERIFY(runner.cancel(second));
    QCOMPARE(runner.status(second), RunStatus::Cancelled);
    QCOMPARE(runner.wait(second).message, std::string("cancelled before it started"));
    QCOMPARE(secondStatuses, (std::vector<RunStatus>{RunStatus::Queued, RunStatus::Cancelled}));
    runner.cancelAll();
    QCOMPARE(runner.wait(first).status, RunStatus::Cancelled);
  }

  void destructorCancelsAndWaits() {
    std::atomic<int> finished{0};
    std::atomic<int> cancelled{0};
    std::atomic<int> evaluations{0};
    {
      JobRunner runner({.threads = 2});
      for (int i = 0; i < 3; ++i) {
        runner.submit(
            quick(1000000),
            [&](const ProgressEvent& e) {
              if (e.kind == EventKind::Evaluation) ++evaluations;
              if (e.kind == EventKind::Status && isFinished(e.status)) {
                ++finished;
                if (e.status == RunStatus::Cancelled) ++cancelled;
              }
            },
            circle());
      }
      while (evaluations < 5) std::this_thread::yield();
    }
    QCOMPARE(finished.load(), 3);
    QCOMPARE(cancelled.load(), 3);
  }

#if defined(__linux__)
  // A background runner's runs train on threads of lowered priority (the GUI thread runs
  // first); a runner that is not (the CLI's) leaves them as they are.
  void backgroundRunsTrainAtLowerPriority() {
    // Not lowered first: TBB's workers, once lowered, stay so for the process.
    for (const bool background : {false, true}) {
      JobRunner runner(JobRunner::Options{2, 0, background});
      std::mutex mutex;
      std::set<int> niceness;
      const RunId id = runner.submit(
          quick(20),
          [&](const ProgressEvent& e) {
            if (e.step < 1) return;  // "queued" comes from this thread
            const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
            std::lock_guard lock(mutex);
            niceness.insert(nice);
          },
          circle());
      QCOMPARE(runner.wait(id).status, RunStatus::Done);
      QVERIFY(!niceness.empty());
      const int base = getpriority(PRIO_PROCESS, 0);  // the process's (this thread's) own
      for (const int nice : niceness) {
        if (background)
          QCOMPARE(nice, std::max(base, kBackgroundNiceness));
        else
          QCOMPARE(nice, base);
      }
    }
  }

  // A lowered thread offers its core between chunks of work, at most once per millisecond
  // (the kernel would let a woken GUI thread wait for its next tick); others never do.
  // The spins count this thread's processor time, not the clock's: on a busy machine a
  // lowered thread runs seldom, and 20 ms of wall time gave it only two chances to yield.
  void loweredThreadsOfferTheirCoreEachMillisecond() {
    int before = -1, after = -1;
    long long wallMs = 0;
    std::thread worker([&] {
      const auto cpuNow = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
      };
      const auto spin = [&](std::chrono::milliseconds length) {
        const auto start = std::chrono::steady_clock::now();
        const auto end = cpuNow() + length;
        while (cpuNow() < end) yieldIfLoweredAndDue();
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
            .count();
      };
      spin(std::chrono::milliseconds(5));
      before = yieldsOffered();
      lowerThreadPriority(kBackgroundNiceness);
      wallMs = spin(std::chrono::milliseconds(20));
      after = yieldsOffered();
    });
    worker.join();
    QCOMPARE(before, 0);
    // At most one offer per millisecond of the clock, and several in 20 ms of running.
    QVERIFY2(after >= 3 && after <= wallMs + 1,
             qPrintable(QStringLiteral("%1 offers in %2 ms").arg(after).arg(wallMs)));
  }
#endif

  void badConfigFailsTheRunNotTheRunner() {
    JobRunner runner({.threads = 1});
    ExperimentConfig c = quick(5);
    c.training.lotSize = 5000;  // more than the 800 training points
    const RunResult result = runner.wait(runner.submit(c, {}, circle()));
    QCOMPARE(result.status, RunStatus::Failed);
    QVERIFY(result.inputError);
    QVERIFY(QString::fromStdString(result.message).startsWith("training.lot_size:"));
  }
};

QTEST_APPLESS_MAIN(TestJobRunner)
#include "test_job_runner.moc"
