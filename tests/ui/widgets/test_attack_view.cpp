// The Attack tab on real runs (uci-digits cut to 300 training rows, a few epochs, seconds): every
// finished run is attacked in the background and the tab shows exactly the numbers core/audit
// computes for that run's model; the chart has one ROC series per shown run, the DP run's
// accountant bound and the chance line; the attack survives a session round trip; a canary
// audit stores ε̂ with m, r, v and confidence, and a cancelled one leaves the run unchanged.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QXYSeries>

#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "core/audit/membership_inference.h"
#include "core/data/registry.h"
#include "ui/widgets/attack_controller.h"
#include "ui/widgets/attack_view.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

train::ExperimentConfig digitsRun(bool dp, int epochs) {
  train::ExperimentConfig c;
  c.dataset.name = "uci-digits";
  c.dataset.options.maxTrain = 300;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {64};
  c.privacy.privatizer.kind = dp ? privacy::PrivatizerKind::Clip : privacy::PrivatizerKind::None;
  c.privacy.privatizer.clipNorm = 1.0;
  c.privacy.noise.initial = 1.0;
  c.optimizer.learningRate = dp ? 0.2 : 0.05;
  c.training.lotSize = 30;
  c.training.epochs = epochs;
  c.training.seed = 7;
  return c;
}

// The numbers the tab must show, computed here straight from core/audit on the same model.
audit::MembershipAttack expectedAttack(const TrainingController& training, int runId,
                                       const train::ExperimentConfig& config) {
  const data::Dataset dataset = data::loadDataset(config.dataset.name, config.dataset.options);
  return audit::attackModel(*training.model(runId), dataset.train, dataset.test,
                            config.training.seed);
}

}  // namespace

