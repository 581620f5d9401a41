// `epsilonlab-cli audit`: trains one experiment with m audit canaries mixed into its data,
// then prints one JSON object: the loss-threshold membership attack on the final model
// (Yeom et al. 2018: AUC, TPR at FPR 1% and 0.1%), the one-run audit's empirical lower bound
// ε̂ (Steinke, Nasr & Jagielski 2023) and the accountant's upper bound ε with its δ,
// accountant and sampling assumption. --plot draws the ROC curves over the accountant's bound.
// --attack lira adds the likelihood-ratio attack (Carlini et al. 2022) with shadow models
// trained like the audited run, on the same members and non-members. The run is kept in the
// session model the GUI uses (base/session/batch_runs.h, landAudit): --session writes it with
// its audit as File › Save session does.
#include <tbb/task_arena.h>

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <optional>

#include "audit_plot.h"
#include "base/io/attack_record.h"
#include "base/io/lira_shadow_file.h"
#include "base/session/batch_runs.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "cli_options.h"
#include "core/audit/lira.h"
#include "core/audit/run_attack.h"
#include "core/common/errors.h"
#include "core/common/text.h"
#include "core/data/registry.h"
#include "experiment_json.h"
#include "privacy_flags.h"
#include "reproduce_plot.h"
#include "train_flags.h"

