// Numbers in a session or run file are not believed without checking (issue 27, item 4): values
// outside their ranges, histories whose steps go back, a NUL in a name and keys given twice are
// refused, naming the field and the run; a file EpsilonLab wrote still opens. (An ε that goes
// down opens with the settings' ε shown instead: test_run_verification.)
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

#include "base/io/json_reader.h"
#include "base/io/run_file.h"
#include "base/io/session_file.h"

using namespace epsilon::ui;

namespace {

RunRecord sampleRun() {
  RunRecord r;
  r.id = 1;
  r.name = QStringLiteral("noise one");
  r.status = RunStatus::Done;
  for (int e = 1; e <= 3; ++e) {
    EvalPoint p;
    p.step = 10 * e;
    p.epoch = e;
    p.testAccuracy = 0.5;
    p.epsilon = 0.3 * e;
    p.sigma = 1.1;
    r.evals.push_back(p);
  }
  return r;
}

QByteArray compact(const QJsonObject& json) {
  return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

// The sample session's run 0 edited by `edit`, as a file's bytes.
QByteArray editedSession(const std::function<void(QJsonObject&)>& edit) {
  QJsonObject session = sessionToJson({sampleRun()});
  QJsonArray runs = session.value(QStringLiteral("runs")).toArray();
  QJsonObject run = runs.at(0).toObject();
  edit(run);
  runs.replace(0, run);
  session.insert(QStringLiteral("runs"), runs);
  return compact(session);
}

// `object[section][key] = value` (a config section, or an evaluation when section is "evals").
std::function<void(QJsonObject&)> setIn(const QString& section, const QString& key,
                                        const QJsonValue& value, int index = 1) {
  return [=](QJsonObject& run) {
    if (section == QLatin1String("evals")) {
      QJsonArray evals = run.value(section).toArray();
      QJsonObject point = evals.at(index).toObject();
      point.insert(key, value);
      evals.replace(index, point);
      run.insert(section, evals);
      return;
    }
    QJsonObject config = run.value(QStringLiteral("config")).toObject();
    QJsonObject part = config.value(section).toObject();
    part.insert(key, value);
    config.insert(section, part);
    run.insert(QStringLiteral("config"), config);
  };
}

// Opens `bytes` as a session (or a run file); the error's text, or "" when it opened.
QString openError(const QByteArray& bytes, bool runFile = false) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("hostile.json"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
    qFatal("cannot write %s", qPrintable(path));
  file.close();
  try {
    if (runFile)
      readRunFile(path);
    else
      loadSession(path);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestStoredValues : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aWrittenSessionOpens() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    saveSession(path, {sampleRun()});
    QCOMPARE(loadSession(path).size(), std::size_t(1));
  }

  void valuesOutOfRangeAreRefused_data() {
    QTest::addColumn<QString>("section");
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("field");
    QTest::newRow("negative epoch") << "evals"
                                    << "epoch" << -1.0 << "runs[0].evals[1].epoch";
    QTest::newRow("ε < 0") << "evals"
                           << "epsilon" << -3.0 << "runs[0].evals[1].epsilon";
    QTest::newRow("σ < 0 in a point") << "evals"
                                      << "sigma" << -3.0 << "runs[0].evals[1].sigma";
    QTest::newRow("step going back") << "evals"
                                     << "step" << 1.0 << "runs[0].evals[1].step";
    QTest::newRow("δ = 5") << "privacy"
                           << "delta" << 5.0 << "runs[0].config.privacy.delta";
    QTest::newRow("δ = 1") << "privacy"
                           << "delta" << 1.0 << "runs[0].config.privacy.delta";
    QTest::newRow("σ = −3") << "privacy"
                            << "noise_multiplier" << -3.0 << "runs[0].config.privacy.noise";
    QTest::newRow("negative epochs") << "training"
                                     << "epochs" << -2.0 << "runs[0].config.training.epochs";
    QTest::newRow("negative lot") << "training"
                                  << "lot_size" << -800.0 << "runs[0].config.training.lot_size";
  }
  void valuesOutOfRangeAreRefused() {
    QFETCH(QString, section);
    QFETCH(QString, key);
    QFETCH(double, value);
    QFETCH(QString, field);
    const QString error = openError(editedSession(setIn(section, key, value)));
    QVERIFY2(error.contains(field), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("(run 'noise one')")), qPrintable(error));
    QVERIFY2(error.size() < 2048, qPrintable(error.left(300)));
  }

  void aKeyGivenTwiceIsRefused_data() {
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("field");
    QTest::newRow("conflicting δ")
        << QByteArray("\"delta\":1e-05") << QByteArray("\"delta\":1e-05,\"delta\":0.5")
        << "runs[0].config.privacy.delta";
    QTest::newRow("the same name, escaped")
        << QByteArray("\"name\":\"noise one\"")
        << QByteArray("\"name\":\"noise one\",\"n\\u0061me\":\"other\"") << "runs[0].name";
    QTest::newRow("at the top") << QByteArray("\"format\":\"epsilonlab-session\"")
                                << QByteArray("\"format\":\"epsilonlab-session\",\"format\":1")
                                << "format";
  }
  void aKeyGivenTwiceIsRefused() {
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, field);
    QByteArray bytes = compact(sessionToJson({sampleRun()}));
    QVERIFY2(bytes.contains(from), bytes.constData());
    bytes.replace(from, to);
    const QString error = openError(bytes);
    QVERIFY2(error.contains(field + QStringLiteral(": given twice")), qPrintable(error));
  }

