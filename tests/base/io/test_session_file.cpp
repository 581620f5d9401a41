// Sessions round-trip exactly; corrupt files are refused with a message naming the place.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "base/io/experiment_json.h"
#include "base/io/session_file.h"

using namespace epsilon::ui;

namespace {
std::vector<RunRecord> sampleRuns() {
  std::vector<RunRecord> runs;
  for (int i = 1; i <= 2; ++i) {
    RunRecord r;
    r.id = i;
    r.name = QStringLiteral("run %1").arg(i);
    r.color = QString::asprintf("#%02x141e", 10 * i);
    r.status = i == 1 ? RunStatus::Done : RunStatus::Diverged;
    r.message = i == 2 ? QStringLiteral("loss became NaN at step 7") : QString();
    r.config.privacy.noise.initial = 0.5 * i;
    r.config.training.evalEverySteps = 7;
    r.privacyLabel = QStringLiteral("δ = 1e-5 · RDP · Poisson sampling");
    for (int e = 1; e <= 3; ++e) {
      EvalPoint p;
      p.step = 10 * e;
      p.epoch = e;
      p.testAccuracy = 0.5 + 0.1 * e;
      p.epsilon = i == 1 ? 0.3 * e : INFINITY;
      p.sigma = 1.1;
      r.evals.push_back(p);
    }
    r.losses = {{1, 2.3}, {2, 2.1}, {3, 1.9}};
    runs.push_back(r);
  }
  return runs;
}
}  // namespace

