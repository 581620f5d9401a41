// A sweep as a map (issue 28, item 5): the runs of a one- or two-parameter sweep laid out on a
// grid of the swept values, with each run's final test accuracy and final ε (the ε its ledger
// recorded from the one privacy statement, never recomputed here), the iso-ε lines over the grid
// and the best-accuracy run under each ε level. Which parameters were swept is not recorded with
// a run: they are the experiment fields whose values differ between the runs (differingKeys,
// config_diff.h). Qt Core only; ui/charts draws it, the CLI's `sweep --plot` exports it.
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <vector>

#include "base/io/run_record.h"

namespace epsilon::ui {

// One swept parameter: its values in increasing order (numbers by value, other values by their
// first appearance), and where each sits on the map's axis.
struct SweepMapAxis {
  QString key;                  // the experiment file's name, "privacy.noise_multiplier"
  QString word;                 // the sweep parameter, "noise_multiplier"
  QStringList labels;           // each value as text
  std::vector<double> values;   // numeric values (empty when a value is not a number)
  bool log = false;             // positive numbers spanning at least kLogAxisSpan
  std::vector<double> centres;  // each value's position: log10(v), v, or its index
  std::vector<double> edges;    // cell edges: midpoints between centres, size + 1 of them
};

inline constexpr double kLogAxisSpan = 10.0;

// The grid: cell (i, j) is value i of the first axis and value j of the second (one row for a
// one-parameter sweep). A cell without a run, or whose run has not finished, has NaN accuracy.
struct SweepMap {
  std::vector<SweepMapAxis> axes;  // 1 or 2 when valid()
  std::vector<int> runIds;         // per cell, i + j·nx; 0: no run there
  std::vector<double> accuracy;    // the run's last test accuracy, when the run is Done
  std::vector<double> epsilon;     // the run's last recorded ε (∞ without noise)
  QStringList privacyLabels;       // the distinct δ · accountant · sampling of the runs' ε
  QString problem;                 // why there is no map ("" when valid)

  bool valid() const { return problem.isEmpty(); }
  int nx() const { return axes.empty() ? 0 : static_cast<int>(axes[0].labels.size()); }
  int ny() const { return axes.size() < 2 ? 1 : static_cast<int>(axes[1].labels.size()); }
  int cell(int i, int j) const { return i + j * nx(); }
};

// The parameters swept between `runs`: the experiment fields whose values differ (dotted names,
// in the schema's order). The one place the app derives them.
QStringList sweptParameters(const std::vector<RunRecord>& runs);

// The map of `runs`: a problem instead when they are fewer than two or differ in no field or in
// more than two. Two runs with the same swept values: the later in the list is shown.
SweepMap buildSweepMap(const std::vector<RunRecord>& runs);

// ε levels for the iso-ε lines: 1, 2 and 5 times powers of ten strictly inside the range of the
// map's finite ε, at most `maxLevels` of them (every other one dropped until they fit).
std::vector<double> epsilonLevels(const SweepMap& map, int maxLevels = 5);

// The index of the best accuracy among entries whose ε ≤ budget (a tie goes to the smaller
// ε; NaN accuracies never count); -1 when none. The best run under a budget, for the sweep
// map's cells and the Runs table's "ε ≤ X" alike.
int bestUnderBudget(const std::vector<double>& accuracy, const std::vector<double>& epsilon,
                    double budget);
// The cell with the best accuracy among finished runs whose ε ≤ level; -1 when none.
int bestCellUnder(const SweepMap& map, double level);

// One piece of an iso-ε line, in axis coordinates (x on axes[0]'s centres, y on axes[1]'s).
struct ContourSegment {
  QPointF from;
  QPointF to;
};
// The iso-ε line at `level` by marching squares over the cell centres (Lorensen & Cline 1987),
// ε interpolated linearly between neighbouring centres; a square with a missing ε draws nothing,
// and an edge to an infinite ε is crossed at its midpoint. Empty for a one-row map.
std::vector<ContourSegment> isoEpsilonSegments(const SweepMap& map, double level);

// "δ = 1e-5 · RDP · Poisson sampling" for one label, else the labels joined with "; ".
QString sweepMapCaption(const SweepMap& map);

}  // namespace epsilon::ui
