// `epsilonlab-cli reproduce`: runs the seed documents' presets (all training runs of all
// presets as parallel jobs of one JobRunner), draws their charts with the GUI's chart code,
// and writes DIR/index.html: per preset the charts, what the document reported, EpsilonLab's
// numbers and a verdict per figure (same trend or not). Every run lives in the session model
// the GUI uses (base/session/batch_runs.h); the charts are drawn from it.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QTextStream>
#include <QThread>
#include <chrono>
#include <cmath>

#include "base/io/preset_file.h"
#include "base/session/batch_runs.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "cli_options.h"
#include "core/common/errors.h"
#include "experiment_json.h"
#include "reproduce_cluster.h"
#include "reproduce_html.h"
#include "reproduce_plot.h"
#include "reproduce_runs.h"
#include "sweep_slurm.h"

namespace epsilon::cli {

namespace {

std::vector<ui::Preset> selectPresets(const QString& only) {
  const auto& all = ui::builtinPresets();
  if (only.isEmpty()) return all;
  std::vector<ui::Preset> chosen;
  for (const QString& name : only.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const ui::Preset& p) { return p.name == name.trimmed(); });
    if (it == all.end()) {
      QStringList names;
      for (const auto& p : all) names << p.name;
      throw UsageError("--only: unknown preset '" + name.toStdString() +
                       "'; expected some of: " + names.join(", ").toStdString());
    }
    chosen.push_back(*it);
  }
  return chosen;
}

// The preset's charts from its runs in the session model: the GUI's 2×2 grid, or for an
// accountant-only preset its ε chart.
void drawCharts(PresetOutcome& o, const QDir& out, bool quick, const ui::RunModel& model) {
  const QString file = o.preset.name + QStringLiteral(".png");
  const QString caption = o.preset.name + (quick ? QStringLiteral(" (quick)") : QString());
  std::vector<ui::RunRecord> runs;
  for (int id : o.runIds) runs.push_back(*model.run(id));
  const QString error = o.preset.kind == ui::PresetKind::Accountant
                            ? plotOneChart(o.points, runs, QStringLiteral("epsilon-vs-epoch"),
                                           out.filePath(file), caption)
                            : plotRunGrid(o.points, runs, out.filePath(file), caption);
  if (error.isEmpty())
    o.images << file;
  else
    o.error = error;
}

void addReproduceOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral(
      "Re-runs the experiments of the seed documents (every preset, see `presets`) and writes\n"
      "DIR/index.html with each chart beside what the document reported and a verdict per figure.\n"
      "--quick trains on small subsets for a few epochs (a few minutes on 2 cores)."));
  parser.addOptions({
      {QStringLiteral("out"),
       QStringLiteral("Folder for index.html, the charts and the CSV summaries (required)."),
       QStringLiteral("DIR")},
      {QStringLiteral("quick"), QStringLiteral("Use every preset's quick settings.")},
      {QStringLiteral("only"), QStringLiteral("Only these presets (comma-separated names)."),
       QStringLiteral("NAME,...")},
      {QStringLiteral("jobs"),
       QStringLiteral("Runs trained at the same time (default: one per core)."),
       QStringLiteral("N")},
      {QStringLiteral("run-files"),
       QStringLiteral("Also write every run's JSON file (experiment + history).")},
      {QStringLiteral("quiet"), QStringLiteral("Do not print a line per finished run.")},
      {QStringLiteral("report-only"),
       QStringLiteral("Train nothing: write the report from the run files a cluster left in "
                      "DIR/NAME after `reproduce --slurm --out DIR` (every run must have "
                      "landed; --quick and the data sets are the submission's).")},
  });
  addSlurmOptions(parser, QStringLiteral("reproduce"));
}

// Every run of every preset, planned so they all train in one pool.
struct ReproducePlan {
  std::vector<PresetOutcome> outcomes;
  std::vector<PlannedRun> planned;
  std::vector<std::pair<std::size_t, std::size_t>> owner;  // planned run -> (preset, point)
};

// `datasets`: a preset's data set by its name when already chosen (the one its cluster tasks
// ran on), else the preferred one installed here.
ReproducePlan planReproduce(const std::vector<ui::Preset>& presets, bool quick, DatasetCache& cache,
                            const QMap<QString, QString>& datasets = {}) {
  ReproducePlan plan;
  for (const ui::Preset& preset : presets) {
    PresetOutcome o;
    o.preset = preset;
    o.dataset = datasets.contains(preset.name) ? datasets.value(preset.name)
                                               : ui::chooseDataset(preset, &o.datasetNote);
    const train::ExperimentConfig base = ui::presetBaseConfig(preset, quick, o.dataset);
    o.dataset = QString::fromStdString(base.dataset.name);
    o.input = train::planInput(base, *cache.get(base.dataset));
    o.trainSize = o.input.trainSize;
    o.points = ui::presetPoints(preset, base, quick, o.input);
    for (std::size_t i = 0; i < o.points.size(); ++i) {
      plan.planned.push_back({o.points[i], preset.kind == ui::PresetKind::Accountant});
      plan.owner.emplace_back(plan.outcomes.size(), i);
    }
    o.results.resize(o.points.size());
    plan.outcomes.push_back(std::move(o));
  }
  return plan;
}