class TestSessionFile : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void roundTripKeepsEveryPoint() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    const auto runs = sampleRuns();
    saveSession(path, runs);
    const auto back = loadSession(path);
    QCOMPARE(back.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
      QCOMPARE(back[i].id, runs[i].id);
      QCOMPARE(back[i].name, runs[i].name);
      QCOMPARE(back[i].color, runs[i].color);
      QCOMPARE(back[i].status, runs[i].status);
      QCOMPARE(back[i].message, runs[i].message);
      QCOMPARE(experimentToJson(back[i].config), experimentToJson(runs[i].config));
      QCOMPARE(back[i].evals.size(), runs[i].evals.size());
      for (std::size_t k = 0; k < runs[i].evals.size(); ++k) {
        QCOMPARE(back[i].evals[k].step, runs[i].evals[k].step);
        QCOMPARE(back[i].evals[k].testAccuracy, runs[i].evals[k].testAccuracy);
        QCOMPARE(back[i].evals[k].epsilon, runs[i].evals[k].epsilon);  // inf survives
        QVERIFY(std::isnan(back[i].evals[k].testLoss));                // NaN survives
      }
      QCOMPARE(back[i].losses.size(), runs[i].losses.size());
    }
  }
  void corruptFilesNameTheProblem_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << QByteArray("{\"format\": ") << QStringLiteral("not valid JSON");
    QTest::newRow("wrong format") << QByteArray("{\"format\":\"x\",\"version\":1,\"runs\":[]}")
                                  << QStringLiteral("not an EpsilonLab session");
    QTest::newRow("unknown key")
        << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[],\"extra\":1}")
        << QStringLiteral("extra: unknown key");
    QTest::newRow("bad version")
        << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":7,\"runs\":[]}")
        << QStringLiteral("version");
    QTest::newRow("bad accuracy")
        << QByteArray(
               "{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[{\"id\":1,\"name\":"
               "\"a\",\"color\":\"#000000\",\"status\":\"done\",\"config\":{\"format\":"
               "\"epsilonlab-experiment\",\"version\":1},\"evals\":[{\"step\":1,\"test_accuracy\":"
               "\"high\"}]}]}")
        << QStringLiteral("runs[0].evals[0].test_accuracy: expected a number");
    QTest::newRow("duplicate id")
        << QByteArray(
               "{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[{\"id\":1,\"name\":"
               "\"a\",\"color\":\"#000000\",\"status\":\"done\",\"config\":{\"format\":"
               "\"epsilonlab-experiment\",\"version\":1},\"evals\":[]},{\"id\":1,\"name\":\"b\","
               "\"color\":\"#000000\",\"status\":\"done\",\"config\":{\"format\":\"epsilonlab-"
               "experiment\",\"version\":1},\"evals\":[]}]}")
        << QStringLiteral("duplicate run id 1");
  }
  void corruptFilesNameTheProblem() {
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    try {
      loadSession(path);
      QFAIL("a corrupt session was accepted");
    } catch (const SessionError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(expected), qPrintable(message));
      QVERIFY2(message.contains(QStringLiteral("bad.json")), qPrintable(message));
    }
  }
  void olderEvaluationNamesStillRead() {
    // Run files and JSON lines once wrote elapsed_s and mean_grad_norm; both spellings of ∞.
    const QByteArray head =
        "{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[{\"id\":3,\"name\":\"a\","
        "\"color\":\"\",\"status\":\"done\",\"config\":{\"format\":\"epsilonlab-experiment\","
        "\"version\":1},"
        "\"evals\":[";
    const QJsonObject old =
        QJsonDocument::fromJson(
            head + "{\"step\":4,\"elapsed_s\":2.5,\"mean_grad_norm\":0.75,\"epsilon\":\"inf\"}]}]}")
            .object();
    const auto runs = sessionFromJson(old, QStringLiteral("old.json"));
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].evals[0].step, 4LL);
    QCOMPARE(runs[0].evals[0].elapsedSeconds, 2.5);
    QCOMPARE(runs[0].evals[0].gradientNorm, 0.75);
    QVERIFY(std::isinf(runs[0].evals[0].epsilon));
    QVERIFY(runs[0].color.isEmpty());  // the run model will give it a palette colour
    const QJsonObject twice =
        QJsonDocument::fromJson(head + "{\"step\":4,\"elapsed_s\":2.5,\"elapsed_seconds\":2.5}]}]}")
            .object();
    try {
      sessionFromJson(twice, QStringLiteral("twice.json"));
      QFAIL("a value given under both names was accepted");
    } catch (const SessionError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(
                   QStringLiteral("twice.json: runs[0].evals[0].elapsed_s: given twice")),
               e.what());
    }
  }
  void writtenNamesAreTheCurrentOnes() {
    const QJsonObject session = sessionToJson(sampleRuns());
    const QJsonObject point =
        session["runs"].toArray()[1].toObject()["evals"].toArray()[0].toObject();
    QVERIFY(point.contains(QStringLiteral("elapsed_seconds")) &&
            point.contains(QStringLiteral("gradient_norm")));
    QVERIFY(!point.contains(QStringLiteral("elapsed_s")) &&
            !point.contains(QStringLiteral("mean_grad_norm")));
    QCOMPARE(point["epsilon"].toString(), QStringLiteral("inf"));
    QVERIFY(point["test_loss"].isNull());  // NaN
  }
  void hugeLossStepIsRefused() {
    // Found by fuzz_session_json: a lot loss's step of 3.3e101 was converted to long long
    // unchecked (undefined behaviour). The input is checked in as found.
    const QString found =
        QStringLiteral(EPSILON_SOURCE_DIR "/tests/base/io/data/fuzz-session-huge-loss-step.json");
    try {
      loadSession(found);
      QFAIL("a session with a step of 3.3e101 was accepted");
    } catch (const SessionError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(QStringLiteral("fuzz-session-huge-loss-step.json")),
               qPrintable(message));
      QVERIFY2(message.contains(QStringLiteral("runs[0].losses[")), qPrintable(message));
      QVERIFY2(message.contains(QStringLiteral("a step in [0, 9007199254740992]")),
               qPrintable(message));
    }
    // The largest exact step still reads; a fractional one does not.
    QJsonObject session = sessionToJson(sampleRuns());
    const auto withLoss = [&](const QJsonValue& step) {
      QJsonArray runs = session["runs"].toArray();
      QJsonObject run = runs[0].toObject();
      // Appended, not QJsonArray{QJsonArray{...}}: a braced list holding one QJsonArray is a
      // copy under clang (CWG 2137), a one-element array under GCC.
      QJsonArray losses;
      losses.append(QJsonArray{step, 2.5});
      run["losses"] = losses;
      runs[0] = run;
      QJsonObject changed = session;
      changed["runs"] = runs;
      return changed;
    };
    QCOMPARE(
        sessionFromJson(withLoss(9007199254740992.0), QStringLiteral("s.json"))[0].losses[0].step,
        9007199254740992LL);
    QVERIFY_THROWS_EXCEPTION(SessionError,
                             sessionFromJson(withLoss(1.5), QStringLiteral("s.json")));
  }
  void unwritablePlaceKeepsOldFile() {
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(
        SessionError,
        saveSession(dir.filePath(QStringLiteral("no/such/dir/s.json")), sampleRuns()));
  }
  void csvHasOneRowPerEvaluation() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.csv"));
    exportHistoryCsv(path, sampleRuns());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 6);
    QVERIFY(lines[0].startsWith(QStringLiteral("run_id,run_name,privacy,step,epoch")));
    QVERIFY(lines[4].contains(QStringLiteral(",inf,")));
  }
};

QTEST_APPLESS_MAIN(TestSessionFile)
#include "test_session_file.moc"
