// What the Attack tab says about LiRA before and after it runs (base/io/lira_record.h): bad
// input names the control and the limit, the cost estimate is the shadow count times the run's
// own time, and the finding sentence quotes both attacks' TPRs and names the stronger one.
#include <QTest>

#include "base/io/lira_record.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

LiraRecord liraWith(double tpr1, double tpr01) {
  LiraRecord lira;
  lira.shadows = 16;
  lira.attack.tprAt1Percent = tpr1;
  lira.attack.tprAt01Percent = tpr01;
  return lira;
}

AttackRecord lossWith(double tpr1, double tpr01) {
  AttackRecord loss;
  loss.tprAt1Percent = tpr1;
  loss.tprAt01Percent = tpr01;
  return loss;
}

}  // namespace

class TestLiraRecord : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void badInputNamesTheControl() {
    const train::ExperimentConfig mlp;
    const QString control = QStringLiteral("LiRA shadows");
    QCOMPARE(liraProblem(mlp, 16, 1000, 1000, control), QString());
    QCOMPARE(liraProblem(mlp, 16, 0, 0, control), QString());  // sizes not known: not checked
    for (const int shadows : {1, 0, 257}) {
      const QString few = liraProblem(mlp, shadows, 1000, 1000, control);
      QVERIFY2(few.startsWith(control + QStringLiteral(": ")), qPrintable(few));
      QVERIFY2(few.contains(QStringLiteral("[2, 256]")), qPrintable(few));
      QVERIFY2(!few.contains(QStringLiteral("audit.")), qPrintable(few));
    }
    const QString small = liraProblem(mlp, 16, 1, 500, control);
    QVERIFY2(small.startsWith(control) && small.contains(QStringLiteral("halves")),
             qPrintable(small));
    train::ExperimentConfig scattering;
    scattering.model.preset = "scatter-linear";
    const QString refused = liraProblem(scattering, 16, 1000, 1000, control);
    QVERIFY2(refused.startsWith(control) && refused.contains(QStringLiteral("scattering")),
             qPrintable(refused));
  }

  void costIsShadowsTimesTheRunsTime() {
    QVERIFY2(liraCostText(16, 12.0).contains(QStringLiteral("16 × 12.0 s = 3 min 12 s")),
             qPrintable(liraCostText(16, 12.0)));
    QVERIFY(liraCostText(4, 0.0).contains(QStringLiteral("not recorded")));
  }

  void findingNamesTheStrongerAttack() {
    const AttackRecord loss = lossWith(0.014, 0.001);
    const QString strong = liraFindingText(liraWith(0.168, 0.122), &loss);
    QVERIFY2(strong.startsWith(QStringLiteral("LiRA (16 shadows) finds 16.8% of the members at 1% "
                                              "false positives and 12.2% at 0.1%; the loss "
                                              "threshold 1.40% and 0.10%.")),
             qPrintable(strong));
    QVERIFY2(strong.contains(QStringLiteral("LiRA is the stronger attack at 0.1% false positives "
                                            "(122.0× the other)")),
             qPrintable(strong));
    // Nobody found anyone at 0.1%: compared at 1%.
    const AttackRecord weak = lossWith(0.05, 0.0);
    const QString atOne = liraFindingText(liraWith(0.02, 0.0), &weak);
    QVERIFY2(atOne.contains(QStringLiteral("The loss threshold is the stronger attack at 1% "
                                           "false positives (2.5× the other)")),
             qPrintable(atOne));
    QVERIFY(liraFindingText(liraWith(0.02, 0.0), nullptr).contains(QStringLiteral("not computed")));
  }
};

QTEST_APPLESS_MAIN(TestLiraRecord)
#include "test_lira_record.moc"
