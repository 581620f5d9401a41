// Fuzz target: the CLI's numeric flag parsing. Each input line is one argument of
// `epsilonlab-cli train`; the flags are parsed and applied over a default ExperimentConfig,
// which is then validated and planned (steps per epoch, total steps, units per lot), as the
// train command does before any data is loaded. Also the shared readers of cli_options.h
// (--value, --count) and sweep shards (--shard). Only UsageError and the engine's typed
// errors are clean rejections.
#include <QCommandLineParser>
#include <QStringList>
#include <cstdint>

#include "app/cli/cli_command.h"
#include "app/cli/cli_options.h"
#include "app/cli/train_flags.h"
#include "core/train/sweep.h"
#include "fuzz_support.h"

namespace {

QStringList argumentsOf(std::string_view text) {
  QStringList arguments{QStringLiteral("train")};
  const QString all = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
  for (const QString& line : all.split(QLatin1Char('\n'))) arguments.push_back(line);
  return arguments;
}

void parseAndPlan(const QStringList& arguments) {
  using namespace epsilon;
  QCommandLineParser parser;
  cli::addExperimentFlags(parser);
  parser.addOption({QStringLiteral("value"), QStringLiteral("a number"), QStringLiteral("X")});
  parser.addOption({QStringLiteral("count"), QStringLiteral("an integer"), QStringLiteral("N")});
  parser.addOption({QStringLiteral("shard"), QStringLiteral("K/N"), QStringLiteral("K/N")});
  if (!parser.parse(arguments)) return;  // unknown flag or missing value: a UsageError in the CLI
  if (const auto value = cli::readOptionalDouble(parser, QStringLiteral("value"))) {
    cli::requireRange(QStringLiteral("value"), *value, 0.0, 1.0, true, false);
  }
  cli::readOptionalInteger(parser, QStringLiteral("count"));
  if (parser.isSet(QStringLiteral("shard"))) {
    train::parseShard(parser.value(QStringLiteral("shard")).toStdString());
  }
  train::ExperimentConfig config;
  cli::applyExperimentFlags(parser, config);
  config.validate();
  for (const long long trainSize : {1LL, 60'000LL, 1'000'000'000LL}) {
    config.totalSteps(trainSize);
    config.stepsPerEpoch(trainSize);
  }
  config.expectedUnitsPerLot();
  config.microbatchSlots();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const QStringList arguments = argumentsOf(epsilon::fuzz::asText(data, size));
  try {
    epsilon::fuzz::expectCleanRejection([&] { parseAndPlan(arguments); });
  } catch (const epsilon::cli::UsageError&) {
    // A bad flag value, named in the message: rejected cleanly.
  }
  return 0;
}
