// The reproduction report (`epsilonlab-cli reproduce`): one HTML page with, per preset, the
// charts, what the document reported (cited), EpsilonLab's numbers and a verdict per figure.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <vector>

#include "base/io/preset_file.h"
#include "core/train/progress.h"
#include "core/train/run_planning.h"
#include "core/train/sweep.h"
#include "reproduce_trend.h"

namespace epsilon::cli {

struct PresetOutcome {
  ui::Preset preset;
  QString dataset;
  QString datasetNote;  // why another data set than the preferred one was used
  long long trainSize = 0;
  train::RunPlanInput input;  // N and P the preset's plans and calibrations used
  std::vector<train::SweepPoint> points;
  std::vector<train::RunResult> results;
  std::vector<int> runIds;  // the points' runs in the session model (batch_runs.h)
  std::vector<MeasuredRun> measured;
  std::vector<FigureVerdict> verdicts;
  QStringList images;   // paths relative to the report folder
  QString summaryFile;  // relative path of the preset's summary.csv
  QString error;        // set when the preset could not be run or drawn
};

struct ReportInfo {
  bool quick = false;
  double wallSeconds = 0;
  int cores = 0;
  int jobs = 0;
  QStringList clusterJobs;  // trained on Slurm (`--report-only`): its jobs; wall time from the
                            // first submission to the last run file landing
  QString command;
  QString version;
  QDateTime finished;
};

QByteArray reportHtml(const std::vector<PresetOutcome>& outcomes, const ReportInfo& info);

// "same trend" / "different trend": the words the report (and its test) use.
QString verdictText(bool same);

}  // namespace epsilon::cli
