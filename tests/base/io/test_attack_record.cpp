// A run's attack results in a session: a run with them round-trips every number and point, a run
// without them (a session from before the Attack tab) still opens and writes no such keys, and
// the reader stays strict about their types, ranges and keys. The Attack chart as data draws one
// ROC per run, a bound only for runs that have one, and the chance line.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/attack_figure.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

using namespace epsilon::ui;

namespace {

RunRecord attackedRun() {
  RunRecord r;
  r.id = 3;
  r.name = QStringLiteral("DP σ 1");
  r.color = QStringLiteral("#d55e00");
  r.status = RunStatus::Done;
  r.privacyLabel = QStringLiteral("δ = 1e-5 · RDP · Poisson sampling · DP guarantee");
  EvalPoint p;
  p.step = 40;
  p.epsilon = 3.5;
  r.evals.push_back(p);
  AttackRecord a;
  a.auc = 0.5625;
  a.tprAt1Percent = 0.03125;
  a.tprAt01Percent = 0.0078125;
  a.advantage = 0.125;
  a.members = 400;
  a.nonMembers = 400;
  a.roc = {{0.0, 0.0}, {0.0025, 0.0078125}, {0.5, 0.625}, {1.0, 1.0}};
  a.bound = {{1e-4, 0.003}, {0.01, 0.2}, {1.0, 1.0}};
  r.attack = a;
  CanaryAuditRecord c;
  c.epsilonLowerBound = 0.75;
  c.canaries = 1000;
  c.canaryKind = QStringLiteral("ood");
  c.included = 497;
  c.guesses = 100;
  c.correct = 71;
  c.k = 50;
  c.canaryAuc = 0.625;
  c.epsilonUpperBound = 3.75;
  c.delta = 1e-5;
  c.privacyLabel = r.privacyLabel;
  c.testAccuracy = 0.875;
  c.seconds = 12.5;
  r.canaryAudit = c;
  return r;
}

// The run's JSON with `key` of its "attack" object replaced by `value` (or its canary audit's).
QJsonObject withAttackValue(const QString& object, const QString& key, const QJsonValue& value) {
  QJsonObject run = runToJson(attackedRun());
  QJsonObject inner = run.value(object).toObject();
  inner.insert(key, value);
  run.insert(object, inner);
  return run;
}

}  // namespace

