// A big JSON file is parsed in parallel pieces, one per element of its top-level arrays (a
// session's runs; issue 27, item 5). The pieces must give exactly what one parse of the whole
// gives: the same object for a good file, and for a bad one the same error, naming the same
// run at the same index (a repeated key by its path, a syntax error by its offset).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <functional>
#include <limits>

#include "base/io/json_reader.h"
#include "base/io/session_file.h"
#include "sweep_map_runs.h"

using namespace epsilon::ui;

namespace {

constexpr int kRuns = 300;
constexpr int kBadRun = 137;
const QString kPath = QStringLiteral("big-session.json");

QByteArray sessionBytes() {
  std::vector<RunRecord> runs;
  for (int i = 1; i <= kRuns; ++i) {
    runs.push_back(epsilon::test::finishedSweepRun(0.5 + 0.01 * i, 1.0, 0.5, 2.0));
    runs.back().id = i;
    runs.back().name = QStringLiteral("run %1").arg(i);
  }
  return QJsonDocument(sessionToJson(runs)).toJson(QJsonDocument::Compact);
}

// Where run `index`'s object starts in a compact session (each run begins with {"color").
qsizetype runStart(const QByteArray& bytes, int index) {
  qsizetype at = bytes.indexOf("\"runs\":[") + 7;
  for (int i = 0; i <= index; ++i) at = bytes.indexOf("{\"color\"", at + 1);
  return at;
}

// What opening `bytes` as a session gives: its runs' JSON, or the error's text.
QString opened(const QByteArray& bytes, qsizetype piecewiseFrom) {
  try {
    const QJsonObject json = parseJsonObject(bytes, kPath, piecewiseFrom);
    const std::vector<RunRecord> runs = sessionFromJson(json, kPath);
    return QString::fromUtf8(QJsonDocument(sessionToJson(runs)).toJson(QJsonDocument::Compact));
  } catch (const std::exception& e) {
    return QStringLiteral("error: ") + QString::fromUtf8(e.what());
  }
}

constexpr qsizetype kWhole = std::numeric_limits<qsizetype>::max();

}  // namespace

class TestJsonPieces : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aGoodFileGivesTheSameObjectInPieces() {
    const QByteArray bytes = sessionBytes();
    QVERIFY(bytes.size() > 10000);
    const QJsonObject whole = parseJsonObject(bytes, kPath, kWhole);
    const QJsonObject pieces = parseJsonObject(bytes, kPath, 0);
    QCOMPARE(pieces.value(QStringLiteral("runs")).toArray().size(), kRuns);
    QCOMPARE(pieces, whole);
    QCOMPARE(opened(bytes, 0), opened(bytes, kWhole));
    QVERIFY(!opened(bytes, 0).startsWith(QStringLiteral("error")));
  }

  void spacesAndEmptyArraysAreAsInOneParse() {
    const QByteArray spaced =
        "\xef\xbb\xbf { \"format\" : \"epsilonlab-session\" , \"version\":1,\n \"runs\" : [ ] ,"
        " \"x\": [ 1 , [2, {\"a\": [3]}] ,\"s\\\"]\" ] } \n";
    QCOMPARE(parseJsonObject(spaced, kPath, 0), parseJsonObject(spaced, kPath, kWhole));
    QCOMPARE(parseJsonObject(spaced, kPath, 0).value(QStringLiteral("x")).toArray().size(), 3);
  }

  void aBadFileGivesTheSameErrorInPieces_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");  // part of the error
    const QByteArray good = sessionBytes();
    const qsizetype at = runStart(good, kBadRun);
    const auto edited = [&](const QByteArray& from, const QByteArray& to) {
      QByteArray bytes = good;
      const qsizetype where = bytes.indexOf(from, at);
      bytes.replace(where, from.size(), to);
      return bytes;
    };
    const QString run = QStringLiteral("runs[%1]").arg(kBadRun);
    QTest::newRow("key twice in a run")
        << edited("\"name\":\"run 138\"", "\"name\":\"x\",\"name\":\"run 138\"")
        << run + ".name: given twice";
    QTest::newRow("key twice in a run's settings")
        << edited("\"delta\":", "\"delta\":0.5,\"delta\":") << run + ".config.privacy.delta";
    const QByteArray format = "{\"format\":\"epsilonlab-session\"";
    QTest::newRow("key twice at the top")
        << QByteArray(good).replace(format, format + format.mid(1).prepend(','))
        << QStringLiteral("big-session.json: format: given twice");
    QTest::newRow("runs twice") << QByteArray(good).replace("{\"format\"",
                                                            "{\"runs\":[],\"format\"")
                                << QStringLiteral("runs: given twice");
    QTest::newRow("a missing colon")
        << edited("\"name\":\"run", "\"name\"\"run") << "not valid JSON at offset";
    QTest::newRow("a run that is a number")
        << QByteArray(good).replace(at, runStart(good, kBadRun + 1) - 1 - at, "5")
        << run + ": expected an object";
    QTest::newRow("a run's bad value") << edited("\"epoch\":2", "\"epoch\":-2") << run + ".evals";
    QTest::newRow("an empty run") << edited("{\"color\"", ",{\"color\"") << "not valid JSON";
    QTest::newRow("a comma at the end")
        << QByteArray(good).replace("}],\"version\"", "},],\"version\"") << "not valid JSON";
    QTest::newRow("garbage at the end") << good + "x"
                                        << "not valid JSON";
    QTest::newRow("two objects") << good + good << "not valid JSON";
    QTest::newRow("an unterminated string") << good.left(at + 12) << "not valid JSON";
    QTest::newRow("a bracket closed wrongly")
        << edited("\"evals\":[", "\"evals\":[}") << "not valid JSON";
    // Qt's parser refuses more than 1024 levels; a run's values begin at level 4.
    QTest::newRow("nested too deeply in a run")
        << edited("\"message\":\"\"",
                  "\"message\":" + QByteArray(1022, '[') + QByteArray(1022, ']'))
        << "not valid JSON";
    QTest::newRow("nested as deeply as allowed in a run")
        << edited("\"message\":\"\"",
                  "\"message\":" + QByteArray(1021, '[') + QByteArray(1021, ']'))
        << run + ".message";
  }
  void aBadFileGivesTheSameErrorInPieces() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const QString whole = opened(bytes, kWhole);
    QVERIFY2(whole.startsWith(QStringLiteral("error: ")), qPrintable(whole.left(200)));
    QVERIFY2(whole.contains(expected), qPrintable(whole.left(300)));
    QCOMPARE(opened(bytes, 0), whole);
  }
};

QTEST_APPLESS_MAIN(TestJsonPieces)
#include "test_json_pieces.moc"
