// Sessions round-trip exactly; corrupt files are refused with a message naming the place.
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "ui/session_file.h"

using namespace epsilon::ui;

namespace {
std::vector<RunRecord> sampleRuns() {
  std::vector<RunRecord> runs;
  for (int i = 1; i <= 2; ++i) {
    RunRecord r;
    r.id = i;
    r.name = QStringLiteral("run %1").arg(i);
    r.color = QColor(10 * i, 20, 30);
    r.status = i == 1 ? RunStatus::Done : RunStatus::Diverged;
    r.message = i == 2 ? QStringLiteral("loss became NaN at step 7") : QString();
    r.config = QJsonObject{{"format", "epsilonlab-experiment"}, {"version", 1}};
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
      QCOMPARE(back[i].config, runs[i].config);
      QCOMPARE(back[i].evals.size(), runs[i].evals.size());
      for (std::size_t k = 0; k < runs[i].evals.size(); ++k) {
        QCOMPARE(back[i].evals[k].step, runs[i].evals[k].step);
        QCOMPARE(back[i].evals[k].testAccuracy, runs[i].evals[k].testAccuracy);
        QCOMPARE(back[i].evals[k].epsilon, runs[i].evals[k].epsilon);  // inf survives
        QVERIFY(std::isnan(back[i].evals[k].testLoss));                 // NaN survives
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
    QTest::newRow("unknown key") << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[],\"extra\":1}")
                                 << QStringLiteral("unknown key 'extra'");
    QTest::newRow("bad version") << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":7,\"runs\":[]}")
                                 << QStringLiteral("version");
    QTest::newRow("bad accuracy")
        << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[{\"id\":1,\"name\":\"a\",\"color\":\"#000000\",\"status\":\"done\",\"config\":{},\"evals\":[{\"step\":1,\"test_accuracy\":\"high\"}]}]}")
        << QStringLiteral("runs[0].evals[0].test_accuracy: expected a number");
    QTest::newRow("duplicate id")
        << QByteArray("{\"format\":\"epsilonlab-session\",\"version\":1,\"runs\":[{\"id\":1,\"name\":\"a\",\"color\":\"#000000\",\"status\":\"done\",\"config\":{},\"evals\":[]},{\"id\":1,\"name\":\"b\",\"color\":\"#000000\",\"status\":\"done\",\"config\":{},\"evals\":[]}]}")
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
  void unwritablePlaceKeepsOldFile() {
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(SessionError, saveSession(dir.filePath(QStringLiteral("no/such/dir/s.json")), sampleRuns()));
  }
  void csvHasOneRowPerEvaluation() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.csv"));
    exportHistoryCsv(path, sampleRuns());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 6);
    QVERIFY(lines[0].startsWith(QStringLiteral("run_id,run_name,step,epoch")));
    QVERIFY(lines[4].contains(QStringLiteral(",inf,")));
  }
};

QTEST_APPLESS_MAIN(TestSessionFile)
#include "test_session_file.moc"
