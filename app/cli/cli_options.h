// Parsing helpers shared by the CLI commands: a QCommandLineParser that reports unknown
// flags as UsageError, and typed readers that name the flag and the bad value.
#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <optional>

#include "cli_command.h"

namespace epsilon::cli {

// Parses `arguments` (argv of the command) with `parser`; --help prints and exits 0 via
// the returned value; unknown flags and stray positionals throw UsageError.
// Returns an exit code to return immediately (help shown), or nullopt to go on.
std::optional<int> parseOrExplain(QCommandLineParser& parser, const QStringList& arguments,
                                  const QString& commandName, bool allowPositionals = false);

// Typed readers. Each throws UsageError("--flag: expected ..., got '...'").
double readDouble(const QCommandLineParser& parser, const QString& flag);
long long readInteger(const QCommandLineParser& parser, const QString& flag);
std::optional<double> readOptionalDouble(const QCommandLineParser& parser, const QString& flag);
std::optional<long long> readOptionalInteger(const QCommandLineParser& parser, const QString& flag);

// Range checks that name the flag.
void requireRange(const QString& flag, double value, double low, double high, bool lowOpen,
                  bool highOpen);
void requirePositive(const QString& flag, double value);

// Prints a JSON object on one line to stdout.
void printJsonLine(const QJsonObject& object);

}  // namespace epsilon::cli
