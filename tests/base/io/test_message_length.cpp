// Error messages quote at most 80 characters of any value, key or path: a megabyte of text as
// an unknown key, a `format`, a wrong-typed value or a bad enumerator comes back as a message
// under 2 KB that still names the field.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "base/io/experiment_json.h"
#include "base/io/figure_file.h"
#include "base/io/json_reader.h"
#include "base/io/lesson_file.h"
#include "base/io/preset_file.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

const QString kHuge(1 << 20, QLatin1Char('k'));

template <class Read>
QString errorOf(Read read) {
  try {
    read();
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

void checkShort(const QString& error, const QString& named) {
  QVERIFY2(!error.isEmpty(), "no error");
  QVERIFY2(error.toUtf8().size() < 2048, qPrintable(error.left(200)));
  QVERIFY2(error.contains(named), qPrintable(error));
  QVERIFY2(error.contains(QStringLiteral("(1048576 bytes)")), qPrintable(error));
}

QJsonObject figure() {
  return QJsonDocument::fromJson(R"({"format": "epsilonlab-figure", "version": 1,
    "x": {"title": "x"}, "y": {"title": "y"},
    "series": [{"name": "a", "points": [[0, 1], [1, 2]]}]})")
      .object();
}

}  // namespace

class TestMessageLength : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void clippedQuotesEightyCharacters() {
    QCOMPARE(clipped(QStringLiteral("short")), QStringLiteral("short"));
    const QString c = clipped(QString(100, QChar(0x03b5)));  // ε: 2 bytes each
    QCOMPARE(c, QString(80, QChar(0x03b5)) + QStringLiteral("… (200 bytes)"));
  }

  void unknownKey() {
    QJsonObject json{{"format", "epsilonlab-experiment"}, {"version", 1}};
    json.insert(kHuge, 1);
    checkShort(errorOf([&] { experimentFromJson(json); }), QStringLiteral("unknown key"));
  }

  void wrongType() {
    const QJsonObject json{{"format", "epsilonlab-experiment"},
                           {"version", 1},
                           {"privacy", QJsonObject{{"noise_multiplier", kHuge}}}};
    checkShort(errorOf([&] { experimentFromJson(json); }),
               QStringLiteral("privacy.noise_multiplier"));
  }

  void formatOfLessonAndPreset() {
    const QJsonObject json{{"format", kHuge}, {"version", 1}};
    checkShort(errorOf([&] { lessonFromJson(json, QStringLiteral("l.json")); }),
               QStringLiteral("format"));
    checkShort(errorOf([&] { presetFromJson(json, QStringLiteral("p.json")); }),
               QStringLiteral("format"));
  }

  void formatAndLineOfFigure() {
    const QString dir = QDir::tempPath();
    QJsonObject bad = figure();
    bad.insert(QStringLiteral("format"), kHuge);
    const QString path = QDir(dir).filePath(QStringLiteral("epsilon-huge-format.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(bad).toJson());
    file.close();
    checkShort(errorOf([&] { loadFigure(path); }), QStringLiteral("format"));
    QFile::remove(path);
  }

  void pathOfAMissingFile() {
    const QString path = QStringLiteral("/nonexistent/") + kHuge + QStringLiteral(".json");
    const QString error = errorOf([&] { readJsonObjectFile(path, 1 << 20, QStringLiteral("x")); });
    QVERIFY2(error.toUtf8().size() < 2048, qPrintable(error.left(200)));
    QVERIFY2(error.contains(QStringLiteral("/nonexistent/kkk")), qPrintable(error));
  }
};

QTEST_APPLESS_MAIN(TestMessageLength)
#include "test_message_length.moc"
