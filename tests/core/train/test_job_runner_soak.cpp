// JobRunner soak: 1,000 start/cancel cycles with 4 concurrent runs (issue 13). Each cycle
// submits four long runs, lets them get going for a moment that varies from cycle to cycle
// (so cancellation lands on queued runs, on running ones and on runs between steps), cancels
// them, waits and releases them. Every run must end exactly once, as Cancelled (or Done),
// and be forgotten after release; every tenth cycle destroys the runner with its runs still
// training. Built like every suite but labelled "soak" and left out of the normal run; it is
// meant for ASan (scripts/soak, scripts/ci-sanitizers), which also fails it on any leak.
#include <QTest>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "core/data/registry.h"
#include "core/train/job_runner.h"

using namespace epsilon;
using namespace epsilon::train;

namespace {

constexpr int kCycles = 1000;
constexpr int kConcurrentRuns = 4;

std::shared_ptr<const data::Dataset> circle() {
  static const auto dataset = [] {
    data::DatasetOptions options;
    options.size = 400;
    return std::make_shared<const data::Dataset>(data::loadDataset("circle", options));
  }();
  return dataset;
}

ExperimentConfig longRun(std::uint64_t seed) {
  ExperimentConfig c;
  c.dataset.name = "circle";
  c.model.preset = "mlp";
  c.model.hiddenWidths = {8};
  c.training.lotSize = 16;
  c.training.steps = 1'000'000;  // never finishes on its own within a cycle
  c.training.evalEveryEpoch = false;
  c.training.evalEverySteps = 50;
  c.training.seed = seed;
  return c;
}

// Counts final status events per run: each run must report its end exactly once. Ids
// restart at 1 with every new runner, so a run is (runner generation, id).
struct EndCounter {
  std::mutex mutex;
  std::map<std::pair<int, RunId>, int> ends;
  void record(int generation, const ProgressEvent& e) {
    if (e.kind != EventKind::Status || !isFinished(e.status)) return;
    const std::lock_guard lock(mutex);
    ++ends[{generation, e.runId}];
  }
};

}  // namespace

class TestJobRunnerSoak : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void thousandStartCancelCycles() {
    EndCounter counter;
    auto runner = std::make_unique<JobRunner>(JobRunner::Options{.threads = kConcurrentRuns});
    int generation = 0;
    long submitted = 0;
    long cancelledRuns = 0;
    for (int cycle = 0; cycle < kCycles; ++cycle) {
      std::vector<RunId> ids;
      for (int r = 0; r < kConcurrentRuns; ++r) {
        ids.push_back(runner->submit(
            longRun(static_cast<std::uint64_t>(cycle * kConcurrentRuns + r + 1)),
            [&counter, generation](const ProgressEvent& e) { counter.record(generation, e); },
            circle()));
      }
      submitted += kConcurrentRuns;
      // 0 to 2 ms: sometimes before any run starts, sometimes mid-step.
      std::this_thread::sleep_for(std::chrono::microseconds((cycle * 37) % 2000));
      if (cycle % 10 == 9) {
        // The destructor cancels and waits for every run still going.
        runner = std::make_unique<JobRunner>(JobRunner::Options{.threads = kConcurrentRuns});
        ++generation;
        cancelledRuns += kConcurrentRuns;
        continue;
      }
      if (cycle % 2 == 0) {
        runner->cancelAll();
      } else {
        for (const RunId id : ids) runner->cancel(id);
      }
      for (const RunId id : ids) {
        const RunResult result = runner->wait(id);
        QVERIFY2(result.status == RunStatus::Cancelled,
                 qPrintable(QString("cycle %1 run %2: %3")
                                .arg(cycle)
                                .arg(id)
                                .arg(QString::fromStdString(runStatusName(result.status)))));
        QVERIFY(runner->release(id));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, runner->status(id));
        ++cancelledRuns;
      }
    }
    runner.reset();
    QCOMPARE(cancelledRuns, submitted);
    const std::lock_guard lock(counter.mutex);
    QCOMPARE(static_cast<long>(counter.ends.size()), submitted);
    for (const auto& [run, ends] : counter.ends) {
      QVERIFY2(
          ends == 1,
          qPrintable(
              QString("runner %1 run %2 ended %3 times").arg(run.first).arg(run.second).arg(ends)));
    }
  }
};

QTEST_APPLESS_MAIN(TestJobRunnerSoak)
#include "test_job_runner_soak.moc"
