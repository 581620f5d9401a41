#include "cli_options.h"

#include <QJsonDocument>
#include <QTextStream>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/common/text.h"
#include "base/io/json_reader.h"

namespace epsilon::cli {

std::map<QString, Command>& commandRegistry() {
  static std::map<QString, Command> registry;
  return registry;
}

std::optional<int> parseOrExplain(QCommandLineParser& parser, const QStringList& arguments,
                                  const QString& commandName, bool allowPositionals) {
  const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                QStringLiteral("Show this help."));
  parser.addOption(help);
  if (!parser.parse(arguments)) {
    throw UsageError(clippedText(parser.errorText().toStdString()));
  }
  if (parser.isSet(help)) {
    QTextStream(stdout) << parser.helpText().replace(QStringLiteral("[options]"),
                                                     commandName + QStringLiteral(" [options]"));
    return kExitOk;
  }
  if (!allowPositionals && !parser.positionalArguments().isEmpty()) {
    throw UsageError(QStringLiteral("unexpected argument '%1'")
                         .arg(ui::clipped(parser.positionalArguments().first()))
                         .toStdString());
  }
  return std::nullopt;
}

namespace {
[[noreturn]] void badValue(const QString& flag, const QString& expected, const QString& got) {
  throw UsageError(QStringLiteral("--%1: expected %2, got '%3'")
                       .arg(flag, expected, ui::clipped(got))
                       .toStdString());
}
}  // namespace

std::optional<double> readOptionalDouble(const QCommandLineParser& parser, const QString& flag) {
  if (!parser.isSet(flag)) return std::nullopt;
  const QString text = parser.value(flag);
  bool ok = false;
  const double value = text.toDouble(&ok);
  if (!ok || !std::isfinite(value)) badValue(flag, QStringLiteral("a finite number"), text);
  return value;
}

std::optional<long long> readOptionalInteger(const QCommandLineParser& parser,
                                             const QString& flag) {
  if (!parser.isSet(flag)) return std::nullopt;
  const QString text = parser.value(flag);
  bool ok = false;
  const long long value = text.toLongLong(&ok);
  if (!ok) badValue(flag, QStringLiteral("an integer"), text);
  return value;
}

double readDouble(const QCommandLineParser& parser, const QString& flag) {
  const auto value = readOptionalDouble(parser, flag);
  if (!value) throw UsageError(QStringLiteral("--%1 is required").arg(flag).toStdString());
  return *value;
}

long long readInteger(const QCommandLineParser& parser, const QString& flag) {
  const auto value = readOptionalInteger(parser, flag);
  if (!value) throw UsageError(QStringLiteral("--%1 is required").arg(flag).toStdString());
  return *value;
}

void requireRange(const QString& flag, double value, double low, double high, bool lowOpen,
                  bool highOpen) {
  const bool aboveLow = lowOpen ? value > low : value >= low;
  const bool belowHigh = highOpen ? value < high : value <= high;
  if (!aboveLow || !belowHigh || std::isnan(value)) {
    const QString range = QStringLiteral("%1%2, %3%4")
                              .arg(lowOpen ? QStringLiteral("(") : QStringLiteral("["))
                              .arg(low)
                              .arg(high)
                              .arg(highOpen ? QStringLiteral(")") : QStringLiteral("]"));
    throw UsageError(QStringLiteral("--%1: expected a value in %2, got %3")
                         .arg(flag, range)
                         .arg(value)
                         .toStdString());
  }
}

void requirePositive(const QString& flag, double value) {
  requireRange(flag, value, 0.0, std::numeric_limits<double>::infinity(), true, true);
}

void printJsonLine(const QJsonObject& object) {
  const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
  std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace epsilon::cli