  void duplicateKeysAreFoundWhereverTheyAre() {
    const QByteArray nested = "{\"a\":1,\"b\":{\"a\":2}}";
    const QByteArray quoted = "{\"a\":\"}{\\\"a\\\":\",\"a2\":[{\"x\":1},{\"x\":2}]}";
    const QByteArray inArray = "{\"a\":[{\"x\":1},{\"y\":2,\"y\":3}]}";
    const QByteArray deep = "[{\"k\":[[],{\"p\":{\"q\":1,\"q\":1}}]}]";
    QVERIFY(!firstDuplicateKey(nested));
    QVERIFY(!firstDuplicateKey(quoted));
    QCOMPARE(firstDuplicateKey(inArray).value_or(QString()), QStringLiteral("a[1].y"));
    QCOMPARE(firstDuplicateKey(deep).value_or(QString()), QStringLiteral("[0].k[1].p.q"));
  }

  void aNulInANameIsRefused() {
    QByteArray bytes = compact(sessionToJson({sampleRun()}));
    bytes.replace("\"noise one\"", "\"noise\\u0000one\"");
    const QString error = openError(bytes);
    QVERIFY2(error.contains(QStringLiteral("runs[0].name: expected text without a NUL")),
             qPrintable(error));
  }

  void aRunFileWithNegativeCountsIsRefused() {
    QJsonObject run{
        {"format", "epsilonlab-run"},
        {"version", 1},
        {"status", "done"},
        {"experiment", QJsonObject{{"format", "epsilonlab-experiment"}, {"version", 1}}},
        {"history", QJsonArray{}},
        {"train_examples", -800}};
    const QString error = openError(compact(run), true);
    QVERIFY2(error.contains(QStringLiteral("train_examples: expected an integer in [0,")),
             qPrintable(error));
  }

  void anotherKindOfFileIsNamedAsSuch() {
    const QJsonObject figure{{"format", "epsilonlab-figure"}, {"version", 1}, {"title", "t"}};
    const QString error = openError(compact(figure));
    QVERIFY2(error.contains(QStringLiteral("not an EpsilonLab session (format is "
                                           "'epsilonlab-figure'")),
             qPrintable(error));
  }
};

QTEST_APPLESS_MAIN(TestStoredValues)
#include "test_stored_values.moc"
