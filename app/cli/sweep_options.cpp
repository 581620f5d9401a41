// The flags of `epsilonlab-cli sweep`, from the experiment schema's sweep parameters
// (core/train/experiment_schema.h) and the Slurm options the cluster commands share.
#include "sweep_options.h"

#include <QCommandLineParser>
#include <string>

#include "core/train/experiment_schema.h"
#include "core/train/sweep.h"
#include "sweep_slurm.h"

namespace epsilon::cli {

namespace {

// Every field of the experiment schema by its word, older spellings marked old; then the
// target epsilon each point's sigma is calibrated to.
std::string sweepParameterList() {
  std::string list;
  for (const auto& f : train::experimentFields()) {
    if (!f.persisted) continue;
    list += (list.empty() ? "" : ", ") + f.word;
    for (const auto& old : f.old)
      if (old.value.empty()) list += " (old: " + old.word + ")";
  }
  return list + ", " + train::kTargetEpsilonParameter + " (sigma calibrated to it per point)";
}

// Which runs: the experiment or preset, the swept parameters, calibration and tuning.
void addWhichRunsOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(
      QStringLiteral(
          "Runs a sweep: one or two parameters over lists of values (every combination), or a "
          "preset's\n"
          "runs, as parallel jobs. Writes one JSON run file per point and summary.csv into --out.\n"
          "At most 10000 runs per sweep.\n"
          "Examples:\n"
          "  epsilonlab-cli sweep --preset report-fig4-noise --out fig4 --plot fig4.png\n"
          "  epsilonlab-cli sweep --config exp.json --param noise_multiplier=0.5,1,2 --param2 "
          "clip_norm=1,4\n"
          "  epsilonlab-cli sweep --preset report-fig4-noise --shard 2/3 --out part2   (a "
          "job-array slice)\n"
          "Parameters: ") +
      QString::fromStdString(sweepParameterList()));
  parser.addOptions({
      {QStringLiteral("config"),
       QStringLiteral("An experiment file (with --param) or a preset file."),
       QStringLiteral("FILE")},
      {QStringLiteral("preset"), QStringLiteral("A built-in preset (see `presets`)."),
       QStringLiteral("NAME")},
      {QStringLiteral("dataset"),
       QStringLiteral("With a preset: run on this data set (a name or a data folder) instead of "
                      "the first of its preferences installed here. `--slurm` passes the one "
                      "chosen here to the nodes, so that they train on the same data."),
       QStringLiteral("NAME|DIR")},
      {QStringLiteral("param"),
       QStringLiteral("The swept parameter and its values (replaces a preset's)."),
       QStringLiteral("NAME=v1,v2,...")},
      {QStringLiteral("param2"), QStringLiteral("A second parameter: every combination is run."),
       QStringLiteral("NAME=v1,v2,...")},
      {QStringLiteral("target-epsilon"),
       QStringLiteral("Calibrate every point's noise multiplier to this epsilon for the point's "
                      "own settings (as the GUI's \"Fix epsilon\"); or sweep target_epsilon."),
       QStringLiteral("EPS")},
      {QStringLiteral("privacy-caption"),
       QStringLiteral("With --plot: a caption under each drawing with the runs' delta, "
                      "accountant and sampling.")},
      {QStringLiteral("private-tuning"),
       QStringLiteral("Private tuning: train K of the grid's points drawn at random (K from "
                      "DIST with the sweep's seed: poisson:MEAN, geometric:MEAN, log:MEAN or "
                      "tnb:MEAN:SHAPE) and release the best by final test accuracy; prints its "
                      "tuned epsilon (RDP; Papernot & Steinke 2022)."),
       QStringLiteral("DIST")},
  });
}

// How they run and what they leave: jobs, output, plots, shards, sessions, Slurm.
void addHowToRunOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {QStringLiteral("jobs"),
       QStringLiteral("Runs trained at the same time (default: one per core)."),
       QStringLiteral("N")},
      {QStringLiteral("out"), QStringLiteral("Folder for the run files and summary.csv."),
       QStringLiteral("DIR")},
      {QStringLiteral("plot"),
       QStringLiteral("Draw the GUI's four charts of all runs (.png, .svg or .pdf); with "
                      "--param, also the sweep map into FILE-map (same suffix)."),
       QStringLiteral("FILE")},
      {QStringLiteral("shard"),
       QStringLiteral("Run only the K-th of N slices (points whose index mod N is K-1)."),
       QStringLiteral("K/N")},
      {QStringLiteral("session"),
       QStringLiteral("Also write the runs as a session file, as File › Save session writes "
                      "it (File › Open session opens it)."),
       QStringLiteral("FILE")},
      {QStringLiteral("quick"),
       QStringLiteral("Use the preset's quick settings (fewer epochs, fewer examples).")},
      {QStringLiteral("quiet"), QStringLiteral("Do not print a line per finished run.")},
      {QStringLiteral("resume"),
       QStringLiteral("Keep the runs whose files in --out are complete (finished, same "
                      "settings), e.g. after a killed sweep, and train only the others.")},
  });
  addSlurmOptions(parser, QStringLiteral("sweep"));
}

}  // namespace

void addSweepOptions(QCommandLineParser& parser) {
  addWhichRunsOptions(parser);
  addHowToRunOptions(parser);
}

}  // namespace epsilon::cli
