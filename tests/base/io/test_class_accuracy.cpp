// Who pays for privacy (issue 28, item 4): per-class test accuracy kept with every evaluation
// through sessions and run files (older files open with none), its worst and best class by
// hand-checked cases, the Runs table's column, and a clear error for a bad value.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "base/io/class_accuracy.h"
#include "base/io/eval_point_json.h"
#include "base/io/run_file.h"
#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

RunRecord runWithClasses(std::vector<double> classes) {
  RunRecord run;
  run.id = 1;
  run.name = QStringLiteral("per class");
  run.status = RunStatus::Done;
  EvalPoint p;
  p.step = 10;
  p.testAccuracy = 0.7;
  p.epsilon = 1.5;
  p.classAccuracy = std::move(classes);
  run.evals.push_back(p);
  return run;
}

}  // namespace

class TestClassAccuracy : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void worstAndBestClass() {
    const auto e = classExtremes({0.9, kNaN, 0.5, 0.95, 0.5});
    QVERIFY(e.has_value());
    QCOMPARE(e->worst, 2);  // the first of the two at 50%; class 1 has no test example
    QCOMPARE(e->worstAccuracy, 0.5);
    QCOMPARE(e->best, 3);
    QCOMPARE(e->bestAccuracy, 0.95);
    QVERIFY(!classExtremes({}).has_value());
    QVERIFY(!classExtremes({kNaN, kNaN}).has_value());
    QCOMPARE(describeClassExtremes(runWithClasses({0.9, kNaN, 0.5, 0.95})),
             QStringLiteral("worst 2: 50.0% · best 3: 95.0%"));
  }

  void keptInSessionsAndShownInTheRunsTable() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    saveSession(path, {runWithClasses({0.9, kNaN, 0.5})});
    const auto runs = loadSession(path);
    QCOMPARE(runs.size(), std::size_t(1));
    const auto& classes = runs[0].evals.back().classAccuracy;
    QCOMPARE(classes.size(), std::size_t(3));
    QCOMPARE(classes[0], 0.9);
    QVERIFY(std::isnan(classes[1]));
    QCOMPARE(classes[2], 0.5);
    RunModel model;
    model.addRun(runs[0]);
    QCOMPARE(model.index(0, RunModel::ClassesColumn).data().toString(),
             QStringLiteral("worst 2: 50.0% · best 0: 90.0%"));
    QCOMPARE(model.index(0, RunModel::ClassesColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Test accuracy per class at the last evaluation:\nclass 0: 90.0%\n"
                            "class 1: no test example\nclass 2: 50.0%"));
  }

  void olderFilesOpenWithAnEmptyView() {
    // A run file written before per-class accuracy was kept.
    const RunRecord old =
        readRunFile(QStringLiteral(EPSILON_SOURCE_DIR "/tests/base/io/data/cli-train-run.json"));
    QVERIFY(!old.evals.empty());
    QVERIFY(old.evals.back().classAccuracy.empty());
    QVERIFY(describeClassExtremes(old).isEmpty());
    RunModel model;
    model.addRun(old);
    QVERIFY(model.index(0, RunModel::ClassesColumn).data().toString().isEmpty());
    QVERIFY(model.index(0, RunModel::ClassesColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("No per-class accuracy")));
  }

  void aBadValueNamesItsPlace() {
    QJsonObject point = evalPointToJson(runWithClasses({0.9, 0.5}).evals.back());
    QCOMPARE(point.value(QStringLiteral("class_accuracy")).toArray().size(), 2);
    point.insert(QStringLiteral("class_accuracy"), QJsonArray{0.9, 1.5});
    JsonReader reader(point, QStringLiteral("evals[0]"));
    try {
      evalPointFromJson(reader);
      QFAIL("an accuracy of 1.5 was accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("class_accuracy[1]")), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestClassAccuracy)
#include "test_class_accuracy.moc"
