// LiRA from the Attack tab (uci-digits cut to 200 training rows, 40 epochs, 8 shadows: a second):
// a run without a model cannot start it and says why at the control; the shadows report
// progress as a job; a cancelled LiRA delivers nothing and keeps no shadows; a finished one draws
// LiRA's ROC (solid) beside the loss threshold's (dashed) in the run's colour and says what the
// stronger attack found; a second run of the same configuration reuses the kept shadows
// (no shadow trained) and, the model being the same, gets the same numbers.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

#include "base/io/session_file.h"
#include "base/jobs/job_service.h"
#include "base/session/run_model.h"
#include "core/common/errors.h"
#include "ui/widgets/attack_choice.h"
#include "ui/widgets/attack_controller.h"
#include "ui/widgets/attack_view.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

constexpr int kShadows = 8;

train::ExperimentConfig memorisingRun() {
  train::ExperimentConfig c;
  c.dataset.name = "uci-digits";
  c.dataset.options.maxTrain = 200;
  c.model.preset = "mlp";
  c.model.hiddenWidths = {32};
  c.privacy.privatizer.kind = privacy::PrivatizerKind::None;
  c.optimizer.learningRate = 0.05;
  c.training.lotSize = 20;
  c.training.epochs = 40;
  c.training.seed = 11;
  return c;
}

QStringList keptFiles(const QString& folder) {
  return QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files);
}

}  // namespace

