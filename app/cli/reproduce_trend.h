// Verdicts for the reproduction report: the numbers each finished run yields (final and best
// accuracy, ε, nominal ε, how unstable the accuracy is at the end) and the check of a
// preset's expected trends (ui/preset_file.h, PresetTrend) against them.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "core/train/progress.h"
#include "core/train/sweep.h"
#include "base/io/preset_file.h"

namespace epsilon::cli {

// What one run measured, with the key trends refer to it by.
struct MeasuredRun {
  QString key;    // the value of the first swept parameter, the variant key, or the target ε
  QString label;  // the point's label
  std::vector<std::pair<std::string, std::string>> values;
  double finalAccuracy = 0.0;
  double bestAccuracy = 0.0;
  double finalEpsilon = 0.0;     // honest; ∞ without privacy
  double nominalEpsilon = 0.0;   // tanh only, else NaN
  double accuracyJitter = 0.0;   // mean |Δ accuracy| between evaluations over the second half
  std::vector<double> epsilons;  // ε at every evaluation, in order
  bool hasAccuracy = false;      // false for accountant-only runs
  QString status;
};

MeasuredRun measureRun(const train::SweepPoint& point, const train::RunResult& result);

struct TrendVerdict {
  QString figure;
  QString statement;  // the document's claim, in words
  bool same = false;  // EpsilonLab's numbers show it
  QString detail;     // what was compared, with the numbers
};

// Checks one trend; a check that cannot be made (a key missing, fewer than two numeric
// points) is a "different trend" verdict whose detail says why.
TrendVerdict checkTrend(const ui::PresetTrend& trend, const std::vector<MeasuredRun>& runs);

// One verdict per figure: the figure's checks all hold ("same trend") or not.
struct FigureVerdict {
  QString figure;
  bool same = false;
  std::vector<TrendVerdict> checks;
};
std::vector<FigureVerdict> figureVerdicts(const ui::Preset& preset,
                                          const std::vector<MeasuredRun>& runs);

}  // namespace epsilon::cli
