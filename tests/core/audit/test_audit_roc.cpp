// ROC curves of membership tests: hand-computed points, AUC as the Mann–Whitney statistic
// with ties, TPR at a fixed FPR never interpolated, the advantage, and the loss-threshold
// attack on explicit losses.
#include <QTest>
#include <cmath>
#include <vector>

#include "core/audit/membership_inference.h"
#include "core/audit/roc.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::audit;

class TestAuditRoc : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void handComputedCurve() {
    // Members 0.9, 0.8, 0.3; non-members 0.7, 0.2: thresholds sweep 0.9, 0.8, 0.7, 0.3, 0.2.
    const std::vector<double> members{0.9, 0.3, 0.8};
    const std::vector<double> nonMembers{0.2, 0.7};
    const RocCurve roc = rocCurve(members, nonMembers);
    const std::vector<double> fpr{0, 0, 0, 0.5, 0.5, 1};
    const std::vector<double> tpr{0, 1.0 / 3, 2.0 / 3, 2.0 / 3, 1, 1};
    QCOMPARE(roc.fpr, fpr);
    QCOMPARE(roc.tpr, tpr);
    // Pairs (member > non-member): 0.9 beats both, 0.8 both, 0.3 one: 5 of 6.
    QCOMPARE(areaUnderCurve(roc), 5.0 / 6.0);
    QCOMPARE(tprAtFpr(roc, 0.0), 2.0 / 3);
    QCOMPARE(tprAtFpr(roc, 0.49), 2.0 / 3);
    QCOMPARE(tprAtFpr(roc, 0.5), 1.0);
    QCOMPARE(attackerAdvantage(roc), 2.0 / 3);
  }

  void tiesCountHalf() {
    const std::vector<double> same{1.0, 1.0};
    const RocCurve roc = rocCurve(same, same);
    QCOMPARE(roc.fpr.size(), std::size_t(2));
    QCOMPARE(areaUnderCurve(roc), 0.5);
    QCOMPARE(attackerAdvantage(roc), 0.0);
  }

  void aucIsMannWhitney() {
    std::vector<double> members, nonMembers;
    for (int i = 0; i < 37; ++i) members.push_back(std::sin(i * 1.7) + 0.3);
    for (int i = 0; i < 53; ++i) nonMembers.push_back(std::round(4 * std::cos(i * 0.9)) / 4);
    double wins = 0.0;
    for (double a : members)
      for (double b : nonMembers) wins += a > b ? 1.0 : (a == b ? 0.5 : 0.0);
    QVERIFY(std::abs(areaUnderCurve(rocCurve(members, nonMembers)) - wins / (37.0 * 53.0)) < 1e-12);
  }

  void emptyOrNanIsRefused() {
    const std::vector<double> one{1.0};
    QVERIFY_THROWS_EXCEPTION(PrivacyError, rocCurve({}, one));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, rocCurve(one, std::vector<double>{std::nan("")}));
    QVERIFY_THROWS_EXCEPTION(PrivacyError, tprAtFpr(rocCurve(one, one), 1.5));
  }

  void lossThresholdOnLosses() {
    // Lower loss means member: members' losses 0.1, 0.2; non-members' 0.3, 0.05.
    const MembershipAttack attack = lossThresholdAttack({0.1, 0.2}, {0.3, 0.05});
    QCOMPARE(attack.members, 2LL);
    QCOMPARE(attack.nonMembers, 2LL);
    QCOMPARE(attack.auc, 0.5);  // 0.1 beats 0.3 only, 0.2 beats 0.3 only: 2 of 4
    // Yeom's threshold is the mean member loss 0.15: members ≤ 0.15: ½; non-members: ½.
    QCOMPARE(attack.yeomAdvantage, 0.0);
    const MembershipAttack separated = lossThresholdAttack({0.01, 0.02, 0.03}, {1.0, 2.0});
    QCOMPARE(separated.auc, 1.0);
    QCOMPARE(separated.tprAtFpr01Percent, 1.0);
    QCOMPARE(separated.advantage, 1.0);
  }
};

QTEST_APPLESS_MAIN(TestAuditRoc)
#include "test_audit_roc.moc"
