#include "train_flags.h"

#include <QStringList>
#include <optional>
#include <vector>

#include "base/io/json_reader.h"
#include "cli_command.h"
#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/train/experiment_schema.h"

namespace epsilon::cli {

namespace {

using train::ExperimentConfig;
using train::ExperimentField;
using train::FieldType;

// One command-line spelling of a field: its flag, an older one, or a Boolean's --no-<word>.
struct FieldFlag {
  const ExperimentField* field;
  QString name;                  // "lot-size", "batch-size", "no-nesterov"
  std::optional<QString> fixed;  // a switch's value ("true", "false"); none: takes a value
  QString oldOf;                 // an old spelling: the flag it is the old spelling of
};

// Every spelling, in the schema's order (so --steps, after --epochs, wins).
const std::vector<FieldFlag>& fieldFlags() {
  static const std::vector<FieldFlag> table = [] {
    std::vector<FieldFlag> all;
    for (const ExperimentField& f : train::experimentFields()) {
      if (!f.persisted) continue;
      const QString flag = QString::fromStdString(f.flag());
      if (f.type == FieldType::Boolean) {
        all.push_back({&f, flag, QStringLiteral("true"), {}});
        all.push_back({&f, QStringLiteral("no-") + flag, QStringLiteral("false"), {}});
      } else {
        all.push_back({&f, flag, std::nullopt, {}});
      }
      for (const train::OldSpelling& old : f.old) {
        const QString oldFlag = QString::fromStdString(train::flagOf(old.word));
        if (old.value.empty())
          all.push_back({&f, oldFlag, std::nullopt, flag});
        else
          all.push_back({&f, oldFlag, QString::fromStdString(old.value),
                         old.value == "false" ? QStringLiteral("no-") + flag : flag});
      }
    }
    return all;
  }();
  return table;
}

// "Lot size L (expected, with Poisson sampling). [training.lot_size; default 256; an integer
// in [1, 1e+09]; examples]"
QString helpOf(const FieldFlag& flag) {
  const ExperimentField& f = *flag.field;
  const QString key = QString::fromStdString(f.name);
  if (!flag.oldOf.isEmpty())
    return QStringLiteral("Old spelling of --%1 [%2].").arg(flag.oldOf, key);
  if (flag.fixed && *flag.fixed == QStringLiteral("false"))
    return QStringLiteral("Sets %1 to false.").arg(key);
  const std::string defaults = train::fieldText(f, f.get(ExperimentConfig{}));
  QString details = key + QStringLiteral("; default ") +
                    QString::fromStdString(defaults.empty() ? "none" : defaults);
  const bool plainNumber = f.type == FieldType::Number && !f.hasRange();
  if (f.type != FieldType::Boolean && f.type != FieldType::Text &&
      f.type != FieldType::OptionalNumber && !plainNumber)
    details += QStringLiteral("; ") + QString::fromStdString(train::describeAccepted(f));
  if (!f.unit.empty()) details += QStringLiteral("; ") + QString::fromStdString(f.unit);
  return QString::fromStdString(f.help) + QStringLiteral(" [") + details + QLatin1Char(']');
}

}  // namespace

void addExperimentFlags(QCommandLineParser& parser) {
  for (const FieldFlag& flag : fieldFlags()) {
    const QString help = helpOf(flag);
    if (flag.fixed)
      parser.addOption({flag.name, help});
    else
      parser.addOption({flag.name, help, QString::fromStdString(flag.field->valueName)});
  }
}

void applyExperimentFlags(const QCommandLineParser& parser, ExperimentConfig& config) {
  const ExperimentField* lastSet = nullptr;
  QString lastFlag;
  for (const FieldFlag& flag : fieldFlags()) {
    if (!parser.isSet(flag.name)) continue;
    // Two spellings of one field (--lot-size and --batch-size, --nesterov and --no-nesterov)
    // would leave the winner to the table's order: refuse instead.
    if (lastSet == flag.field)
      throw UsageError(("--" + flag.name + ": cannot be given with --" + lastFlag).toStdString());
    if (!flag.fixed && parser.values(flag.name).size() > 1)
      throw UsageError(("--" + flag.name + " given more than once").toStdString());
    const std::string where = ("--" + flag.name).toStdString();
    const QString text = flag.fixed ? *flag.fixed : parser.value(flag.name);
    train::setField(config, *flag.field,
                    train::parseFieldText(*flag.field, text.toStdString(), where), where);
    // --epochs replaces the file's length in steps; --steps, later in the table, still wins.
    if (flag.field->name == "training.epochs") config.training.steps = 0;
    lastSet = flag.field;
    lastFlag = flag.name;
  }
  // A projection flag on a network without one would be silently ignored: say so instead.
  for (const char* flag : {"pca-dims", "pca-noise", "pca-sample"}) {
    if (parser.isSet(QLatin1String(flag)) && !config.model.usesPca()) {
      throw UsageError(std::string("--") + flag + ": only for --model pca-mlp (the network is '" +
                       clippedText(config.model.preset) + "')");
    }
  }
}

QString flagForField(const std::string& field) {
  const ExperimentField* f = train::fieldNamed(field);
  if (!f || !f->persisted) return {};
  return QStringLiteral("--") + QString::fromStdString(f->flag());
}

QList<QCommandLineOption> fieldOptions(const std::string& field, const QString& help) {
  QList<QCommandLineOption> options;
  for (const FieldFlag& flag : fieldFlags()) {
    if (flag.field->name != field || flag.fixed) continue;  // a value, not a switch
    QString text = helpOf(flag);
    if (!help.isEmpty() && flag.oldOf.isEmpty())
      text = help + QStringLiteral(" [") + QString::fromStdString(field) + QLatin1Char(']');
    options.append({flag.name, text, QString::fromStdString(flag.field->valueName)});
  }
  return options;
}

QString givenFlag(const QCommandLineParser& parser, const std::string& field) {
  QString first;
  for (const FieldFlag& flag : fieldFlags()) {
    if (flag.field->name != field || flag.fixed) continue;
    if (first.isEmpty()) first = flag.name;
    if (parser.isSet(flag.name)) return flag.name;
  }
  return first;
}

bool fieldFlagSet(const QCommandLineParser& parser, const std::string& field) {
  return parser.isSet(givenFlag(parser, field));
}

void rethrowNamingFlag(const ConfigError& e) {
  const std::string message = e.what();
  const auto colon = message.find(':');
  const QString flag =
      colon == std::string::npos ? QString() : flagForField(message.substr(0, colon));
  if (flag.isEmpty()) throw e;
  throw ConfigError(message.substr(0, colon) + " (" + flag.toStdString() + ")" +
                    message.substr(colon));
}

QStringList experimentFlagNames() {
  QStringList names;
  for (const FieldFlag& flag : fieldFlags()) names << flag.name;
  return names;
}

}  // namespace epsilon::cli