class TestLiraAttack : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_folder.isValid());
    m_model = std::make_unique<RunModel>();
    m_training = std::make_unique<TrainingController>(m_model.get(), nullptr, 2);
    m_attacks = std::make_unique<AttackController>(m_model.get(), m_training.get());
    m_attacks->setShadowFolder([path = m_folder.path()] { return path; });
    m_view = std::make_unique<AttackView>(m_model.get(), m_attacks.get());
    m_first = m_training->start(memorisingRun(), QStringLiteral("memorising"));
    QTRY_VERIFY_WITH_TIMEOUT(m_model->run(m_first)->attack, 120000);
    m_choice = m_view->attackChoice();
    m_choice->chooseLira(true);
    m_choice->shadowCount()->setValue(kShadows);
  }

  void cleanupTestCase() {
    m_view.reset();
    m_attacks.reset();
    m_training.reset();
    m_model.reset();
  }

  void offersBothAttacksWithLimitsAndCost() {
    QComboBox* kind = m_choice->attackKind();
    QCOMPARE(kind->count(), 2);
    QCOMPARE(kind->itemText(0), QStringLiteral("Loss threshold (instant)"));
    QCOMPARE(kind->itemText(1), QStringLiteral("LiRA (%1 shadow runs)").arg(kShadows));
    QCOMPARE(m_choice->shadowCount()->minimum(), 2);
    QCOMPARE(m_choice->shadowCount()->maximum(), 256);
    QVERIFY(!m_choice->shadowCount()->toolTip().isEmpty());
    m_view->setRuns({m_first});
    // The estimate: the shadow count times the run's own recorded time.
    QVERIFY2(m_choice->noteText().startsWith(QStringLiteral("Cost: about %1 × ").arg(kShadows)),
             qPrintable(m_choice->noteText()));
    QVERIFY(m_choice->startButton()->isEnabled());
    // Choosing LiRA adds no row to the tab (its cost goes in the scrolled text), so the window
    // still fits a 1024×720 projector.
    m_choice->chooseLira(false);
    const QSize loss = m_view->minimumSizeHint();
    m_choice->chooseLira(true);
    const QSize lira = m_view->minimumSizeHint();
    QVERIFY2(lira.height() <= loss.height() && lira.width() <= 1024,
             qPrintable(QStringLiteral("%1×%2 vs %3×%4")
                            .arg(lira.width())
                            .arg(lira.height())
                            .arg(loss.width())
                            .arg(loss.height())));
    QVERIFY2(m_view->summaryText().startsWith(QStringLiteral("Cost: about")),
             qPrintable(m_view->summaryText()));
  }

  void aRunWithoutAModelCannotStart() {
    RunRecord loaded;
    loaded.name = QStringLiteral("from a session");
    loaded.status = RunStatus::Done;
    loaded.config = memorisingRun();
    const int id = m_model->addRun(loaded);
    m_view->setRuns({id});
    QVERIFY(!m_choice->startButton()->isEnabled());
    QVERIFY2(m_choice->noteText().contains(QStringLiteral("trained model is not in memory")),
             qPrintable(m_choice->noteText()));
    QString why;
    QVERIFY(!m_attacks->startLira(id, {}, &why));
    QVERIFY(why.contains(QStringLiteral("not in memory")));
    m_model->takeRun(id);
    m_view->setRuns({m_first});
    QVERIFY(keptFiles(m_folder.path()).isEmpty());
  }

  void cancelDeliversNothing() {
    QSignalSpy progress(m_attacks.get(), &AttackController::liraProgress);
    QSignalSpy stopped(m_attacks.get(), &AttackController::liraStopped);
    // The most shadows the control allows, so that the cancel lands long before the end.
    m_choice->shadowCount()->setValue(m_choice->shadowCount()->maximum());
    QTest::mouseClick(m_choice->startButton(), Qt::LeftButton);
    QCOMPARE(m_attacks->liraRun(), m_first);
    QVERIFY(!m_choice->startButton()->isEnabled());  // one LiRA at a time
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 60000);
    QTest::mouseClick(m_choice->cancelButton(), Qt::LeftButton);
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(stopped.front().at(1).toString(), QStringLiteral("cancelled"));
    JobService::instance().waitForIdle();
    QCoreApplication::processEvents();
    QVERIFY(!m_model->run(m_first)->lira);
    QVERIFY(keptFiles(m_folder.path()).isEmpty());  // nothing half-written
    QCOMPARE(m_attacks->liraRun(), 0);
    QVERIFY(m_choice->startButton()->isEnabled());
    m_choice->shadowCount()->setValue(kShadows);
  }

  void liraReportsProgressAndDrawsBothRocs() {
    QSignalSpy progress(m_attacks.get(), &AttackController::liraProgress);
    QTest::mouseClick(m_choice->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_model->run(m_first)->lira, 180000);
    QVERIFY(progress.size() >= kShadows);
    // Progress rises and names the shadow it trains.
    QVERIFY(progress.back().at(1).toDouble() > progress.front().at(1).toDouble());
    QVERIFY(progress.back().at(2).toString().contains(QStringLiteral("shadow")));
    const LiraRecord& lira = *m_model->run(m_first)->lira;
    QCOMPARE(lira.shadows, kShadows);
    QCOMPARE(lira.reusedShadows, 0);
    QCOMPARE(lira.attack.members, m_model->run(m_first)->attack->members);
    QVERIFY(lira.attack.roc.size() > 2);
    QCOMPARE(keptFiles(m_folder.path()).size(), 1);
    m_view->refreshNow();
    const QColor colour(m_model->run(m_first)->color);
    int found = 0;
    for (QAbstractSeries* s : m_view->chartView()->chart()->series()) {
      auto* line = qobject_cast<QXYSeries*>(s);
      QVERIFY(line);
      if (s->name() == QStringLiteral("LiRA: memorising")) {
        QCOMPARE(line->pen().style(), Qt::SolidLine);
        QCOMPARE(line->pen().color(), colour);
        ++found;
      } else if (s->name() == QStringLiteral("loss threshold: memorising")) {
        QCOMPARE(line->pen().style(), Qt::DashLine);
        QCOMPARE(line->pen().color(), colour);
        ++found;
      }
    }
    QCOMPARE(found, 2);
    const QString text = m_view->summaryText();
    QVERIFY2(text.contains(QStringLiteral("LiRA (%1 shadows) finds").arg(kShadows)),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("the loss threshold")));
    QVERIFY(text.contains(QStringLiteral("LiRA AUC")));
  }

  void liraSurvivesASessionRoundTrip() {
    const RunRecord& run = *m_model->run(m_first);
    const RunRecord back = runFromJson(runToJson(run), QStringLiteral("runs[0]"));
    QVERIFY(back.lira.has_value());
    QCOMPARE(back.lira->attack.auc, run.lira->attack.auc);
    QCOMPARE(back.lira->attack.roc.size(), run.lira->attack.roc.size());
    QCOMPARE(back.lira->shadows, kShadows);
    QCOMPARE(back.lira->test, QStringLiteral("online"));
    QJsonObject bad = runToJson(run);
    QJsonObject lira = bad.value(QStringLiteral("lira")).toObject();
    lira.insert(QStringLiteral("shadows"), 1);
    bad.insert(QStringLiteral("lira"), lira);
    try {
      runFromJson(bad, QStringLiteral("runs[0]"));
      QFAIL("one shadow was read");
    } catch (const ConfigError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("runs[0].lira.shadows")),
               e.what());
    }
  }

  void sameConfigurationReusesShadows() {
    const int second = m_training->start(memorisingRun(), QStringLiteral("again"));
    QTRY_VERIFY_WITH_TIMEOUT(m_model->run(second)->attack, 120000);
    m_view->setRuns({second});
    QSignalSpy progress(m_attacks.get(), &AttackController::liraProgress);
    QVERIFY(m_choice->startButton()->isEnabled());
    QTest::mouseClick(m_choice->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_model->run(second)->lira, 60000);
    const LiraRecord& reused = *m_model->run(second)->lira;
    QCOMPARE(reused.reusedShadows, kShadows);
    for (const QList<QVariant>& event : progress)
      QVERIFY2(!event.at(2).toString().contains(QStringLiteral("training shadow")),
               qPrintable(event.at(2).toString()));
    QVERIFY(m_choice->statusText().contains(QStringLiteral("none trained")));
    // Same configuration and seed: the same model, so the same attack.
    const LiraRecord& first = *m_model->run(m_first)->lira;
    QCOMPARE(reused.attack.auc, first.attack.auc);
    QCOMPARE(reused.attack.tprAt1Percent, first.attack.tprAt1Percent);
    QCOMPARE(keptFiles(m_folder.path()).size(), 1);
  }

 private:
  QTemporaryDir m_folder;
  std::unique_ptr<RunModel> m_model;
  std::unique_ptr<TrainingController> m_training;
  std::unique_ptr<AttackController> m_attacks;
  std::unique_ptr<AttackView> m_view;
  AttackChoice* m_choice = nullptr;
  int m_first = 0;
};

QTEST_MAIN(TestLiraAttack)
#include "test_lira_attack.moc"
