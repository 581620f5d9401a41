#include "base/io/lesson_file.h"

#include <QRegularExpression>

#include "base/io/json_reader.h"
#include "base/io/preset_file.h"
#include "core/common/errors.h"
#include "core/train/run_planning.h"
#include "core/train/teaching_defaults.h"

namespace epsilon::ui {

namespace {

const QStringList& lessonViews() {
  static const QStringList views{"accuracy-epoch", "epsilon-epoch",  "accuracy-epsilon",
                                 "loss",           "gradient-norms", "decision-boundary",
                                 "privacy-budget", "sweep-map",      "per-class"};
  return views;
}

void readHeader(JsonReader& r, const QJsonObject& json) {
  if (r.string(QStringLiteral("format"), true) != QLatin1String(kLessonFormat))
    r.fail(QStringLiteral("format"), QStringLiteral("expected \"%1\", got %2")
                                         .arg(kLessonFormat, describeJson(json.value("format"))));
  if (r.number(QStringLiteral("version"), true, 0) != kLessonVersion)
    r.fail(QStringLiteral("version"), QStringLiteral("expected %1, got %2")
                                          .arg(kLessonVersion)
                                          .arg(describeJson(json.value("version"))));
}

void readSetup(JsonReader& r, Lesson& lesson) {
  JsonReader setup = r.child(QStringLiteral("setup"), true);
  setup.allowOnly({"kind", "experiment", "sweep"});
  const QString kind = setup.string(QStringLiteral("kind"), true);
  if (kind != QLatin1String("train"))
    setup.fail(QStringLiteral("kind"),
               QStringLiteral("expected \"train\", got \"%1\"").arg(clipped(kind)));
  lesson.experiment = setup.object(QStringLiteral("experiment"), true);
  lesson.dataset = lesson.experiment.value("dataset").toObject().value("name").toString();
  if (lesson.dataset.isEmpty())
    setup.fail(QStringLiteral("experiment"),
               QStringLiteral("expected dataset.name (the lesson's data set)"));
  lesson.sweep = readSweepAxes(setup, QStringLiteral("sweep"));
  setup.finish();
}

Lesson readLesson(const QJsonObject& json, const QString& file) {
  JsonReader r(json, QString());
  r.allowOnly({"format", "version", "name", "title", "minutes", "text", "setup", "question",
               "answer", "look_at"});
  readHeader(r, json);
  Lesson lesson;
  lesson.file = file;
  lesson.name = r.string(QStringLiteral("name"), true);
  if (!QRegularExpression(QStringLiteral("^[a-z0-9-]+$")).match(lesson.name).hasMatch())
    r.fail(
        QStringLiteral("name"),
        QStringLiteral("expected lower-case letters, digits and '-', got \"%1\"").arg(lesson.name));
  lesson.title = r.string(QStringLiteral("title"), true);
  lesson.minutes = static_cast<int>(r.integer(QStringLiteral("minutes"), 5, 20, 0, true));
  lesson.text = r.string(QStringLiteral("text"), true);
  lesson.question = r.string(QStringLiteral("question"), true);
  lesson.answer = r.string(QStringLiteral("answer"), true);
  lesson.lookAt = r.strings(QStringLiteral("look_at"), true);
  for (const QString& view : lesson.lookAt)
    if (!lessonViews().contains(view))
      r.fail(QStringLiteral("look_at"), QStringLiteral("unknown view \"%1\"; expected one of %2")
                                            .arg(view, lessonViews().join(QStringLiteral(", "))));
  readSetup(r, lesson);
  r.finish();
  return lesson;
}

}  // namespace

Lesson lessonFromJson(const QJsonObject& json, const QString& file) {
  try {
    return readLesson(json, file);
  } catch (const ConfigError& e) {
    throw ConfigError(file.toStdString() + ": " + e.what());
  }
}

Lesson readLessonFile(const QString& path) {
  constexpr qint64 kMaxLessonBytes = 1 << 20;
  return lessonFromJson(readJsonObjectFile(path, kMaxLessonBytes, QStringLiteral("lesson")), path);
}

train::ExperimentConfig lessonBaseConfig(const Lesson& lesson) {
  const train::ExperimentConfig defaults = train::defaultConfigFor(lesson.dataset.toStdString());
  return applyExperimentPatch(defaults, lesson.experiment,
                              lesson.file + QStringLiteral(": setup.experiment"));
}

std::vector<train::SweepPoint> lessonPoints(const Lesson& lesson) {
  const train::ExperimentConfig base = lessonBaseConfig(lesson);
  // The data set must exist before the lesson changes anything: a missing one was found only
  // by each run failing after the lesson had opened.
  try {
    train::planInput(base);
  } catch (const std::exception& e) {
    throw ConfigError(
        (lesson.file + QStringLiteral(": setup.experiment.dataset.name: ")).toStdString() +
        e.what());
  }
  if (!lesson.sweep.empty()) {
    auto points = train::expandSweep(base, lesson.sweep);
    // A target_epsilon axis: each point's σ₀ for its own settings (the one calibration).
    train::calibrateSweep(points,
                          [](const train::ExperimentConfig& c) { return train::planInput(c); });
    return points;
  }
  train::SweepPoint only;
  only.config = base;
  return {only};
}

}  // namespace epsilon::ui