class TestAttackRecord : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void roundTripsWithTheAttackFields() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    const RunRecord run = attackedRun();
    saveSession(path, {run});
    const RunRecord back = loadSession(path).at(0);
    QVERIFY(back.attack && back.canaryAudit);
    QCOMPARE(back.attack->auc, run.attack->auc);
    QCOMPARE(back.attack->tprAt1Percent, run.attack->tprAt1Percent);
    QCOMPARE(back.attack->tprAt01Percent, run.attack->tprAt01Percent);
    QCOMPARE(back.attack->advantage, run.attack->advantage);
    QCOMPARE(back.attack->members, run.attack->members);
    QCOMPARE(back.attack->nonMembers, run.attack->nonMembers);
    QCOMPARE(back.attack->roc, run.attack->roc);
    QCOMPARE(back.attack->bound, run.attack->bound);
    const CanaryAuditRecord& c = *back.canaryAudit;
    QCOMPARE(c.epsilonLowerBound, 0.75);
    QCOMPARE(c.canaries, 1000LL);
    QCOMPARE(c.canaryKind, QStringLiteral("ood"));
    QCOMPARE(c.included, 497LL);
    QCOMPARE(c.guesses, 100LL);
    QCOMPARE(c.correct, 71LL);
    QCOMPARE(c.k, 50LL);
    QCOMPARE(c.canaryAuc, 0.625);
    QCOMPARE(c.epsilonUpperBound, 3.75);
    QCOMPARE(c.delta, 1e-5);
    QCOMPARE(c.privacyLabel, run.privacyLabel);
    QCOMPARE(c.testAccuracy, 0.875);
    QCOMPARE(c.seconds, 12.5);
  }

  void runsWithoutThemStillOpen() {
    RunRecord run = attackedRun();
    run.attack.reset();
    run.canaryAudit.reset();
    const QJsonObject json = runToJson(run);
    QVERIFY(!json.contains(QStringLiteral("attack")));
    QVERIFY(!json.contains(QStringLiteral("canary_audit")));
    const RunRecord back = runFromJson(json, QStringLiteral("runs[0]"));
    QVERIFY(!back.attack && !back.canaryAudit);
    QCOMPARE(back.evals.size(), std::size_t{1});
    // A non-private run's ε̂ line says it has no bound; JSON keeps its ∞ as "inf".
    run = attackedRun();
    run.canaryAudit->epsilonUpperBound = INFINITY;
    QVERIFY(std::isinf(
        runFromJson(runToJson(run), QStringLiteral("r")).canaryAudit->epsilonUpperBound));
  }

  void strictAboutTypesAndKeys_data() {
    QTest::addColumn<QJsonObject>("run");
    QTest::addColumn<QString>("expected");
    QTest::newRow("auc as text") << withAttackValue("attack", "auc", "0.5") << "runs[0].attack.auc";
    QTest::newRow("auc above 1") << withAttackValue("attack", "auc", 1.5) << "runs[0].attack.auc";
    QTest::newRow("unknown key") << withAttackValue("attack", "auc_pr", 0.5)
                                 << "runs[0].attack.auc_pr";
    QTest::newRow("roc point") << withAttackValue("attack", "roc", QJsonArray{QJsonArray{0.1}})
                               << "runs[0].attack.roc[0]";
    QTest::newRow("roc rate") << withAttackValue("attack", "roc", QJsonArray{QJsonArray{0.1, 1.5}})
                              << "runs[0].attack.roc[0]";
    QTest::newRow("members fraction")
        << withAttackValue("attack", "members", 1.5) << "runs[0].attack.members";
    QTest::newRow("tpr missing") << withAttackValue("attack", "tpr_at_fpr",
                                                    QJsonObject{{"0.01", 0.1}})
                                 << "runs[0].attack.tpr_at_fpr.0.001";
    QTest::newRow("attack not object") << [] {
      QJsonObject run = runToJson(attackedRun());
      run.insert(QStringLiteral("attack"), 0.7);
      return run;
    }() << "runs[0].attack";
    QTest::newRow("canary kind") << withAttackValue("canary_audit", "canary_kind", "poison")
                                 << "runs[0].canary_audit.canary_kind";
    QTest::newRow("correct above guesses")
        << withAttackValue("canary_audit", "correct", 101) << "runs[0].canary_audit.correct";
    QTest::newRow("negative ε̂") << withAttackValue("canary_audit", "epsilon_lower_bound", -1)
                                << "runs[0].canary_audit.epsilon_lower_bound";
  }

  void strictAboutTypesAndKeys() {
    QFETCH(QJsonObject, run);
    QFETCH(QString, expected);
    try {
      runFromJson(run, QStringLiteral("runs[0]"));
      QFAIL("a bad attack record was accepted");
    } catch (const epsilon::Error& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(expected), qPrintable(message));
    }
  }

  void figureDrawsOneRocPerRunAndTheBounds() {
    const RunRecord dp = attackedRun();
    AttackCurve withBound{QStringLiteral("DP σ 1"), dp.color, dp.attack->roc, dp.attack->bound};
    AttackCurve without{
        QStringLiteral("memorising"), QStringLiteral("#0072b2"), dp.attack->roc, {}};
    const Figure log = attackFigure(QStringLiteral("t"), {withBound, without}, true);
    QCOMPARE(log.series.size(), std::size_t{4});  // one bound, two ROCs, chance
    QCOMPARE(log.series[0].name, QStringLiteral("bound: DP σ 1"));
    QCOMPARE(log.series[0].line, FigureLine::Bold);
    QCOMPARE(log.series[0].color, dp.color);
    QCOMPARE(log.series[1].name, QStringLiteral("DP σ 1"));
    QCOMPARE(log.series[2].color, QStringLiteral("#0072b2"));
    QCOMPARE(log.series[3].name, QStringLiteral("chance"));
    QVERIFY(log.x.log && log.y.log);
    QCOMPARE(log.x.min, kAttackRateFloor);
    // Log axes cannot show FPR 0 (with n non-members it only means "below 1/n"): the ROC
    // starts at its first measured FPR, so it never seems to cross the bound at the edge.
    QCOMPARE(log.series[1].points.front(), QPointF(0.0025, 0.0078125));
    QCOMPARE(log.series[1].points.size(), dp.attack->roc.size() - 1);
    QCOMPARE(log.series[0].points.front(), QPointF(1e-4, 0.003));
    const Figure linear = attackFigure(QStringLiteral("t"), {withBound, without}, false);
    QVERIFY(!linear.x.log);
    QCOMPARE(linear.x.min, 0.0);
    QCOMPARE(linear.series[1].points.front(), QPointF(0.0, 0.0));
    QCOMPARE(linear.series[3].points.size(), std::size_t{2});
  }
};

QTEST_APPLESS_MAIN(TestAttackRecord)
#include "test_attack_record.moc"
