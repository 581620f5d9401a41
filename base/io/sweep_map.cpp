#include "base/io/sweep_map.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <utility>

#include "base/io/config_diff.h"
#include "core/train/experiment_schema.h"

namespace epsilon::ui {

namespace {

// A field's value as a number when it is one.
bool numericValue(const train::FieldValue& value, double& out) {
  if (const auto* d = std::get_if<double>(&value)) {
    out = *d;
    return true;
  }
  if (const auto* i = std::get_if<long long>(&value)) {
    out = static_cast<double>(*i);
    return true;
  }
  return false;
}

QString valueText(const train::ExperimentField& field, const train::FieldValue& value) {
  double number = 0;
  if (numericValue(value, number) && std::holds_alternative<double>(value))
    return QString::number(number, 'g', 6);
  return QString::fromStdString(train::fieldText(field, value));
}

// The axis of one swept field: its distinct values, ordered, placed and given cell edges.
SweepMapAxis makeAxis(const train::ExperimentField& field, const std::vector<RunRecord>& runs) {
  SweepMapAxis axis;
  axis.key = QString::fromStdString(field.name);
  axis.word = QString::fromStdString(field.word);
  std::vector<std::pair<double, QString>> numbers;
  bool allNumbers = true;
  QSet<QString> seen;  // a list's contains() made 10,000 runs cost 10^8 comparisons
  for (const RunRecord& run : runs) {
    const train::FieldValue value = field.get(run.config);
    const QString text = valueText(field, value);
    if (seen.contains(text)) continue;
    seen.insert(text);
    axis.labels << text;
    double number = 0;
    allNumbers = allNumbers && numericValue(value, number);
    numbers.emplace_back(number, text);
  }
  if (allNumbers) {
    std::sort(numbers.begin(), numbers.end());
    axis.labels.clear();
    for (const auto& [number, text] : numbers) {
      axis.values.push_back(number);
      axis.labels << text;
    }
    axis.log = axis.values.front() > 0 && axis.values.back() >= kLogAxisSpan * axis.values.front();
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(axis.labels.size()); ++i)
    axis.centres.push_back(axis.values.empty() ? static_cast<double>(i)
                           : axis.log          ? std::log10(axis.values[i])
                                               : axis.values[i]);
  const std::vector<double>& c = axis.centres;
  const double half = c.size() > 1 ? (c[1] - c[0]) / 2 : 0.5;
  axis.edges.push_back(c.front() - half);
  for (std::size_t i = 0; i + 1 < c.size(); ++i) axis.edges.push_back((c[i] + c[i + 1]) / 2);
  axis.edges.push_back(c.back() + (c.size() > 1 ? (c.back() - c[c.size() - 2]) / 2 : 0.5));
  return axis;
}

// Each label's index on its axis.
QHash<QString, int> labelIndex(const SweepMapAxis& axis) {
  QHash<QString, int> index;
  for (qsizetype i = 0; i < axis.labels.size(); ++i) index.insert(axis.labels[i], int(i));
  return index;
}

int indexOn(const QHash<QString, int>& labels, const train::ExperimentField& field,
            const RunRecord& run) {
  return labels.value(valueText(field, field.get(run.config)), -1);
}

}  // namespace

QStringList sweptParameters(const std::vector<RunRecord>& runs) {
  std::vector<train::ExperimentConfig> configs;
  configs.reserve(runs.size());
  for (const RunRecord& run : runs) configs.push_back(run.config);
  return differingKeys(configs);
}

SweepMap buildSweepMap(const std::vector<RunRecord>& runs) {
  SweepMap map;
  const QStringList keys = sweptParameters(runs);
  if (runs.size() < 2 || keys.isEmpty() || keys.size() > 2) {
    map.problem = runs.size() < 2 ? QStringLiteral("A sweep map needs at least two shown runs.")
                  : keys.isEmpty()
                      ? QStringLiteral("The shown runs have the same settings: nothing was swept.")
                      : QStringLiteral(
                            "The shown runs differ in %1 settings (%2); a map shows one or two. "
                            "Hide the runs of other sweeps.")
                            .arg(keys.size())
                            .arg(keys.join(QStringLiteral(", ")));
    return map;
  }
  std::vector<const train::ExperimentField*> fields;
  std::vector<QHash<QString, int>> labels;
  for (const QString& key : keys) {
    fields.push_back(train::fieldNamed(key.toStdString()));
    map.axes.push_back(makeAxis(*fields.back(), runs));
    labels.push_back(labelIndex(map.axes.back()));
  }
  const std::size_t cells = static_cast<std::size_t>(map.nx() * map.ny());
  map.runIds.assign(cells, 0);
  map.accuracy.assign(cells, kNaN);
  map.epsilon.assign(cells, kNaN);
  for (const RunRecord& run : runs) {
    const int i = indexOn(labels[0], *fields[0], run);
    const int j = fields.size() > 1 ? indexOn(labels[1], *fields[1], run) : 0;
    const auto c = static_cast<std::size_t>(map.cell(i, j));
    map.runIds[c] = run.id;
    const EvalPoint* last = run.lastEval();
    const bool done = run.status == RunStatus::Done && last;
    map.accuracy[c] = done ? last->testAccuracy : kNaN;
    map.epsilon[c] = done ? last->epsilon : kNaN;
    if (done && !run.privacyLabel.isEmpty() && !map.privacyLabels.contains(run.privacyLabel))
      map.privacyLabels << run.privacyLabel;
  }
  return map;
}

std::vector<double> epsilonLevels(const SweepMap& map, int maxLevels) {
  double low = INFINITY, high = -INFINITY;
  for (double e : map.epsilon) {
    if (!std::isfinite(e)) continue;
    low = std::min(low, e);
    high = std::max(high, e);
  }
  std::vector<double> levels;
  if (!(low > 0) || !(high > low)) return levels;
  for (int power = static_cast<int>(std::floor(std::log10(low))) - 1;
       power <= static_cast<int>(std::ceil(std::log10(high))); ++power)
    for (double m : {1.0, 2.0, 5.0}) {
      const double level = m * std::pow(10.0, power);
      if (level > low && level < high) levels.push_back(level);
    }
  while (static_cast<int>(levels.size()) > std::max(1, maxLevels)) {
    std::vector<double> kept;
    for (std::size_t i = 0; i < levels.size(); i += 2) kept.push_back(levels[i]);
    levels = std::move(kept);
  }
  return levels;
}

int bestUnderBudget(const std::vector<double>& accuracy, const std::vector<double>& epsilon,
                    double budget) {
  int best = -1;
  for (std::size_t c = 0; c < accuracy.size() && c < epsilon.size(); ++c) {
    const double a = accuracy[c];
    if (!std::isfinite(a) || !(epsilon[c] <= budget)) continue;
    const auto b = static_cast<std::size_t>(best);
    if (best < 0 || a > accuracy[b] || (a == accuracy[b] && epsilon[c] < epsilon[b]))
      best = static_cast<int>(c);
  }
  return best;
}

int bestCellUnder(const SweepMap& map, double level) {
  return bestUnderBudget(map.accuracy, map.epsilon, level);
}

QString sweepMapCaption(const SweepMap& map) {
  return map.privacyLabels.join(QStringLiteral("; "));
}

}  // namespace epsilon::ui