namespace epsilon::cli {

namespace {

const char* const kGuessSelection =
    "k+ = k- = k searched over a grid fixed in advance (m/100, m/40, m/20, m/10, m/4, m/2); "
    "each k tested at level (1 - confidence)/|grid| (Bonferroni), so the bound holds at the "
    "stated confidence for the whole search";

audit::AuditOptions readAuditOptions(const QCommandLineParser& parser) {
  audit::AuditOptions options;
  options.canaries = readOptionalInteger(parser, QStringLiteral("canaries")).value_or(1000);
  if (options.canaries < 2 || options.canaries > 1000000) {
    throw UsageError("--canaries: expected an integer in [2, 1000000], got " +
                     std::to_string(options.canaries));
  }
  const QString kind = parser.isSet(QStringLiteral("canary-kind"))
                           ? parser.value(QStringLiteral("canary-kind"))
                           : QStringLiteral("mislabel");
  if (kind != QStringLiteral("mislabel") && kind != QStringLiteral("ood")) {
    throw UsageError("--canary-kind: expected mislabel or ood, got '" +
                     ui::clipped(kind).toStdString() + "'");
  }
  options.kind = audit::parseCanaryKind(kind.toStdString());
  options.confidence = readOptionalDouble(parser, QStringLiteral("confidence")).value_or(0.95);
  requireRange(QStringLiteral("confidence"), options.confidence, 0.0, 1.0, true, true);
  return options;
}

// --attack, --shadows, --lira: empty when the attack is the loss threshold alone. Read before
// any training, so a bad value costs nothing.
std::optional<audit::LiraOptions> readLiraOptions(const QCommandLineParser& parser,
                                                  const train::ExperimentConfig& config) {
  const QString attack = parser.isSet(QStringLiteral("attack"))
                             ? parser.value(QStringLiteral("attack"))
                             : QStringLiteral("loss");
  if (attack != QStringLiteral("loss") && attack != QStringLiteral("lira")) {
    throw UsageError("--attack: expected loss or lira, got '" + clippedText(attack.toStdString()) +
                     "'");
  }
  if (attack == QStringLiteral("loss")) {
    for (const char* flag : {"shadows", "lira", "shadow-dir"}) {
      if (parser.isSet(QString::fromLatin1(flag)))
        throw UsageError(std::string("--") + flag + ": only with --attack lira");
    }
    return std::nullopt;
  }
  audit::LiraOptions options;
  const auto shadows = readOptionalInteger(parser, QStringLiteral("shadows")).value_or(16);
  if (shadows < 2 || shadows > audit::kMaxShadows) {
    throw UsageError("--shadows: expected an integer in [2, " + std::to_string(audit::kMaxShadows) +
                     "], got " + std::to_string(shadows));
  }
  options.shadows = static_cast<int>(shadows);
  if (parser.isSet(QStringLiteral("lira"))) {
    try {
      options.test = audit::parseLiraTest(parser.value(QStringLiteral("lira")).toStdString());
    } catch (const ConfigError&) {
      throw UsageError("--lira: expected online or offline, got '" +
                       clippedText(parser.value(QStringLiteral("lira")).toStdString()) + "'");
    }
  }
  try {
    audit::requireShadowable(config);
  } catch (const ConfigError& e) {
    throw UsageError(std::string("--attack lira: ") + e.what());
  }
  return options;
}

QJsonObject rocToJson(const audit::RocCurve& roc) {
  QJsonArray fpr, tpr;
  for (std::size_t i = 0; i < roc.fpr.size(); ++i) {
    fpr.append(roc.fpr[i]);
    tpr.append(roc.tpr[i]);
  }
  return {{QStringLiteral("fpr"), fpr}, {QStringLiteral("tpr"), tpr}};
}

QJsonObject auditToJson(const audit::AuditResult& r, const audit::AuditOptions& options) {
  // The audited run's statement, the run's own, and why they differ (the canaries).
  QJsonObject upper;
  insertStatement(upper, r.upper);
  upper.insert(QStringLiteral("run_own_epsilon"), jsonNumber(r.runOwn.epsilon));
  upper.insert(QStringLiteral("why_it_differs"), ui::auditedEpsilonNote(r));
  QJsonArray grid;
  for (const long long k : audit::defaultGuessGrid(options.canaries)) grid.append(k);
  return {
      {QStringLiteral("auc"), r.attack.auc},
      {QStringLiteral("tpr_at_fpr"),
       QJsonObject{{QStringLiteral("0.01"), r.attack.tprAtFpr1Percent},
                   {QStringLiteral("0.001"), r.attack.tprAtFpr01Percent}}},
      {QStringLiteral("advantage"), r.attack.advantage},
      {QStringLiteral("yeom_advantage"), r.attack.yeomAdvantage},
      {QStringLiteral("members"), r.attack.members},
      {QStringLiteral("non_members"), r.attack.nonMembers},
      {QStringLiteral("canaries"), r.bound.canaries},
      {QStringLiteral("canary_kind"), QString::fromStdString(audit::canaryKindName(options.kind))},
      {QStringLiteral("canaries_included"), r.canariesIncluded},
      {QStringLiteral("canary_auc"), r.canaryAuc},
      {QStringLiteral("guesses"), r.bound.guesses},
      {QStringLiteral("correct"), r.bound.correct},
      {QStringLiteral("k_plus"), r.bound.k},
      {QStringLiteral("k_minus"), r.bound.k},
      {QStringLiteral("guess_grid"), grid},
      {QStringLiteral("guess_selection"), QString::fromUtf8(kGuessSelection)},
      {QStringLiteral("epsilon_lower_bound"), r.bound.epsilonLowerBound},
      {QStringLiteral("confidence"), r.bound.confidence},
      {QStringLiteral("epsilon_upper_bound"), upper},
      {QStringLiteral("test_accuracy"), r.testAccuracy},
      {QStringLiteral("train_size"), r.run.trainSize},
      {QStringLiteral("steps"), r.run.history.back().step},
      {QStringLiteral("train_seconds"), r.run.elapsedSeconds},
      {QStringLiteral("attack_seconds"), r.attackSeconds},
  };
}

QJsonObject liraToJson(const audit::LiraAttack& lira) {
  return {
      {QStringLiteral("auc"), lira.attack.auc},
      {QStringLiteral("tpr_at_fpr"),
       QJsonObject{{QStringLiteral("0.01"), lira.attack.tprAtFpr1Percent},
                   {QStringLiteral("0.001"), lira.attack.tprAtFpr01Percent}}},
      {QStringLiteral("advantage"), lira.attack.advantage},
      {QStringLiteral("members"), lira.attack.members},
      {QStringLiteral("non_members"), lira.attack.nonMembers},
      {QStringLiteral("test"), QString::fromStdString(audit::liraTestName(lira.test))},
      {QStringLiteral("variance"),
       lira.globalVariance ? QStringLiteral("global") : QStringLiteral("per-example")},
      {QStringLiteral("shadows"), lira.shadows},
      {QStringLiteral("reused_shadows"), lira.reusedShadows},
      {QStringLiteral("shadow_out_accuracy"), lira.meanShadowOutAccuracy},
      {QStringLiteral("shadow_seconds"), lira.shadowSeconds},
      {QStringLiteral("attack_seconds"), lira.attackSeconds},
  };
}

void addAuditFlags(QCommandLineParser& parser) {
  parser.addOptions({
      {QStringLiteral("config"),
       QStringLiteral("Experiment file (format epsilonlab-experiment, version 1)."),
       QStringLiteral("FILE")},
      {QStringLiteral("canaries"),
       QStringLiteral("Audit canaries M, each included with probability 1/2 (default 1000)."),
       QStringLiteral("M"), QStringLiteral("1000")},
      {QStringLiteral("canary-kind"),
       QStringLiteral("mislabel (training images, wrong label) or ood (noise inputs)."),
       QStringLiteral("KIND"), QStringLiteral("mislabel")},
      {QStringLiteral("confidence"),
       QStringLiteral("Confidence of the lower bound, in (0, 1) (default 0.95)."),
       QStringLiteral("C"), QStringLiteral("0.95")},
      {QStringLiteral("attack"),
       QStringLiteral("Membership attack: loss (the loss threshold, default) or lira (also "
                      "LiRA, with shadow models trained like the audited run)."),
       QStringLiteral("ATTACK"), QStringLiteral("loss")},
      {QStringLiteral("shadows"),
       QStringLiteral("LiRA's shadow models, in [2, 256] (default 16); each costs one training "
                      "run."),
       QStringLiteral("N"), QStringLiteral("16")},
      {QStringLiteral("lira"), QStringLiteral("LiRA's test: online (default) or offline."),
       QStringLiteral("TEST"), QStringLiteral("online")},
      {QStringLiteral("shadow-dir"),
       QStringLiteral("Keep LiRA's shadows in DIR; reuse those of the same configuration, data "
                      "and members."),
       QStringLiteral("DIR")},
      {QStringLiteral("threads"), QStringLiteral("Worker threads (default: all cores)."),
       QStringLiteral("N")},
      {QStringLiteral("out"),
       QStringLiteral("Write the result with its ROC curves and the run as JSON."),
       QStringLiteral("FILE")},
      {QStringLiteral("plot"),
       QStringLiteral("Draw the ROC curves over the accountant's bound (.png, .svg or .pdf)."),
       QStringLiteral("FILE")},
      {QStringLiteral("session"),
       QStringLiteral("Also write the audited run with its audit as a session file, as File › "
                      "Save session writes it (File › Open session opens it)."),
       QStringLiteral("FILE")},
  });
  addExperimentFlags(parser);
}

// Runs the audit; a bad config or canary count is re-thrown naming the flag at fault
// (--canaries for too many mislabel canaries, the experiment's flags otherwise).
audit::AuditResult runNamingFlags(const train::ExperimentConfig& config,
                                  const data::Dataset& dataset, const audit::AuditOptions& options,
                                  int threads) {
  try {
    config.validate();
    // The canaries and the checks against the data (lot ≤ training examples, …) come first
    // in runAudit, before any step is trained.
    audit::AuditResult result;
    tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
    arena.execute([&] { result = audit::runAudit(config, dataset, options); });
    return result;
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    const std::string field = "audit.canaries";
    if (message.rfind(field, 0) == 0) throw UsageError("--canaries" + message.substr(field.size()));
    rethrowNamingFlag(e);
  }
}

// --out (the result with its ROC curves and the run) and --plot (the ROC over the bound).
void writeOutputs(const QCommandLineParser& parser, const audit::AuditResult& result,
                  const audit::AuditOptions& options, const std::optional<audit::LiraAttack>& lira,
                  const QJsonObject& json) {
  if (parser.isSet(QStringLiteral("out"))) {
    QJsonObject full = json;
    full.insert(QStringLiteral("roc"), rocToJson(result.attack.roc));
    if (lira) full.insert(QStringLiteral("lira_roc"), rocToJson(lira->attack.roc));
    full.insert(QStringLiteral("canary_roc"), rocToJson(result.canaryRoc));
    full.insert(QStringLiteral("run"), runToJson(result.run));
    writeFileAtomically(parser.value(QStringLiteral("out")),
                        QJsonDocument(full).toJson(QJsonDocument::Indented));
  }
  if (parser.isSet(QStringLiteral("plot"))) {
    const QString path = parser.value(QStringLiteral("plot"));
    const QString error = plotAudit(result, audit::runTradeoffBound(result.run), options.confidence,
                                    path, lira ? &*lira : nullptr);
    if (!error.isEmpty()) throw UsageError("--plot: " + error.toStdString());
  }
}

// --session: the model's run and its audit; a file that cannot be written is a failure of
// the work (exit 1), as for `sweep --session`.
int saveSession(const QCommandLineParser& parser, ui::Session& session) {
  if (!parser.isSet(QStringLiteral("session"))) return kExitOk;
  try {
    session.save(parser.value(QStringLiteral("session")));
  } catch (const std::runtime_error& e) {
    QTextStream(stderr) << "epsilonlab-cli audit: " << e.what() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

// LiRA on the audited run: its shadows train the run's configuration on its data (canaries
// included). With `shadowDir`, shadows kept there for the same run are reused and the set used
// is kept (ui::runLiraKeepingShadows); what could not be read or kept is said on stderr.
audit::LiraAttack runLiraOnAudit(const audit::AuditResult& result,
                                 const audit::LiraOptions& options, const QString& shadowDir,
                                 int threads) {
  // One line on stderr as each shadow starts (stdout keeps the one JSON object).
  int announced = -1;
  const audit::ShadowProgress progress = [&](int shadow, int shadows, const train::ProgressEvent&) {
    if (shadow == announced) return;
    announced = shadow;
    QTextStream(stderr) << "epsilonlab-cli audit: LiRA shadow " << shadow + 1 << " of " << shadows
                        << "\n";
  };
  audit::LiraAttack lira;
  QStringList warnings;
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    lira = ui::runLiraKeepingShadows(*result.run.model, result.run.config, *result.trainingData,
                                     result.baseTrainSize, options, shadowDir, progress, nullptr,
                                     &warnings);
  });
  for (const QString& warning : warnings)
    QTextStream(stderr) << "epsilonlab-cli audit: --shadow-dir: " << warning << "\n";
  return lira;
}

int runAuditCommand(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Train with audit canaries and measure privacy: membership-inference AUC and "
                     "TPR at low FPR,\n"
                     "and the one-run audit's lower bound on epsilon beside the accountant's upper "
                     "bound. Example:\n"
                     "  epsilonlab-cli audit --dataset mnist-10k --noise-multiplier 1.1 --epochs 5 "
                     "--canaries 1000"));
  addAuditFlags(parser);
  if (const auto exitCode = parseOrExplain(parser, arguments, QStringLiteral("audit")))
    return *exitCode;

