// Who pays for privacy (issue 28, item 4): a run's test accuracy per class at an evaluation,
// summed up as its worst and best class, for the Runs table. DP-SGD's accuracy cost falls
// hardest on small and hard classes (Bagdasaryan, Poursaeed & Shmatikov, NeurIPS 2019).
#pragma once

#include <QPointF>
#include <QString>
#include <optional>
#include <vector>

#include "base/io/run_record.h"

namespace epsilon::ui {

struct ClassExtremes {
  int worst = 0;  // the class (label) with the lowest accuracy; the first of equals
  int best = 0;   // the class with the highest accuracy; the first of equals
  double worstAccuracy = kNaN;
  double bestAccuracy = kNaN;
};

// Over the classes that have a value (NaN: no test example); nullopt when none has one.
std::optional<ClassExtremes> classExtremes(const std::vector<double>& classAccuracy);

// "worst 8: 71.2% · best 1: 98.5%" at the run's last evaluation; empty when it recorded no
// per-class accuracy (a run from a file written before EpsilonLab kept it, or not evaluated).
QString describeClassExtremes(const RunRecord& run);
// One line per class at the run's last evaluation ("class 3: 91.2%", "class 5: no test
// example"), after a heading; empty like describeClassExtremes.
QString describeClassAccuracies(const RunRecord& run);

// The per-class view of one run: for each class (label order) its test accuracy over epochs,
// (epoch, accuracy) at every evaluation that recorded it (a NaN, no test example, is left
// out). Empty when no evaluation recorded per-class accuracy (classAccuracyEmptyText says why).
std::vector<std::vector<QPointF>> classAccuracyCurves(const RunRecord& run);
QString classAccuracyEmptyText(const RunRecord& run);

}  // namespace epsilon::ui
