// `audit --session` drives the session model the GUI uses (issue 23, item 3): the session it
// writes holds the audited run (trained on N + the included canaries) with its ε and the
// canary audit's record — the statement of why its ε differs from the run's own — equal to
// what the GUI's canary audit of the same settings stores (AttackController's job:
// canaryAuditRecordOf(runAudit(…))), and it opens in the GUI's model.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/attack_record.h"
#include "base/io/experiment_json.h"
#include "base/io/run_file.h"
#include "base/io/run_verification.h"
#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "cli_runner.h"
#include "core/audit/one_run_audit.h"
#include "core/data/registry.h"

using namespace epsilon;

namespace {

// A small private run on uci-digits: 300 training rows, 100 canaries, 3 epochs.
QString writeAuditExperiment(const QString& dir) {
  return test::writeTestFile(dir, R"({"format": "epsilonlab-experiment", "version": 1,
    "dataset": {"name": "uci-digits", "max_train": 300},
    "model": {"preset": "mlp", "hidden": [16]},
    "privacy": {"noise_multiplier": 1.0, "clip_norm": 1.0},
    "optimizer": {"name": "sgd", "learning_rate": 0.3},
    "training": {"lot_size": 64, "epochs": 3, "seed": 5}})");
}

// The record without its time (training and attack seconds differ from run to run) and
// without what says which run it is kept with (the GUI audits a run trained without canaries).
QJsonObject withoutTime(const ui::CanaryAuditRecord& record) {
  QJsonObject json = ui::canaryAuditToJson(record);
  json.remove(QStringLiteral("seconds"));
  json.remove(QStringLiteral("run_trained_with_canaries"));
  return json;
}

}  // namespace

class TestCliAuditSession : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void theAuditsSessionHoldsTheAuditedRunAsTheGuiAuditsIt() {
    QTemporaryDir dir;
    const QString config = writeAuditExperiment(dir.path());
    const QString session = dir.filePath(QStringLiteral("audit-session.json"));
    const auto cli = test::runCli(
        {"audit", "--config", config, "--canaries", "100", "--threads", "2", "--session", session});
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    const QJsonObject printed = QJsonDocument::fromJson(cli.out.toUtf8()).object();

    // The GUI's canary audit of the same settings (attack_controller.cpp's job).
    const train::ExperimentConfig settings = ui::readExperimentFile(config);
    audit::AuditOptions options;
    options.canaries = 100;
    const data::Dataset data = data::loadDataset(settings.dataset.name, settings.dataset.options);
    const audit::AuditResult gui = audit::runAudit(settings, data, options);
    const ui::CanaryAuditRecord guiRecord = ui::canaryAuditRecordOf(gui, options);
    const QString note = ui::auditedEpsilonNote(gui);
    // The canaries grew the training set, so the audited ε differs from the run's own.
    QVERIFY(gui.canariesIncluded > 0);
    QVERIFY2(note.contains(QStringLiteral("grew by %1 canaries").arg(gui.canariesIncluded)),
             qPrintable(note));
    QVERIFY(gui.upper.epsilon != gui.runOwn.epsilon);

    // File › Open session in the GUI's model: one run, the audited one, with the GUI's record.
    ui::Session opened;
    opened.runs()->addRuns(ui::openSessionOrRuns(session));
    QCOMPARE(opened.runs()->rowCount(), 1);
    const ui::RunRecord& run = opened.runs()->runs().front();
    QCOMPARE(run.status, ui::RunStatus::Done);
    // Its ε was checked against its settings on N + k rows as it was read, and believed.
    QVERIFY2(!ui::hasEpsilonMismatch(run), qPrintable(run.message));
    QVERIFY(run.canaryAudit.has_value());
    QVERIFY(run.canaryAudit->runTrainedWithCanaries);
    QCOMPARE(withoutTime(*run.canaryAudit), withoutTime(guiRecord));
    QVERIFY2(run.canaryAudit->privacyLabel.endsWith(QStringLiteral(" · ") + note),
             qPrintable(run.canaryAudit->privacyLabel));
    // The run's ε is the audited run's (N + k examples), at every evaluation.
    QCOMPARE(run.evals.size(), gui.run.history.size());
    for (std::size_t i = 0; i < run.evals.size(); ++i)
      QCOMPARE(run.evals[i].epsilon, gui.run.history[i].privacy.epsilon);
    QCOMPARE(run.evals.back().epsilon, run.canaryAudit->epsilonUpperBound);
    // … and the JSON the command printed says the same.
    const QJsonObject upper = printed[QStringLiteral("epsilon_upper_bound")].toObject();
    QCOMPARE(upper[QStringLiteral("why_it_differs")].toString(), note);
    QCOMPARE(upper[QStringLiteral("epsilon")].toDouble(), gui.upper.epsilon);
  }

  // The audited run's ε is checked on N + k rows, not believed: an edited ε is still caught.
  void anEditedEpsilonOfTheAuditedRunIsStillCaught() {
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("audit-session.json"));
    QCOMPARE(test::runCli({"audit", "--config", writeAuditExperiment(dir.path()), "--canaries",
                           "20", "--epochs", "1", "--session", session})
                 .exitCode,
             0);
    QFile file(session);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonArray runs = json[QStringLiteral("runs")].toArray();
    QJsonObject run = runs[0].toObject();
    QJsonArray evals = run[QStringLiteral("evals")].toArray();
    QJsonObject last = evals.last().toObject();
    const double stated = last[QStringLiteral("epsilon")].toDouble();
    QVERIFY(ui::openSessionOrRuns(session).front().message.isEmpty());
    last[QStringLiteral("epsilon")] = stated * 0.5;
    evals.replace(evals.size() - 1, last);
    run[QStringLiteral("evals")] = evals;
    runs.replace(0, run);
    json[QStringLiteral("runs")] = runs;
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(json).toJson());
    file.close();
    const ui::RunRecord edited = ui::openSessionOrRuns(session).front();
    QVERIFY(ui::hasEpsilonMismatch(edited));
    QCOMPARE(edited.evals.back().epsilon, stated);
  }

  void aSessionThatCannotBeWrittenIsAFailureOfTheWork() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no/such/folder/s.json"));
    const auto cli = test::runCli({"audit", "--config", writeAuditExperiment(dir.path()),
                                   "--canaries", "20", "--epochs", "1", "--session", path});
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2(cli.err.contains(QStringLiteral("no/such/folder/s.json")), qPrintable(cli.err));
    QVERIFY(!QFileInfo::exists(path));
  }
};

QTEST_GUILESS_MAIN(TestCliAuditSession)
#include "test_cli_audit_session.moc"
