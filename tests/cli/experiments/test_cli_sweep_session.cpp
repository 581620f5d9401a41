// The CLI's sweep drives the session model the GUI uses (issue 23, item 3): the session it
// writes with --session (from the model, through File › Save session's writer) holds the same
// runs as its run files opened in the GUI (File › Open session on the --out folder), and it
// opens in the GUI's model.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "base/io/run_file.h"
#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "cli_runner.h"

using namespace epsilon;

namespace {

// A stored run without what the model gives each run of its own (id and colour).
QByteArray withoutIdentity(const ui::RunRecord& run) {
  QJsonObject json = ui::runToJson(run);
  json.remove(QStringLiteral("id"));
  json.remove(QStringLiteral("color"));
  return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

}  // namespace

class TestCliSweepSession : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void theSweepsSessionHoldsItsRunFilesRuns() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out"));
    const QString session = dir.filePath(QStringLiteral("sweep-session.json"));
    QCOMPARE(test::runCli({"sweep", "--config", test::writeCircleExperiment(dir.path(), 40, 10),
                           "--param", "noise_multiplier=0.5,2", "--param2", "seed=1,2", "--jobs",
                           "1", "--quiet", "--out", out, "--session", session})
                 .exitCode,
             0);

    const std::vector<ui::RunRecord> fromModel = ui::loadSession(session);
    const std::vector<ui::RunRecord> fromFiles = ui::openSessionOrRuns(out);
    QCOMPARE(fromModel.size(), std::size_t{4});
    QCOMPARE(fromFiles.size(), fromModel.size());
    for (std::size_t i = 0; i < fromModel.size(); ++i) {
      QCOMPARE(fromModel[i].status, ui::RunStatus::Done);
      QCOMPARE(fromModel[i].evals.size(), std::size_t{5});  // at step 0, then every 10 of 40
      QCOMPARE(withoutIdentity(fromModel[i]), withoutIdentity(fromFiles[i]));
    }
    // The two σ give two ε: the runs are not copies of one another.
    QVERIFY(fromModel[0].evals.back().epsilon != fromModel[2].evals.back().epsilon);

    // File › Open session in the GUI's model: the same runs, in order, under the same names.
    ui::Session gui;
    gui.runs()->addRuns(ui::openSessionOrRuns(session));
    QCOMPARE(gui.runs()->rowCount(), 4);
    for (int row = 0; row < 4; ++row) {
      const ui::RunRecord* run = gui.runs()->run(gui.runs()->idAt(row));
      QCOMPARE(run->name, fromFiles[static_cast<std::size_t>(row)].name);
      QCOMPARE(run->evals.back().epsilon,
               fromFiles[static_cast<std::size_t>(row)].evals.back().epsilon);
    }
  }

  void aSessionThatCannotBeWrittenIsAFailureOfTheWork() {
    QTemporaryDir dir;
    const QString config = test::writeCircleExperiment(dir.path(), 20, 10);
    const auto sweep =
        test::runCli({"sweep", "--config", config, "--param", "noise_multiplier=1", "--quiet",
                      "--session", dir.filePath(QStringLiteral("no/such/folder/s.json"))});
    QCOMPARE(sweep.exitCode, 1);
    QVERIFY2(sweep.err.contains(QStringLiteral("no/such/folder/s.json")), qPrintable(sweep.err));
  }
};

QTEST_GUILESS_MAIN(TestCliSweepSession)
#include "test_cli_sweep_session.moc"
