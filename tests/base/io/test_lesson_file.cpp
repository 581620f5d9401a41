// The lesson reader: every lesson in resources/lessons reads, its runs are its sweep over the
// data set's teaching defaults; an unknown key, a wrong format or a missing data set is an
// error naming the file and the key.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "base/io/lesson_file.h"
#include "core/common/errors.h"
#include "core/train/teaching_defaults.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {
const QString kLessons = QStringLiteral(EPSILON_SOURCE_DIR "/resources/lessons");

QJsonObject minimalLesson() {
  return QJsonDocument::fromJson(R"({"format": "epsilonlab-lesson", "version": 1, "name": "tiny",
    "title": "A tiny lesson", "minutes": 5, "text": "Some words.", "question": "Why?",
    "answer": "Because.", "look_at": ["loss"],
    "setup": {"kind": "train", "experiment": {"dataset": {"name": "xor"}},
              "sweep": [{"parameter": "noise_multiplier", "values": [0.5, 4]}]}})")
      .object();
}

QString errorOf(const QJsonObject& json) {
  try {
    lessonFromJson(json, QStringLiteral("tiny.json"));
  } catch (const ConfigError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}
}  // namespace

class TestLessonFile : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void everyBuiltInLessonReads() {
    const QStringList files = QDir(kLessons).entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(files.size() >= 5);
    for (const QString& file : files) {
      const Lesson lesson = readLessonFile(kLessons + QLatin1Char('/') + file);
      QVERIFY2(!lesson.question.isEmpty() && !lesson.text.isEmpty(), qPrintable(file));
      QVERIFY(!lessonPoints(lesson).empty());
    }
  }

  void runsAreTheSweepOverTeachingDefaults() {
    const Lesson lesson = lessonFromJson(minimalLesson(), QStringLiteral("tiny.json"));
    QCOMPARE(lesson.dataset, QStringLiteral("xor"));
    const auto points = lessonPoints(lesson);
    QCOMPARE(points.size(), std::size_t(2));
    const train::ExperimentConfig defaults = train::defaultConfigFor("xor");
    QCOMPARE(points[0].config.privacy.noise.initial, 0.5);
    QCOMPARE(points[1].config.privacy.noise.initial, 4.0);
    QCOMPARE(points[1].config.training.epochs, defaults.training.epochs);
    QCOMPARE(points[1].config.training.lotSize, defaults.training.lotSize);
  }

  void badLessonsNameTheKey() {
    QJsonObject extra = minimalLesson();
    extra.insert(QStringLiteral("colour"), QStringLiteral("red"));
    QVERIFY2(errorOf(extra).contains(QStringLiteral("colour")), qPrintable(errorOf(extra)));
    QVERIFY(errorOf(extra).contains(QStringLiteral("tiny.json")));

    QJsonObject format = minimalLesson();
    format.insert(QStringLiteral("format"), QStringLiteral("epsilonlab-preset"));
    QVERIFY2(errorOf(format).contains(QStringLiteral("format")), qPrintable(errorOf(format)));

    QJsonObject noData = minimalLesson();
    QJsonObject setup = noData.value(QStringLiteral("setup")).toObject();
    setup.insert(QStringLiteral("experiment"), QJsonObject{});
    noData.insert(QStringLiteral("setup"), setup);
    QVERIFY2(errorOf(noData).contains(QStringLiteral("dataset")), qPrintable(errorOf(noData)));

    QJsonObject view = minimalLesson();
    view.insert(QStringLiteral("look_at"), QJsonArray{QStringLiteral("pie-chart")});
    QVERIFY2(errorOf(view).contains(QStringLiteral("pie-chart")), qPrintable(errorOf(view)));
  }
};

QTEST_APPLESS_MAIN(TestLessonFile)
#include "test_lesson_file.moc"
