// --tuning DIST for `epsilon`: the run is private selection — run K times, K random, only the
// best output released (Papernot & Steinke 2022; privacy_statement.h, rdp_tuning.h). DIST is
// poisson:MEAN, geometric:MEAN, log:MEAN or tnb:MEAN:SHAPE (the truncated negative binomial of
// shape η >= 0). The output gives the tuned statement beside one run alone and ⌈μ⌉ runs
// composed, each through insertStatement (its ε with δ, accountant and sampling).
#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "cli_options.h"
#include "core/privacy/privacy_statement.h"
#include "experiment_json.h"

namespace epsilon::cli {

inline QCommandLineOption tuningOption() {
  return {QStringLiteral("tuning"),
          QStringLiteral("Private tuning: the best of K runs is released, K random with mean "
                         "MEAN >= 1: poisson:MEAN, geometric:MEAN, log:MEAN or "
                         "tnb:MEAN:SHAPE (SHAPE >= 0). Prints the tuned epsilon, one run's and "
                         "ceil(MEAN) runs composed (RDP only; Papernot & Steinke 2022)."),
          QStringLiteral("DIST")};
}

// The law `text` names; UsageError naming `flag` (e.g. "--tuning") otherwise.
inline privacy::TuningDistribution parseTuningDistribution(const QString& flag,
                                                           const QString& text) {
  const QStringList parts = text.split(QLatin1Char(':'));
  const QString& law = parts.front();
  const bool known = law == QLatin1String("poisson") || law == QLatin1String("geometric") ||
                     law == QLatin1String("log") || law == QLatin1String("tnb");
  const qsizetype expectedParts = law == QLatin1String("tnb") ? 3 : 2;
  if (!known || parts.size() != expectedParts)
    throw UsageError(QStringLiteral("%1: expected poisson:MEAN, geometric:MEAN, log:MEAN or "
                                    "tnb:MEAN:SHAPE, got '%2'")
                         .arg(flag, ui::clipped(text))
                         .toStdString());
  bool ok = false;
  const double mean = parts[1].toDouble(&ok);
  if (!ok || !(mean >= 1.0) || !std::isfinite(mean))
    throw UsageError(QStringLiteral("%1: the mean number of runs must be a finite number >= 1, "
                                    "got '%2'")
                         .arg(flag, ui::clipped(parts[1]))
                         .toStdString());
  double shape = std::numeric_limits<double>::infinity();
  if (law == QLatin1String("geometric")) shape = 1.0;
  if (law == QLatin1String("log")) shape = 0.0;
  if (law == QLatin1String("tnb")) {
    shape = parts[2].toDouble(&ok);
    if (!ok || !(shape >= 0.0) || !std::isfinite(shape))
      throw UsageError(QStringLiteral("%1: the shape must be a finite number >= 0 (0 log, 1 "
                                      "geometric), got '%2'")
                           .arg(flag, ui::clipped(parts[2]))
                           .toStdString());
  }
  return {mean, shape};
}

inline std::optional<privacy::TuningDistribution> readTuning(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("tuning"))) return std::nullopt;
  return parseTuningDistribution(QStringLiteral("--tuning"),
                                 parser.value(QStringLiteral("tuning")));
}

// `run` tuned by `distribution` into `result`: the tuned statement at the top level, the law
// under "tuning", one run alone under "one_run" and ⌈μ⌉ runs composed under "composed_runs".
// With the PLD accountant: UsageError naming `flag`.
inline privacy::PrivacyStatement insertTunedStatements(
    QJsonObject& result, privacy::PrivacyRunDescription run,
    const privacy::TuningDistribution& distribution,
    const std::string& flag = std::string("--tuning")) {
  if (run.accountant == privacy::AccountantKind::Pld)
    throw UsageError(flag +
                     ": the PLD accountant cannot bound the best of a random number of runs "
                     "(Papernot & Steinke 2022 give Renyi DP bounds only); use the RDP "
                     "accountant");
  run.tuning = distribution;
  const privacy::PrivacyStatement tuned = privacy::privacyStatement(run);
  insertStatement(result, tuned);
  QJsonObject law{
      {QStringLiteral("distribution"), QString::fromUtf8(privacy::tuningLawName(distribution))},
      {QStringLiteral("mean"), distribution.mean},
      {QStringLiteral("description"), QString::fromStdString(privacy::tuningWords(distribution))},
  };
  if (std::isfinite(distribution.shape)) law.insert(QStringLiteral("shape"), distribution.shape);
  result.insert(QStringLiteral("tuning"), law);
  QJsonObject one;
  insertStatement(one, privacy::privacyStatement(privacy::singleRun(run)));
  result.insert(QStringLiteral("one_run"), one);
  QJsonObject composed{{QStringLiteral("runs"), static_cast<qint64>(tuned.tuning->fixedRuns)}};
  insertStatement(composed,
                  privacy::privacyStatement(privacy::composedRuns(run, tuned.tuning->fixedRuns)));
  result.insert(QStringLiteral("composed_runs"), composed);
  return tuned;
}

}  // namespace epsilon::cli
