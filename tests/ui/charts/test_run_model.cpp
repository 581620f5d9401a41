// The runs table: ids, colours, statuses, the parameters that differ, undoable deletes.
#include <QColor>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "base/io/config_diff.h"
#include "base/io/experiment_json.h"
#include "base/io/run_palette.h"
#include "base/session/batch_runs.h"
#include "base/session/run_model.h"
#include "base/session/session_history.h"
#include "ui/widgets/runs_view.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {
RunRecord runWithSigma(double sigma) {
  RunRecord r;
  r.config.privacy.noise.initial = sigma;
  r.config.privacy.privatizer.clipNorm = 1.0;
  r.config.dataset.name = "circle";
  return r;
}
}  // namespace

class TestRunModel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void addAssignsIdsColoursNames() {
    RunModel model;
    const int a = model.addRun(runWithSigma(1.0));
    const int b = model.addRun(runWithSigma(2.0));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(a != b);
    QVERIFY(model.run(a)->color != model.run(b)->color);
    QCOMPARE(model.run(a)->name, QStringLiteral("Run %1").arg(a));
  }
  void manyRunsAreAddedAtOnce() {
    // An opened session's runs: one insertion, one signal, each run as addRun would make it.
    RunModel model;
    QSignalSpy changed(&model, &RunModel::runsChanged);
    QSignalSpy inserted(&model, &RunModel::rowsInserted);
    std::vector<RunRecord> runs{runWithSigma(0.5), runWithSigma(1.5), runWithSigma(1.5)};
    runs[1].id = 7;
    model.addRuns(std::move(runs));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(model.runs()[1].id, 7);
    QVERIFY(model.runs()[2].id > 7);
    QVERIFY(model.runs()[0].color != model.runs()[1].color);
    QVERIFY(model.runs()[1].color != model.runs()[2].color);
    QCOMPARE(model.index(1, RunModel::ParametersColumn).data().toString(),
             QStringLiteral("noise_multiplier=1.5"));
  }
  void aProgressTickIsNotAChangeTheChartsDraw() {
    // The charts and the Attack tab redraw on runChanged: a progress tick (several a second
    // per training run) moves the progress bar and the time only.
    RunModel model;
    const int id = model.addRun(runWithSigma(1.0));
    QSignalSpy data(&model, &RunModel::dataChanged);
    QSignalSpy drawn(&model, &RunModel::runChanged);
    model.setProgress(id, 0.5, 3.0);
    // Two cells, each on its own: a view repaints one changed cell, but all of a range.
    QCOMPARE(data.size(), 2);
    for (const QList<QVariant>& signal : data) {
      const auto from = signal.at(0).toModelIndex(), to = signal.at(1).toModelIndex();
      QCOMPARE(from, to);
      QVERIFY(from.column() == RunModel::StatusColumn || from.column() == RunModel::TimeColumn);
    }
    QVERIFY(data.at(0).at(0).toModelIndex() != data.at(1).at(0).toModelIndex());
    QCOMPARE(drawn.size(), 0);
    QCOMPARE(model.run(id)->progress, 0.5);
    model.setStatus(id, RunStatus::Diverged);  // drawn dashed
    QCOMPARE(drawn.size(), 1);
    QCOMPARE(drawn.front().front().toInt(), id);
  }
  void aProgressTickLaysNoColumnsOut() {
    // The Runs table fits its columns to their values; a progress tick changes the bar and
    // the time only, several times a second per run, and the columns stay as they are.
    RunModel model;
    SessionHistory undo;
    RunsView view(&model, &undo);
    view.resize(900, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int id = model.addRun(runWithSigma(1.0));
    model.setStatus(id, RunStatus::Running);
    QTRY_VERIFY(view.columnFits() > 0);
    QTest::qWait(250);  // the fit asked for by the new run is done
    const int fits = view.columnFits();
    for (int i = 1; i <= 5; ++i) {
      model.setProgress(id, 0.1 * i, 1.0 + i);
      QTest::qWait(150);  // longer than the table's refit interval
    }
    QCOMPARE(view.columnFits(), fits);
    model.setStatus(id, RunStatus::Diverged, QStringLiteral("loss became NaN at step 12"));
    QTRY_VERIFY(view.columnFits() > fits);  // a new status word may need another width
  }
  void aBatchsPointsEnterQueuedAndTakeTheirResults() {
    // The CLI's sweep (batch_runs.h): points enter queued under their labels; a result
    // replaces status and history and keeps the run's name and colour.
    RunModel model;
    train::SweepPoint a, b;
    a.label = "noise_multiplier=0.5";
    b.label = "noise_multiplier=2";
    b.config.privacy.noise.initial = 2.0;
    const std::vector<int> ids = addPlannedRuns(model, {a, b});
    QCOMPARE(ids.size(), std::size_t{2});
    QCOMPARE(model.run(ids[1])->name, QStringLiteral("noise_multiplier=2"));
    QCOMPARE(model.run(ids[1])->status, RunStatus::Queued);
    const QString colour = model.run(ids[1])->color;
    train::RunResult result;
    result.status = train::RunStatus::Done;
    result.config = b.config;
    train::ProgressEvent e;
    e.kind = train::EventKind::Evaluation;
    e.step = 10;
    e.testAccuracy = 0.75;
    e.privacy.epsilon = 1.25;
    result.history.push_back(e);
    landResult(model, ids[1], result);
    const RunRecord& run = *model.run(ids[1]);
    QCOMPARE(run.status, RunStatus::Done);
    QCOMPARE(run.name, QStringLiteral("noise_multiplier=2"));
    QCOMPARE(run.color, colour);
    QCOMPARE(run.evals.size(), std::size_t{1});
    QCOMPARE(run.evals.front().epsilon, 1.25);
    QCOMPARE(model.run(ids[0])->status, RunStatus::Queued);  // the other is untouched
  }
  void newRunsTakeAColourNotInUse() {
    // Runs of a reopened session keep their colours; new runs never take one of them.
    RunModel model;
    const QStringList& palette = runPalette();
    for (const QString& colour : {palette[1], palette[0]}) {
      RunRecord reopened = runWithSigma(1.0);
      reopened.color = colour;
      model.addRun(reopened);
    }
    const int fresh = model.addRun(runWithSigma(2.0));
    QCOMPARE(model.run(fresh)->color, palette[2]);
    // A deleted run's colour is free again.
    model.takeRun(model.runs().front().id);
    QCOMPARE(model.run(model.addRun(runWithSigma(3.0)))->color, palette[1]);
  }
  void differingParametersOnlyShowWhatDiffers() {
    RunModel model;
    model.addRun(runWithSigma(0.5));
    model.addRun(runWithSigma(1.5));
    const QString text = model.index(1, RunModel::ParametersColumn).data().toString();
    QCOMPARE(text, QStringLiteral("noise_multiplier=1.5"));
    QCOMPARE(differingKeys({experimentToJson(runWithSigma(1).config),
                            experimentToJson(runWithSigma(1).config)}),
             QStringList{});
  }
  void statusProgressAndHistory() {
    RunModel model;
    const int id = model.addRun(runWithSigma(1.0));
    QSignalSpy history(&model, &RunModel::historyChanged);
    EvalPoint p;
    p.step = 10;
    p.epoch = 1;
    p.testAccuracy = 0.9;
    p.epsilon = 0.75;
    model.appendEval(id, p);
    QCOMPARE(history.count(), 1);
    QCOMPARE(model.index(0, RunModel::AccuracyColumn).data().toString(), QStringLiteral("90.0%"));
    QCOMPARE(model.index(0, RunModel::EpsilonColumn).data().toString(), QStringLiteral("0.75"));
    model.setStatus(id, RunStatus::Diverged, QStringLiteral("loss became NaN at step 12"));
    QCOMPARE(model.index(0, RunModel::StatusColumn).data().toString(), QStringLiteral("diverged"));
    QCOMPARE(model.index(0, RunModel::StatusColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("loss became NaN at step 12"));
    // The model holds the colour as text (Qt Core only); the Runs table draws it as a swatch.
    QVERIFY(QColor(model.index(0, RunModel::NameColumn).data(RunModel::ColorRole).toString())
                .isValid());
  }
  void deleteIsUndoable() {
    RunModel model;
    SessionHistory undo;
    RunsView view(&model, &undo);
    const int a = model.addRun(runWithSigma(1.0));
    QCOMPARE(view.table()
                 ->model()
                 ->index(0, RunModel::NameColumn)
                 .data(Qt::DecorationRole)
                 .value<QColor>(),
             QColor(model.run(a)->color));
    const int b = model.addRun(runWithSigma(2.0));
    const int c = model.addRun(runWithSigma(3.0));
    view.table()->selectRow(1);
    QCOMPARE(view.selectedRunIds(), QList<int>{b});
    view.deleteSelected();
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.run(b) == nullptr);
    QVERIFY(!undo.isClean());
    QCOMPARE(undo.undoText(), QStringLiteral("Delete run"));
    undo.undo();
    QVERIFY(undo.isClean());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.idAt(0), a);
    QCOMPARE(model.idAt(1), b);
    QCOMPARE(model.idAt(2), c);
    undo.redo();
    QCOMPARE(model.rowCount(), 2);
  }
  void renameAndHideThroughTheModel() {
    RunModel model;
    const int id = model.addRun(runWithSigma(1.0));
    QVERIFY(model.setData(model.index(0, RunModel::NameColumn), QStringLiteral("baseline"),
                          Qt::EditRole));
    QCOMPARE(model.run(id)->name, QStringLiteral("baseline"));
    QVERIFY(
        !model.setData(model.index(0, RunModel::NameColumn), QStringLiteral("  "), Qt::EditRole));
    QVERIFY(model.setData(model.index(0, RunModel::NameColumn), Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(!model.run(id)->visible);
  }
};

QTEST_MAIN(TestRunModel)
#include "test_run_model.moc"