// "[3/40] preset · label: done, accuracy 91.2%, ε 2.1 (12.0 s)" on stderr.
QString progressLine(std::size_t done, std::size_t total, const QString& preset,
                     const std::string& label, const train::RunResult& r) {
  const train::ProgressEvent* last = lastEvaluation(r);
  return QStringLiteral("[%1/%2] %3 · %4: %5, accuracy %6, ε %7 (%8 s)\n")
      .arg(done)
      .arg(total)
      .arg(preset, QString::fromStdString(label),
           QString::fromStdString(train::runStatusName(r.status)),
           last && std::isfinite(last->testAccuracy)
               ? QString::number(100 * last->testAccuracy, 'f', 1) + "%"
               : QStringLiteral("–"),
           last ? QString::number(last->privacy.epsilon, 'g', 4) : QStringLiteral("–"))
      .arg(r.elapsedSeconds, 0, 'f', 1);
}

// Trains every run, each landing in its run of `model` as it finishes.
void trainAll(ReproducePlan& plan, int jobs, DatasetCache& cache, bool quiet, ui::RunModel& model) {
  for (PresetOutcome& o : plan.outcomes) o.runIds = ui::addPlannedRuns(model, o.points);
  QTextStream err(stderr);
  std::size_t done = 0;
  const auto results =
      runPlanned(plan.planned, jobs, cache, [&](std::size_t i, const train::RunResult& r) {
        const auto [preset, point] = plan.owner[i];
        ui::landResult(model, plan.outcomes[preset].runIds[point], r);
        ++done;
        if (quiet) return;
        err << progressLine(done, plan.planned.size(),
                            plan.outcomes[plan.owner[i].first].preset.name,
                            plan.planned[i].point.label, r);
        err.flush();
      });
  for (std::size_t i = 0; i < results.size(); ++i)
    plan.outcomes[plan.owner[i].first].results[plan.owner[i].second] = results[i];
}

// Per preset: its measured numbers, verdicts, runs/NAME/summary.csv (or every run file) and
// its charts.
void writePresetOutputs(std::vector<PresetOutcome>& outcomes, const QDir& out, bool quick,
                        bool runFiles, const ui::RunModel& model) {
  for (PresetOutcome& o : outcomes) {
    for (std::size_t i = 0; i < o.points.size(); ++i)
      o.measured.push_back(measureRun(o.points[i], o.results[i]));
    o.verdicts = figureVerdicts(o.preset, o.measured);
    const QString folder = QStringLiteral("runs/") + o.preset.name;
    if (runFiles) {
      writeSweepOutputs(out.filePath(folder), o.points, o.results);
    } else {
      QDir().mkpath(out.filePath(folder));
      writeFileAtomically(out.filePath(folder + QStringLiteral("/summary.csv")),
                          summaryCsv(o.points, o.results));
    }
    o.summaryFile = folder + QStringLiteral("/summary.csv");
    drawCharts(o, out, quick, model);
  }
}

// Prints how many figures agree; a diverged run is a result worth reporting, a failed run or a
// missing chart is not.
int summarize(const std::vector<PresetOutcome>& outcomes, const QDir& out, double wallSeconds) {
  int same = 0, figures = 0;
  for (const auto& o : outcomes)
    for (const auto& f : o.verdicts) figures += 1, same += f.same ? 1 : 0;
  QTextStream(stdout) << out.filePath(QStringLiteral("index.html")) << ": " << same << " of "
                      << figures << " figures show the same trend; wall time "
                      << QString::number(wallSeconds, 'f', 1) << " s\n";
  for (const auto& o : outcomes) {
    if (!o.error.isEmpty()) return kExitFailure;
    for (const auto& r : o.results)
      if (r.status == train::RunStatus::Failed) return kExitFailure;
  }
  return kExitOk;
}

// `reproduce --slurm`: each preset is sent as its own sweep (`sweep --preset NAME [--quick]
// --dataset D`, one array task per run, D the data set chosen here) into DIR/NAME, through the
// same submission as `sweep --slurm`. The report needs every run: `reproduce --report-only`
// writes it here once they have landed (reproduce_cluster.cpp).
int submitPresetsToSlurm(const QCommandLineParser& parser, const ReproducePlan& plan, bool quick) {
  const SlurmRequest request = readSlurmRequest(parser);
  const QDir out(parser.value(QStringLiteral("out")));
  for (const PresetOutcome& o : plan.outcomes) {
    QStringList args{QStringLiteral("--preset"), o.preset.name};
    if (quick) args << QStringLiteral("--quick");
    if (!o.dataset.isEmpty()) args << QStringLiteral("--dataset") << o.dataset;
    SlurmRequest each = request;
    if (each.tasks) each.tasks = std::min(*each.tasks, static_cast<int>(o.points.size()));
    submitToSlurm(each, {out.filePath(o.preset.name), args, {}, static_cast<int>(o.points.size())});
  }
  return kExitOk;
}