class TestAttackView : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    m_model = std::make_unique<RunModel>();
    m_training = std::make_unique<TrainingController>(m_model.get(), nullptr, 2);
    m_attacks = std::make_unique<AttackController>(m_model.get(), m_training.get());
    m_view = std::make_unique<AttackView>(m_model.get(), m_attacks.get());
    m_plain = m_training->start(digitsRun(false, 30), QStringLiteral("memorising"));
    m_private = m_training->start(digitsRun(true, 3), QStringLiteral("DP σ 1"));
    QTRY_VERIFY_WITH_TIMEOUT(m_model->run(m_plain)->attack && m_model->run(m_private)->attack,
                             120000);
  }

  void cleanupTestCase() {
    m_view.reset();
    m_attacks.reset();
    m_training.reset();
    m_model.reset();
  }

  void showsTheNumbersCoreComputes() {
    for (const int id : {m_plain, m_private}) {
      const RunRecord& run = *m_model->run(id);
      const audit::MembershipAttack expected = expectedAttack(*m_training, id, run.config);
      QCOMPARE(run.attack->auc, expected.auc);
      QCOMPARE(run.attack->tprAt1Percent, expected.tprAtFpr1Percent);
      QCOMPARE(run.attack->tprAt01Percent, expected.tprAtFpr01Percent);
      QCOMPARE(run.attack->advantage, expected.advantage);
      QCOMPARE(run.attack->members, expected.members);
      m_view->setRuns({id});
      const QString text = m_view->summaryText();
      // A column for the run, a row a measure: each measure's name and the run's value.
      const QStringList cells = text.split(QRegularExpression(QStringLiteral("\\s*\\n\\s*")));
      const auto row = [&cells](const QString& measure) {
        const qsizetype at = cells.indexOf(measure);
        return at >= 0 && at + 1 < cells.size() ? cells[at + 1] : QString();
      };
      QCOMPARE(row(QStringLiteral("AUC")), QString::number(expected.auc, 'f', 3));
      QCOMPARE(row(QStringLiteral("TPR at FPR 1%")),
               QString::number(100 * expected.tprAtFpr1Percent, 'f', 2) + QLatin1Char('%'));
      QCOMPARE(row(QStringLiteral("TPR at FPR 0.1%")),
               QString::number(100 * expected.tprAtFpr01Percent, 'f', 2) + QLatin1Char('%'));
      QCOMPARE(row(QStringLiteral("advantage")), QString::number(expected.advantage, 'f', 3));
      QVERIFY2(text.contains(QStringLiteral("not audited")), qPrintable(text));
    }
    // The memorising run leaks more than the private one.
    QVERIFY(m_model->run(m_plain)->attack->auc > m_model->run(m_private)->attack->auc);
    // The private run's ε carries its δ, accountant and sampling; the other has no bound.
    m_view->setRuns({m_private});
    QVERIFY2(m_view->summaryText().contains(QStringLiteral("accountant ε ≤")),
             qPrintable(m_view->summaryText()));
    QVERIFY(m_view->summaryText().contains(QStringLiteral("Poisson sampling")));
    m_view->setRuns({m_plain});
    QVERIFY(m_view->summaryText().contains(QStringLiteral("no bound")));
  }

  void chartHasOneRocPerRunAndTheBound() {
    m_view->setRuns({m_plain, m_private});
    const QList<QAbstractSeries*> series = m_view->chartView()->chart()->series();
    QStringList names;
    for (QAbstractSeries* s : series) names << s->name();
    // The DP run's bound, one ROC per run, chance; the non-private run has no bound to draw.
    QCOMPARE(series.size(), 4);
    QCOMPARE(names.filter(QStringLiteral("bound: DP σ 1")).size(), 1);
    QCOMPARE(names.filter(QStringLiteral("memorising")).size(), 1);
    QVERIFY(names.contains(QStringLiteral("DP σ 1")));
    QVERIFY(names.contains(QStringLiteral("memorising")));
    QVERIFY(names.contains(QStringLiteral("chance")));
    // Each run's curves are drawn in the run's own colour.
    for (QAbstractSeries* s : series) {
      auto* line = qobject_cast<QXYSeries*>(s);
      QVERIFY(line && line->count() > 1);
      if (s->name().startsWith(QStringLiteral("memorising")))
        QCOMPARE(line->pen().color(), QColor(m_model->run(m_plain)->color));
    }
    // The bound lies on or above the private run's ROC at the bound's grid points (it is the
    // envelope no attacker crosses) and the axes are log-log from 1e-4.
    QVERIFY(m_view->figure().x.log && m_view->figure().y.log);
    m_view->setLogAxes(false);
    QVERIFY(!m_view->figure().x.log);
    QCOMPARE(m_view->chartView()->chart()->series().size(), 4);
    // One run selected: only its curves.
    m_view->setRuns({m_plain});
    QCOMPARE(m_view->chartView()->chart()->series().size(), 2);
  }

  void attackSurvivesASessionRoundTrip() {
    const RunRecord& run = *m_model->run(m_private);
    const RunRecord back = runFromJson(runToJson(run), QStringLiteral("runs[0]"));
    QVERIFY(back.attack.has_value());
    QCOMPARE(back.attack->auc, run.attack->auc);
    QCOMPARE(back.attack->roc.size(), run.attack->roc.size());
    QCOMPARE(back.attack->bound.size(), run.attack->bound.size());
    QVERIFY(!back.attack->bound.empty());
    QVERIFY(m_model->run(m_plain)->attack->bound.empty());
  }

  void canaryAuditStoresEpsilonLowerBound() {
    QSignalSpy done(m_attacks.get(), &AttackController::auditFinished);
    audit::AuditOptions options;
    options.canaries = 100;
    QVERIFY(m_attacks->startCanaryAudit(m_plain, options));
    QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 120000);
    const CanaryAuditRecord& audit = *m_model->run(m_plain)->canaryAudit;
    QCOMPARE(audit.canaries, 100LL);
    QCOMPARE(audit.canaryKind, QStringLiteral("mislabel"));
    QVERIFY(audit.guesses > 0 && audit.correct <= audit.guesses);
    QCOMPARE(audit.confidence, 0.95);
    QVERIFY(audit.epsilonLowerBound >= 0.0);
    m_view->setRuns({m_plain});
    QVERIFY2(
        m_view->summaryText().contains(QStringLiteral("measured ε̂ ≥ %1")
                                           .arg(QString::number(audit.epsilonLowerBound, 'f', 2))),
        qPrintable(m_view->summaryText()));
    const RunRecord back =
        runFromJson(runToJson(*m_model->run(m_plain)), QStringLiteral("runs[0]"));
    QVERIFY(back.canaryAudit.has_value());
    QCOMPARE(back.canaryAudit->correct, audit.correct);
    QCOMPARE(back.canaryAudit->epsilonLowerBound, audit.epsilonLowerBound);
  }

  // A run that trained with its audit's canaries (`epsilonlab-cli audit --session`) is not
  // audited again: canaries would be added to its settings' data, not to what it trained on.
  void aRunTrainedWithCanariesIsNotAuditedAgain() {
    RunRecord audited = *m_model->run(m_plain);
    audited.id = 0;
    CanaryAuditRecord record;
    record.canaries = 100;
    record.canaryKind = QStringLiteral("mislabel");
    record.runTrainedWithCanaries = true;
    audited.canaryAudit = record;
    const int id = m_model->addRun(audited);
    audit::AuditOptions options;
    options.canaries = 100;
    QString why;
    QVERIFY(!m_attacks->startCanaryAudit(id, options, &why));
    QVERIFY2(why.contains(QStringLiteral("canaries")), qPrintable(why));
    QCOMPARE(m_attacks->auditedRun(), 0);
    m_model->takeRun(id);
  }

  void cancelledCanaryAuditLeavesTheRunUnchanged() {
    const QJsonObject before = runToJson(*m_model->run(m_private));
    QSignalSpy stopped(m_attacks.get(), &AttackController::auditStopped);
    audit::AuditOptions options;
    options.canaries = 100;
    // Started and cancelled from the tab's own buttons.
    m_view->setRuns({m_private});
    m_view->canaryCount()->setValue(100);
    QVERIFY(m_view->auditButton()->isEnabled());
    m_view->auditButton()->click();
    QCOMPARE(m_attacks->auditedRun(), m_private);
    QVERIFY(!m_view->auditButton()->isEnabled());
    QVERIFY(m_view->cancelAuditButton()->isEnabled());
    QVERIFY(!m_attacks->startCanaryAudit(m_plain, options));  // one audit at a time
    m_view->cancelAuditButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(stopped.count() == 1, 60000);
    QCOMPARE(stopped.at(0).at(0).toInt(), m_private);
    QCOMPARE(stopped.at(0).at(1).toString(), QStringLiteral("cancelled"));
    QCOMPARE(m_attacks->auditedRun(), 0);
    QVERIFY(!m_model->run(m_private)->canaryAudit.has_value());
    QCOMPARE(runToJson(*m_model->run(m_private)), before);
  }

  void canaryCountFollowsTheTrainingSet() {
    // The runs train on uci-digits cut to 300 examples: mislabelled canaries are taken from them.
    AttackView view(m_model.get(), m_attacks.get());
    view.setRuns({m_private});
    view.setTrainingSetSize(
        [](const RunRecord& run) -> long long { return run.config.dataset.options.maxTrain; });
    QCOMPARE(view.canaryCount()->value(), 150);  // half the set stays real data
    QVERIFY(view.canaryProblem().isEmpty());
    QVERIFY(view.auditButton()->isEnabled());
    auto* note = view.findChild<QLabel*>(QStringLiteral("canaryNote"));
    QVERIFY(note && note->isHidden());
    // A count the set cannot give is marked at its control, said plainly, and not audited.
    view.canaryCount()->setValue(300);
    QVERIFY2(view.canaryProblem().contains(QStringLiteral("at most 299")),
             qPrintable(view.canaryProblem()));
    QVERIFY(!view.auditButton()->isEnabled());
    QVERIFY(!note->isHidden());
    QCOMPARE(note->text(), view.canaryProblem());
    QVERIFY(!view.canaryCount()->styleSheet().isEmpty());
    // Noise canaries are added to the set, so any count is possible.
    view.canaryKind()->setCurrentIndex(view.canaryKind()->findData(QStringLiteral("ood")));
    QVERIFY(view.canaryProblem().isEmpty());
    QVERIFY(view.auditButton()->isEnabled());
    QVERIFY(view.canaryCount()->styleSheet().isEmpty());
    view.canaryKind()->setCurrentIndex(view.canaryKind()->findData(QStringLiteral("mislabel")));
    QVERIFY(!view.auditButton()->isEnabled());
    // The user's count stays when another run is shown; the default no longer follows.
    view.canaryCount()->setValue(299);
    QVERIFY(view.auditButton()->isEnabled());
    view.setRuns({m_plain});
    QCOMPARE(view.canaryCount()->value(), 299);
  }

  void runsWithoutAttackSaySo() {
    // A run from an older session: no attack fields, no model in memory.
    RunRecord old = *m_model->run(m_private);
    old.attack.reset();
    old.id = 0;
    old.name = QStringLiteral("from an old session");
    const int id = m_model->addRun(old);
    m_view->setRuns({id});
    QVERIFY2(m_view->summaryText().contains(QStringLiteral("No attack result")),
             qPrintable(m_view->summaryText()));
    QVERIFY(m_view->summaryText().contains(QStringLiteral("not in memory")));
    QVERIFY(!m_view->computeButton()->isEnabled());
    QCOMPARE(m_view->chartView()->chart()->series().size(), 1);  // chance only
    // A run of this session that lost its result can be attacked again from the tab.
    QString why;
    QVERIFY(m_attacks->canAttack(m_plain, &why));
    QVERIFY(!m_attacks->canAttack(id, &why));
    QVERIFY(why.contains(QStringLiteral("re-run")));
  }

 private:
  std::unique_ptr<RunModel> m_model;
  std::unique_ptr<TrainingController> m_training;
  std::unique_ptr<AttackController> m_attacks;
  std::unique_ptr<AttackView> m_view;
  int m_plain = 0;
  int m_private = 0;
};

QTEST_MAIN(TestAttackView)
#include "test_attack_view.moc"
