// The controller forgets nothing it should and keeps nothing it should not: replacing a live
// run 200 times and deleting 50 running runs leaves the JobRunner holding only the live job
// and no models of removed runs; opening a session whose run ids equal those of runs still
// being cancelled lets no event of those runs land on the loaded ones.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A run long enough to be still training when it is replaced or deleted.
train::ExperimentConfig longRun() {
  train::ExperimentConfig c;
  c.dataset.name = "circle";
  c.dataset.options.size = 200;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {4};
  c.training.lotSize = 20;
  c.training.epochs = 500;
  c.training.evalEverySteps = 5;
  return c;
}

// Peak resident memory (VmHWM) of this process, for the report.
QByteArray peakRss() {
  QFile status(QStringLiteral("/proc/self/status"));
  if (!status.open(QIODevice::ReadOnly)) return "unknown";
  for (const QByteArray& line : status.readAll().split('\n'))
    if (line.startsWith("VmHWM:")) return line.mid(6).trimmed();
  return "unknown";
}

// Delivers events until every cancelled job has been released by the runner.
bool settle(TrainingController& controller) {
  controller.flush();
  return controller.releasingJobs() == 0;
}

}  // namespace

class TestTrainingController : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void replacedAndDeletedRunsAreReleased() {
    RunModel model;
    TrainingController controller(&model, nullptr, 2);
    const train::ExperimentConfig config = longRun();
    for (int i = 0; i < 200; ++i) {
      controller.start(config, QStringLiteral("live"), true);
      if (i % 10 == 0) controller.flush();
    }
    QCOMPARE(model.rowCount(), 1);
    const int liveRun = model.idAt(0);
    // Jobs are numbered from 1 in submission order: the 200th is the live run's.
    const train::RunId liveJob = controller.jobOf(liveRun);
    QCOMPARE(liveJob, train::RunId{200});
    std::vector<int> others;
    for (int i = 0; i < 50; ++i)
      others.push_back(controller.start(config, QStringLiteral("run %1").arg(i)));
    QTest::qWait(500);  // some start training, the rest wait in the runner queue
    controller.flush();
    for (int id : others) QVERIFY(model.takeRun(id).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(settle(controller), 60000);

    QCOMPARE(model.rowCount(), 1);
    // Only the live run may still train (it may also have finished and been released).
    const bool liveActive = model.run(liveRun)->isActive();
    QCOMPARE(controller.trackedJobs(), std::size_t{liveActive ? 1u : 0u});
    QVERIFY2(controller.keptModels() <= 1, "models of removed runs were kept");
    int held = 0;
    for (train::RunId job = 1; job <= 250; ++job) held += controller.runnerHolds(job) ? 1 : 0;
    QCOMPARE(held, liveActive ? 1 : 0);
    QCOMPARE(controller.runnerHolds(liveJob), liveActive);
    qInfo("peak RSS after 200 live replacements and 50 deleted runs: %s", peakRss().constData());

    QVERIFY(model.takeRun(liveRun).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(settle(controller), 60000);
    QCOMPARE(controller.trackedJobs(), std::size_t{0});
    QCOMPARE(controller.keptModels(), std::size_t{0});
    QVERIFY(!controller.runnerHolds(liveJob));
  }

  void sessionWithTheSameIdsGetsNoStrayEvents() {
    MainWindow::Options options;
    options.useSettings = false;
    options.offerLastSession = false;
    MainWindow w(options);
    TrainingController* controller = w.controller();
    QList<int> ids;
    for (int i = 0; i < 3; ++i)
      ids << controller->start(longRun(), QStringLiteral("training %1").arg(i));
    // Training has reached the model: events are flowing for these ids.
    QTRY_VERIFY_WITH_TIMEOUT(!w.runModel()->run(ids[0])->evals.empty(), 30000);

    std::vector<RunRecord> saved;
    for (int id : ids) {
      RunRecord r;
      r.id = id;
      r.name = QStringLiteral("saved %1").arg(id);
      r.status = RunStatus::Done;
      r.config = longRun();
      for (int step : {5, 10}) {
        EvalPoint p;
        p.step = step;
        p.testAccuracy = 0.125;
        r.evals.push_back(p);
      }
      saved.push_back(r);
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("same-ids.json"));
    saveSession(path, saved);
    QCOMPARE(w.openSessionFrom(path), QString());
    QTRY_VERIFY_WITH_TIMEOUT(settle(*controller), 60000);
    QTest::qWait(300);  // let any late event of the cancelled jobs arrive
    controller->flush();

    QCOMPARE(w.runModel()->rowCount(), 3);
    for (int id : ids) {
      const RunRecord* run = w.runModel()->run(id);
      QVERIFY(run);
      QCOMPARE(run->name, QStringLiteral("saved %1").arg(id));
      QCOMPARE(run->status, RunStatus::Done);
      QCOMPARE(run->evals.size(), std::size_t{2});
      QCOMPARE(run->evals.back().testAccuracy, 0.125);
      QVERIFY(run->losses.empty());
      QCOMPARE(controller->jobOf(id), train::RunId{0});
    }
    QCOMPARE(controller->trackedJobs(), std::size_t{0});
  }
};

QTEST_MAIN(TestTrainingController)
#include "test_training_controller.moc"
