// Lessons: short guided exercises for a class (resources/lessons/*.json, built into the GUI):
// a paragraph, a set-up of the window (data set, parameters over its teaching defaults, the
// runs to start) and one question whose answer the charts show. Qt Core and JSON only.
//
// File format ("format": "epsilonlab-lesson", "version": 1), every key checked:
//   name (a-z0-9-), title, text, question, answer   strings
//   minutes               5..20
//   setup                 {"kind": "train", "experiment": {partial, with dataset.name},
//                          "sweep": [{"parameter", "values"}, ≤ 1 more]}  (sweep optional)
//   look_at               the views to watch: accuracy-epoch, epsilon-epoch, accuracy-epsilon,
//                         loss, gradient-norms, decision-boundary, privacy-budget
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/train/experiment_config.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

inline constexpr const char* kLessonFormat = "epsilonlab-lesson";
inline constexpr int kLessonVersion = 1;

struct Lesson {
  QString file;
  QString name;
  QString title;
  int minutes = 0;
  QString text;
  QString question;
  QString answer;
  QString dataset;         // setup.experiment.dataset.name
  QJsonObject experiment;  // partial, over the data set's teaching defaults
  std::vector<train::SweepAxis> sweep;
  QStringList lookAt;
};

// Throws ConfigError "<file>: <key>: …" for an unknown key, a wrong type or a missing key.
Lesson lessonFromJson(const QJsonObject& json, const QString& file);
Lesson readLessonFile(const QString& path);

// The lesson's experiment over defaultConfigFor(its data set).
train::ExperimentConfig lessonBaseConfig(const Lesson& lesson);
// The runs the lesson starts: its sweep's combinations, or the base config alone. Throws
// ConfigError naming the file and setup.experiment.dataset.name when its data set is not there.
std::vector<train::SweepPoint> lessonPoints(const Lesson& lesson);

}  // namespace epsilon::ui