  train::ExperimentConfig config;
  if (parser.isSet(QStringLiteral("config")))
    config = readExperimentFile(parser.value(QStringLiteral("config")), config,
                                parser.isSet(QStringLiteral("dataset")));
  applyExperimentFlags(parser, config);
  const audit::AuditOptions options = readAuditOptions(parser);
  const std::optional<audit::LiraOptions> liraOptions = readLiraOptions(parser, config);
  const auto threads = readOptionalInteger(parser, QStringLiteral("threads"));
  if (threads && (*threads < 1 || *threads > 1024)) {
    throw UsageError("--threads: expected an integer in [1, 1024], got " +
                     std::to_string(*threads));
  }
  if (parser.isSet(QStringLiteral("plot")))
    requirePlotting("--plot", parser.value(QStringLiteral("plot")));
  const data::Dataset dataset = data::loadDataset(config.dataset.name, config.dataset.options);

  const QString shadowDir = parser.value(QStringLiteral("shadow-dir"));
  if (!shadowDir.isEmpty() && !QDir().mkpath(shadowDir)) {
    throw UsageError("--shadow-dir: cannot create the folder '" +
                     clippedText(shadowDir.toStdString()) + "'");
  }
  const int threadCount = threads ? static_cast<int>(*threads) : 0;
  // The audited run enters the session model queued, as a sweep's points do, and lands there.
  ui::Session session;
  train::SweepPoint point;
  point.config = config;
  point.label = "audit with " + std::to_string(options.canaries) + " canaries";
  const int runId = ui::addPlannedRuns(*session.runs(), {point}).front();
  const audit::AuditResult result = runNamingFlags(config, dataset, options, threadCount);
  QJsonObject json = auditToJson(result, options);
  std::optional<audit::LiraAttack> lira;
  if (liraOptions) {
    const audit::LiraAttack attack = runLiraOnAudit(result, *liraOptions, shadowDir, threadCount);
    lira = attack;
    json.insert(QStringLiteral("lira"), liraToJson(attack));
  }
  ui::landAudit(*session.runs(), runId, result, options, lira);
  writeOutputs(parser, result, options, lira, json);
  printJsonLine(json);
  return saveSession(parser, session);
}

}  // namespace

EPSILON_CLI_COMMAND(
    "audit",
    "Train with canaries; print attack AUC, measured epsilon lower bound and the accountant's.",
    runAuditCommand);

}  // namespace epsilon::cli