// Writes DIR/index.html from the outcomes and says how many figures agree.
int writeReport(std::vector<PresetOutcome>& outcomes, const QDir& out, ReportInfo info,
                const QStringList& arguments) {
  info.command =
      QStringLiteral("epsilonlab-cli reproduce ") + arguments.mid(1).join(QLatin1Char(' '));
  info.version = QCoreApplication::applicationVersion();
  info.finished = QDateTime::currentDateTime();
  writeFileAtomically(out.filePath(QStringLiteral("index.html")), reportHtml(outcomes, info));
  return summarize(outcomes, out, info.wallSeconds);
}

// `reproduce --report-only`: the report of what `reproduce --slurm` sent to a cluster, from
// the run files its tasks left in DIR/NAME (the same outputs and page as a local run).
int reportFromCluster(const QCommandLineParser& parser, const QStringList& arguments) {
  for (const char* flag : {"slurm", "jobs", "run-files"})
    if (parser.isSet(QLatin1String(flag)))
      throw UsageError(QStringLiteral("--%1: not with --report-only (it trains nothing; its run "
                                      "files are in DIR/NAME)")
                           .arg(QLatin1String(flag))
                           .toStdString());
  requirePlotTool("reproduce");
  const QDir out(parser.value(QStringLiteral("out")));
  const QString only = parser.value(QStringLiteral("only"));
  const ClusterReproduction cluster = readClusterReproduction(
      out, selectPresets(only), only.isEmpty(), parser.isSet(QStringLiteral("quick")));
  DatasetCache cache;
  ReproducePlan plan = planReproduce(cluster.presets, cluster.quick, cache, cluster.datasets);
  const QDateTime lastLanded = readClusterResults(plan.outcomes, out);
  ui::Session session;  // the cluster's runs, as the GUI's session model holds them
  for (PresetOutcome& o : plan.outcomes) {
    o.runIds = ui::addPlannedRuns(*session.runs(), o.points);
    for (std::size_t i = 0; i < o.points.size(); ++i)
      ui::landResult(*session.runs(), o.runIds[i], o.results[i]);
  }
  writePresetOutputs(plan.outcomes, out, cluster.quick, false, *session.runs());
  ReportInfo info;
  info.quick = cluster.quick;
  info.wallSeconds = std::max<qint64>(0, cluster.submitted.msecsTo(lastLanded)) / 1000.0;
  info.clusterJobs = cluster.jobIds;
  return writeReport(plan.outcomes, out, info, arguments);
}

int runReproduce(const QStringList& arguments) {
  QCommandLineParser parser;
  addReproduceOptions(parser);
  if (const auto exit = parseOrExplain(parser, arguments, QStringLiteral("reproduce")))
    return *exit;
  if (!parser.isSet(QStringLiteral("out")))
    throw UsageError("--out: required (the folder for index.html)");
  const auto jobs = readOptionalInteger(parser, QStringLiteral("jobs"));
  if (jobs && (*jobs < 1 || *jobs > 1024))
    throw UsageError("--jobs: expected an integer in [1, 1024], got " + std::to_string(*jobs));
  const bool quick = parser.isSet(QStringLiteral("quick"));
  const std::vector<ui::Preset> presets = selectPresets(parser.value(QStringLiteral("only")));
  if (parser.isSet(QStringLiteral("report-only"))) return reportFromCluster(parser, arguments);
  checkSlurmFlagUse(parser, {QStringLiteral("jobs"), QStringLiteral("run-files")});
  if (parser.isSet(QStringLiteral("slurm"))) {
    DatasetCache cache;
    return submitPresetsToSlurm(parser, planReproduce(presets, quick, cache), quick);
  }
  requirePlotTool("reproduce");
  const QString outPath = parser.value(QStringLiteral("out"));
  if (!QDir().mkpath(outPath))
    throw std::runtime_error(outPath.toStdString() + ": cannot create the output folder");
  const QDir out(outPath);
  const auto start = std::chrono::steady_clock::now();

  DatasetCache cache;
  ReproducePlan plan = planReproduce(presets, quick, cache);
  ui::Session session;  // every run, as the GUI's session model holds them
  trainAll(plan, jobs ? static_cast<int>(*jobs) : 0, cache, parser.isSet(QStringLiteral("quiet")),
           *session.runs());
  writePresetOutputs(plan.outcomes, out, quick, parser.isSet(QStringLiteral("run-files")),
                     *session.runs());

  ReportInfo info;
  info.quick = quick;
  info.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  info.cores = QThread::idealThreadCount();
  info.jobs = jobs ? static_cast<int>(*jobs) : 0;
  return writeReport(plan.outcomes, out, info, arguments);
}

}  // namespace

EPSILON_CLI_COMMAND(
    "reproduce", "Re-run the seed documents' experiments and write an HTML report with verdicts.",
    runReproduce);

}  // namespace epsilon::cli
