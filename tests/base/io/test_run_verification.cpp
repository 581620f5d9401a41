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

// The realistic forgery: the stored ε of evaluations [from, end) multiplied by `factor`, the
// history kept non-decreasing (a decreasing one is refused as the file is read).
std::function<void(QJsonObject&)> forge(int from, double factor) {
  return [=](QJsonObject& run) {
    QJsonArray evals = run.value(QStringLiteral("evals")).toArray();
    for (int i = from; i < evals.size(); ++i) {
      QJsonObject point = evals.at(i).toObject();
      point.insert(QStringLiteral("epsilon"),
                   point.value(QStringLiteral("epsilon")).toDouble() * factor);
      evals.replace(i, point);
    }
    run.insert(QStringLiteral("evals"), evals);
  };
}

// A middle point's ε edited to lie strictly between its neighbours' (so still non-decreasing).
std::function<void(QJsonObject&)> forgeBetween(int index) {
  return [=](QJsonObject& run) {
    QJsonArray evals = run.value(QStringLiteral("evals")).toArray();
    const double below = evals.at(index - 1).toObject().value(QStringLiteral("epsilon")).toDouble();
    const double truth = evals.at(index).toObject().value(QStringLiteral("epsilon")).toDouble();
    QJsonObject point = evals.at(index).toObject();
    point.insert(QStringLiteral("epsilon"), (below + truth) / 2);
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
    QTest::addColumn<int>("from");
    QTest::addColumn<double>("factor");
    QTest::newRow("rdp, every point scaled down") << int(privacy::AccountantKind::Rdp) << 0 << 0.01;
    QTest::newRow("rdp, every point scaled up") << int(privacy::AccountantKind::Rdp) << 0 << 50.0;
    QTest::newRow("rdp, the last point raised") << int(privacy::AccountantKind::Rdp) << 4 << 50.0;
    QTest::newRow("pld, every point scaled down") << int(privacy::AccountantKind::Pld) << 0 << 0.01;
    QTest::newRow("pld, the last point raised") << int(privacy::AccountantKind::Pld) << 4 << 50.0;
  }
  void aForgedEpsilonIsNeverShown() {
    QFETCH(int, accountant);
    QFETCH(int, from);
    QFETCH(double, factor);
    const RunRecord run = trainedRun(privacy::AccountantKind(accountant));
    const double truth = run.evals.back().epsilon;
    const std::vector<RunRecord> opened = reopened(run, forge(from, factor));
    const RunRecord& r = opened.at(0);
    QVERIFY2(r.message.startsWith(QStringLiteral("ε in the file does not match its settings")),
             qPrintable(r.message));
    for (std::size_t i = 0; i < run.evals.size(); ++i) {
      const bool forged = int(i) >= from && run.evals[i].epsilon > 0;  // (step 0: ε = 0)
      if (forged) QVERIFY(r.evals[i].epsilon != run.evals[i].epsilon * factor);
      QCOMPARE(r.evals[i].epsilon, run.evals[i].epsilon);  // the settings' ε, as trained
    }
    if (accountant == int(privacy::AccountantKind::Pld)) {  // PLD states its last point's
      QVERIFY2(r.message.contains(formatEpsilonForTest(truth * factor)), qPrintable(r.message));
      QVERIFY2(r.message.contains(formatEpsilonForTest(truth)), qPrintable(r.message));
    }
  }

  // RDP checks every point: one edited between its neighbours is found too.
  void aForgedMiddlePointIsFoundWithRdp() {
    const RunRecord run = trainedRun(privacy::AccountantKind::Rdp);
    const std::vector<RunRecord> opened = reopened(run, forgeBetween(2));
    const RunRecord& r = opened.at(0);
    QVERIFY2(hasEpsilonMismatch(r), qPrintable(r.message));
    QCOMPARE(r.evals[2].epsilon, run.evals[2].epsilon);
  }

  // No accountant's ε goes down: such a history is refused, naming the point and the run.
  void aDecreasingEpsilonIsRefused() {
    const RunRecord run = trainedRun(privacy::AccountantKind::Rdp);
    QVERIFY(run.evals[3].epsilon > run.evals[2].epsilon / 2);
    QString message;
    try {
      reopened(run, [&](QJsonObject& json) {
        QJsonArray evals = json.value(QStringLiteral("evals")).toArray();
        QJsonObject point = evals.at(3).toObject();
        point.insert(QStringLiteral("epsilon"), run.evals[2].epsilon / 2);
        evals.replace(3, point);
        json.insert(QStringLiteral("evals"), evals);
      });
    } catch (const std::exception& e) {
      message = QString::fromUtf8(e.what());
    }
    QVERIFY2(message.contains(QStringLiteral("evals[3].epsilon")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("never decreases")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("run 'trained'")), qPrintable(message));
  }

  void aRunWhoseDataSetIsMissingSaysItWasNotChecked() {
    RunRecord run = trainedRun(privacy::AccountantKind::Rdp);
    run.config.dataset.name = "/nonexistent/data";
    const PlanInputOf plan = [](const train::ExperimentConfig& c) { return train::planInput(c); };
    QVERIFY(verifyStatedEpsilon(run, plan));
    QVERIFY2(run.privacyLabel.contains(QStringLiteral("not checked")),
             qPrintable(run.privacyLabel));
  }

 private:
  static QString formatEpsilonForTest(double epsilon) { return QString::number(epsilon, 'g', 3); }
};

QTEST_APPLESS_MAIN(TestRunVerification)
#include "test_run_verification.moc"
