#include "base/io/train_command.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>

#include "base/io/experiment_json.h"
#include "core/train/experiment_schema.h"

namespace epsilon::ui {

QString shellQuoted(const QString& text) {
  static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./=,:+@%-]+$"));
  if (!text.isEmpty() && plain.match(text).hasMatch()) return text;
  QString quoted = text;
  quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
  return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString trainCommandLine(const train::ExperimentConfig& config) {
  const train::ExperimentConfig defaults;
  QStringList words{QStringLiteral("epsilonlab-cli"), QStringLiteral("train")};
  for (const train::ExperimentField& field : train::experimentFields()) {
    if (!field.persisted) continue;
    const train::FieldValue value = field.get(config);
    if (value == field.get(defaults)) continue;
    const QString flag = QString::fromStdString(field.flag());
    if (field.type == train::FieldType::Boolean) {
      words << (std::get<bool>(value) ? QStringLiteral("--") : QStringLiteral("--no-")) + flag;
      continue;
    }
    words << QStringLiteral("--") + flag
          << shellQuoted(QString::fromStdString(train::fieldText(field, value)));
  }
  return words.join(QLatin1Char(' '));
}

QString settingsClipboardText(const train::ExperimentConfig& config) {
  return QString::fromUtf8(
             QJsonDocument(experimentToJson(config)).toJson(QJsonDocument::Indented)) +
         QLatin1Char('\n') + trainCommandLine(config) + QLatin1Char('\n');
}

}  // namespace epsilon::ui
