// Trust, but verify (issue 27): a run opened from a file has its ε recomputed from its settings
// with the one privacy statement. A trained run's file opens untouched; a file whose ε was
// edited opens with the mismatch stated, both values given, and the forged ε never shown.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "base/io/run_conversion.h"
#include "base/io/run_file.h"
#include "base/io/run_verification.h"
#include "base/io/session_file.h"
#include "core/data/registry.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

// A trained run on "xor" (64 training points, lots of 16, 2 epochs, evaluated every 2 steps).
RunRecord trainedRun(privacy::AccountantKind accountant) {
  train::ExperimentConfig c;
  c.dataset.name = "xor";
  c.dataset.options.size = 80;
  c.model.hiddenWidths = {4};
  c.training.lotSize = 16;
  c.training.epochs = 2;
  c.training.evalEverySteps = 2;
  c.privacy.noise.initial = 2.0;
  c.privacy.noise.decay = privacy::NoiseDecay::Exp;
  c.privacy.noise.rate = 0.002;
  c.privacy.accountant = accountant;
  c.privacy.delta = 1e-3;
  const auto data =
      std::make_shared<const data::Dataset>(data::loadDataset("xor", c.dataset.options));
  RunRecord run = recordFromResult(train::Trainer(c, data).run(), QStringLiteral("trained"));
  run.id = 1;
  return run;
}

// The session written to a file, with `edit` applied to its JSON, opened as Open does.
std::vector<RunRecord> reopened(const RunRecord& run,
                                const std::function<void(QJsonObject&)>& edit = {}) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("session.json"));
  QJsonObject json = sessionToJson({run});
  if (edit) {
    QJsonArray runs = json.value(QStringLiteral("runs")).toArray();
    QJsonObject first = runs.at(0).toObject();
    edit(first);
    runs.replace(0, first);
    json.insert(QStringLiteral("runs"), runs);
  }
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(QJsonDocument(json).toJson());
  file.close();
  return openSessionOrRuns(path);
}

// Sets the stored ε of evaluation `index` to `epsilon`.
std::function<void(QJsonObject&)> forge(int index, double epsilon) {
  return [=](QJsonObject& run) {
    QJsonArray evals = run.value(QStringLiteral("evals")).toArray();
    QJsonObject point = evals.at(index).toObject();
    point.insert(QStringLiteral("epsilon"), epsilon);
    evals.replace(index, point);
    run.insert(QStringLiteral("evals"), evals);
  };
}

}  // namespace

class TestRunVerification : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aTrainedRunOpensAsItWasSaved_data() {
    QTest::addColumn<int>("accountant");
    QTest::newRow("rdp") << int(privacy::AccountantKind::Rdp);
    QTest::newRow("pld") << int(privacy::AccountantKind::Pld);
  }
  void aTrainedRunOpensAsItWasSaved() {
    QFETCH(int, accountant);
    const RunRecord run = trainedRun(privacy::AccountantKind(accountant));
    QCOMPARE(run.evals.size(), std::size_t(5));
    const std::vector<RunRecord> opened = reopened(run);
    QCOMPARE(opened.size(), std::size_t(1));
    QVERIFY2(opened[0].message.isEmpty(), qPrintable(opened[0].message));
    for (std::size_t i = 0; i < run.evals.size(); ++i)
      QCOMPARE(opened[0].evals[i].epsilon, run.evals[i].epsilon);
  }

  void aForgedEpsilonIsNeverShown_data() {
    QTest::addColumn<int>("accountant");
    QTest::addColumn<int>("index");
    QTest::newRow("rdp, the last point") << int(privacy::AccountantKind::Rdp) << 4;
    QTest::newRow("rdp, a middle point") << int(privacy::AccountantKind::Rdp) << 2;
    QTest::newRow("pld, the last point") << int(privacy::AccountantKind::Pld) << 4;
    // PLD checks its last point; an earlier forged one shows as ε decreasing after it.
    QTest::newRow("pld, a middle point") << int(privacy::AccountantKind::Pld) << 2;
  }
  void aForgedEpsilonIsNeverShown() {
    QFETCH(int, accountant);
    QFETCH(int, index);
    const RunRecord run = trainedRun(privacy::AccountantKind(accountant));
    const double truth = run.evals[static_cast<std::size_t>(index)].epsilon;
    const double forged = index == 4 ? 0.01 : truth * 50.0;
    const std::vector<RunRecord> opened = reopened(run, forge(index, forged));
    const RunRecord& r = opened.at(0);
    QVERIFY2(r.message.startsWith(QStringLiteral("ε in the file does not match its settings")),
             qPrintable(r.message));
    for (const EvalPoint& point : r.evals) QVERIFY(point.epsilon != forged);
    for (std::size_t i = 0; i < run.evals.size(); ++i)
      QCOMPARE(r.evals[i].epsilon, run.evals[i].epsilon);  // the settings' ε, as trained
    if (index == 4) {                                      // both values are stated
      QVERIFY2(r.message.contains(QStringLiteral("0.01")), qPrintable(r.message));
      QVERIFY2(r.message.contains(formatEpsilonForTest(truth)), qPrintable(r.message));
    }
  }

  void aRunWhoseDataSetIsMissingSaysItWasNotChecked() {
    RunRecord run = trainedRun(privacy::AccountantKind::Rdp);
    run.config.dataset.name = "/nonexistent/data";
    const PlanInputOf plan = [](const train::ExperimentConfig& c) { return train::planInput(c); };
    QVERIFY(verifyStatedEpsilon(run, plan));
    QVERIFY2(run.privacyLabel.contains(QStringLiteral("not checked")),
             qPrintable(run.privacyLabel));
  }

  // Not checkable against its settings, yet going down: no accountant's ε does, so none of
  // the file's ε is shown.
  void anUncheckedEpsilonThatGoesDownIsNotShown() {
    RunRecord run = trainedRun(privacy::AccountantKind::Rdp);
    run.config.dataset.name = "/nonexistent/data";
    run.evals[3].epsilon = run.evals[2].epsilon / 2;
    const PlanInputOf plan = [](const train::ExperimentConfig& c) { return train::planInput(c); };
    QVERIFY(!verifyStatedEpsilon(run, plan));
    QVERIFY(hasEpsilonMismatch(run));
    for (const EvalPoint& point : run.evals) QVERIFY(std::isnan(point.epsilon));
  }

 private:
  static QString formatEpsilonForTest(double epsilon) { return QString::number(epsilon, 'g', 3); }
};

QTEST_APPLESS_MAIN(TestRunVerification)
#include "test_run_verification.moc"
