// Issue 28, items 3 and 4 in the window: the Per class tab draws one line per class for the
// selected run and says the view is empty for a run recorded without per-class accuracy; the
// Sweep dialog's Private tuning choice trains K runs drawn from the grid, the summary under the
// Sweep map gives their tuned ε (the privacy statement's), and PLD is refused in the dialog.
#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QLineSeries>
#include <QPushButton>
#include <QTest>
#include <cmath>
#include <set>

#include "base/io/number_format.h"
#include "base/session/run_model.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/private_tuning.h"
#include "core/train/run_planning.h"
#include "core/train/teaching_defaults.h"
#include "tests/ui/widgets/test_settings.h"
#include "ui/widgets/class_accuracy_view.h"
#include "ui/widgets/cluster_options.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/sweep_dialog.h"
#include "ui/widgets/tuning_summary_view.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

RunRecord finishedRun(const QString& name, std::vector<std::vector<double>> perEval) {
  RunRecord run;
  run.name = name;
  run.status = RunStatus::Done;
  for (std::size_t e = 0; e < perEval.size(); ++e) {
    EvalPoint point;
    point.epoch = static_cast<double>(e + 1);
    point.testAccuracy = 0.8;
    point.epsilon = 1.0 + static_cast<double>(e);
    point.classAccuracy = perEval[e];
    run.evals.push_back(point);
  }
  return run;
}

train::ExperimentConfig quickXor() {
  train::ExperimentConfig c = train::defaultConfigFor("xor");
  c.training.paceSeconds = 0.0;
  c.training.epochs = 2;
  c.training.seed = 3;
  return c;
}

}  // namespace

class TestWhoPaysViews : public QObject {
  Q_OBJECT
  test::TestSettings m_settings;  // the dialog remembers what was typed
 private Q_SLOTS:
  void perClassChartHasOneLinePerClass() {
    MainWindow w(MainWindow::startupOptions(false, true));
    RunModel* runs = w.runModel();
    const int withClasses =
        runs->addRun(finishedRun("three classes", {{0.5, 0.2, 0.9}, {0.7, 0.1, 0.95}}));
    const int old = runs->addRun(finishedRun("from an old file", {{}, {}}));
    QVERIFY(w.showTab(QStringLiteral("Per class")));
    ClassAccuracyView* view = w.classAccuracyView();
    w.selectRunInTable(withClasses);
    QCOMPARE(view->run(), withClasses);
    const QList<QAbstractSeries*> series = view->chartView()->chart()->series();
    QCOMPARE(series.size(), 3);
    for (int k = 0; k < 3; ++k) {
      auto* line = qobject_cast<QLineSeries*>(series[k]);
      QVERIFY(line);
      QCOMPARE(line->name(), QStringLiteral("class %1").arg(k));
      QCOMPARE(line->count(), 2);
    }
    QCOMPARE(qobject_cast<QLineSeries*>(series[1])->at(1), QPointF(2.0, 0.1));
    QVERIFY(view->emptyText().isEmpty());
    w.selectRunInTable(old);
    QCOMPARE(view->run(), old);
    QVERIFY(view->chartView()->chart()->series().isEmpty());
    QVERIFY(view->chartView()->isHidden());
    QVERIFY2(view->emptyText().contains(QStringLiteral("per-class view is empty")),
             qPrintable(view->emptyText()));
  }

  void privateTuningTrainsKRunsAndReportsTheTunedEpsilon() {
    MainWindow w(MainWindow::startupOptions(false, true));
    const train::ExperimentConfig base = quickXor();
    SweepDialog dialog(base);
    dialog.clusterOptions()->setRunOnCluster(false);
    dialog.setAxis(0, QStringLiteral("noise_multiplier"), QStringLiteral("1, 2, 4"));
    dialog.setPrivateTuning(QStringLiteral("geometric"), 3.0);
    const auto law = dialog.privateTuning();
    QVERIFY(law && law->mean == 3.0 && law->shape == 1.0);
    const auto grid = dialog.grid();
    QCOMPARE(grid.size(), std::size_t(3));
    const long long k = train::drawPrivateTuning(grid, *law, base.training.seed).runs;
    QVERIFY(k >= 1);
    const QList<int> ids = w.startSweepFrom(dialog);
    QCOMPARE(static_cast<long long>(ids.size()), k);
    QTRY_COMPARE_WITH_TIMEOUT(w.sweepRemaining(), 0, 60000);
    std::set<double> gridSigmas{1.0, 2.0, 4.0};
    for (int id : ids) {
      const RunRecord* run = w.runModel()->run(id);
      QCOMPARE(run->status, RunStatus::Done);
      QVERIFY(gridSigmas.count(run->config.privacy.noise.initial) == 1);
      QVERIFY(run->config.training.seed != base.training.seed);  // each its own seed
    }
    // The tuned ε: the grid's most expensive point (σ 1) with the law, asked directly.
    train::ExperimentConfig bound = base;
    bound.privacy.noise.initial = 1.0;
    privacy::PrivacyRunDescription d = train::privacyDescription(bound, train::planInput(bound));
    d.tuning = *law;
    const double tuned = privacy::privacyStatement(d).epsilon;
    TuningSummaryView* summary = w.tuningSummaryView();
    const QString expected =
        QStringLiteral("Releasing the best of these runs costs ε = %1").arg(formatEpsilon(tuned));
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().startsWith(expected), qPrintable(summary->text()),
                              20000);
    QVERIFY2(summary->text().contains(QStringLiteral("all %1 composed").arg(k)),
             qPrintable(summary->text()));
  }

  void pldIsRefusedInTheDialog() {
    train::ExperimentConfig base = quickXor();
    base.privacy.accountant = privacy::AccountantKind::Pld;
    SweepDialog dialog(base);
    dialog.clusterOptions()->setRunOnCluster(false);
    dialog.setAxis(0, QStringLiteral("noise_multiplier"), QStringLiteral("1, 2"));
    dialog.setPrivateTuning(QString(), 3.0);
    QVERIFY(!dialog.points().empty());  // without tuning PLD is fine
    dialog.setPrivateTuning(QStringLiteral("poisson"), 3.0);
    QString error;
    QVERIFY(dialog.points(&error).empty());
    QVERIFY2(error.contains(QStringLiteral("PLD accountant")), qPrintable(error));
    QVERIFY(!dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
  }
};

QTEST_MAIN(TestWhoPaysViews)
#include "test_who_pays_views.moc"
