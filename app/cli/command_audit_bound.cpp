// `epsilonlab-cli audit-bound`: the one-run audit's empirical lower bound ε̂ alone (Steinke,
// Nasr & Jagielski 2023) from m canaries, r guesses and v correct ones, for scripts and for
// checking the number `audit` prints.
#include <QCommandLineParser>
#include <QJsonObject>

#include "cli_options.h"
#include "core/audit/one_run_bound.h"

namespace epsilon::cli {

namespace {

int runAuditBound(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Empirical lower bound on epsilon from a one-run privacy audit: the largest epsilon whose\n"
      "p-value P[>= V correct of R guesses | (epsilon, delta)-DP, M canaries] is below 1 - C\n"
      "(Steinke, Nasr & Jagielski 2023). Example:\n"
      "  epsilonlab-cli audit-bound --canaries 1000 --guesses 100 --correct 90 --delta 1e-5"));
  parser.addOptions({
      {QStringLiteral("canaries"),
       QStringLiteral("Canaries M, each included with probability 1/2."), QStringLiteral("M")},
      {QStringLiteral("guesses"), QStringLiteral("Guesses R (0 <= R <= M), abstentions excluded."),
       QStringLiteral("R")},
      {QStringLiteral("correct"), QStringLiteral("Correct guesses V (0 <= V <= R)."),
       QStringLiteral("V")},
      {QStringLiteral("delta"),
       QStringLiteral("delta of the (epsilon, delta)-DP claim tested, in [0, 1]."),
       QStringLiteral("D")},
      {QStringLiteral("confidence"), QStringLiteral("Confidence C in (0, 1) (default 0.95)."),
       QStringLiteral("C"), QStringLiteral("0.95")},
  });
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("audit-bound")))
    return *exitCode;

  const long long m = readInteger(parser, QStringLiteral("canaries"));
  const long long r = readInteger(parser, QStringLiteral("guesses"));
  const long long v = readInteger(parser, QStringLiteral("correct"));
  const double delta = readDouble(parser, QStringLiteral("delta"));
  const double confidence = readOptionalDouble(parser, QStringLiteral("confidence")).value_or(0.95);
  if (m < 1) throw UsageError("--canaries: expected an integer >= 1, got " + std::to_string(m));
  if (r < 0 || r > m) {
    throw UsageError("--guesses: expected an integer in [0, --canaries = " + std::to_string(m) +
                     "], got " + std::to_string(r));
  }
  if (v < 0 || v > r) {
    throw UsageError("--correct: expected an integer in [0, --guesses = " + std::to_string(r) +
                     "], got " + std::to_string(v));
  }
  requireRange(QStringLiteral("delta"), delta, 0.0, 1.0, false, false);
  requireRange(QStringLiteral("confidence"), confidence, 0.0, 1.0, true, true);

  const double epsilon = audit::oneRunEpsilonLowerBound(m, r, v, delta, confidence);
  printJsonLine(QJsonObject{
      {QStringLiteral("epsilon_lower_bound"), epsilon},
      {QStringLiteral("canaries"), m},
      {QStringLiteral("guesses"), r},
      {QStringLiteral("correct"), v},
      {QStringLiteral("delta"), delta},
      {QStringLiteral("confidence"), confidence},
      {QStringLiteral("p_value_at_zero"), audit::oneRunPValue(m, r, v, 0.0, delta)},
  });
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("audit-bound",
                    "Empirical epsilon lower bound of a one-run audit from its guess counts.",
                    runAuditBound);

}  // namespace epsilon::cli
