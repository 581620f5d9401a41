#include "base/session/run_model.h"

#include <algorithm>
#include <cmath>

#include "base/io/class_accuracy.h"
#include "base/io/config_diff.h"
#include "base/io/experiment_json.h"
#include "base/io/number_format.h"
#include "base/io/run_palette.h"

namespace epsilon::ui {

RunModel::RunModel(QObject* parent) : QAbstractTableModel(parent) {}

int RunModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case ParametersColumn:
        return tr("The settings in which this run differs from the others");
      case AccuracyColumn:
        return tr("Final test accuracy (the last evaluation)");
      case EpsilonColumn:
        return tr(
            "The run's ε at its last evaluation; its δ, accountant and sampling "
            "assumption are in its tooltip and in the Privacy budget panel");
      case ClassesColumn:
        return tr("Test accuracy of the worst and of the best class");
      case TimeColumn:
        return tr("Training time");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Run");
    case StatusColumn:
      return tr("Status");
    case ParametersColumn:
      return tr("Differs");
    case AccuracyColumn:
      return tr("Test accuracy");
    case EpsilonColumn:
      return tr("ε");
    case ClassesColumn:
      return tr("Worst / best class");
    case TimeColumn:
      return tr("Time");
  }
  return {};
}

Qt::ItemFlags RunModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  if (index.column() == NameColumn) f |= Qt::ItemIsUserCheckable | Qt::ItemIsEditable;
  return f;
}

QVariant RunModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RunRecord& run = m_runs[static_cast<std::size_t>(index.row())];
  if (role == RunIdRole) return run.id;
  if (role == ProgressRole) return run.progress;
  if (role == StatusRole) return static_cast<int>(run.status);
  if (role == ColorRole) return run.color;
  if (role == SortRole) return sortValue(run, index.column());
  const EvalPoint* last = run.lastEval();
  switch (index.column()) {
    case NameColumn:
      if (role == Qt::DisplayRole || role == Qt::EditRole) return run.name;
      if (role == Qt::CheckStateRole) return run.visible ? Qt::Checked : Qt::Unchecked;
      if (role == Qt::ToolTipRole)
        return tr("Tick to show this run in the charts; double-click to rename.");
      break;
    case StatusColumn:
      if (role == Qt::DisplayRole) return runStatusName(run.status);
      if (role == Qt::ToolTipRole && !run.message.isEmpty()) return run.message;
      break;
    case ParametersColumn:
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return m_differs.value(run.id);
      break;
    case AccuracyColumn:
      if (role == Qt::DisplayRole && last && std::isfinite(last->testAccuracy))
        return formatPercent(last->testAccuracy);
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case EpsilonColumn:
      if (role == Qt::DisplayRole && last) return formatEpsilon(last->epsilon);
      if (role == Qt::ToolTipRole) return run.privacyLabel;
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case ClassesColumn:
      if (role == Qt::DisplayRole) return describeClassExtremes(run);
      if (role == Qt::ToolTipRole)
        return last && last->classAccuracy.empty()
                   ? tr("No per-class accuracy recorded for this run (a file from before "
                        "EpsilonLab kept it): this view is empty for it.")
                   : describeClassAccuracies(run);
      break;
    case TimeColumn:
      if (role == Qt::DisplayRole) return formatDuration(run.elapsedSeconds);
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
  }
  return {};
}

QVariant RunModel::sortValue(const RunRecord& run, int column) const {
  const EvalPoint* last = run.lastEval();
  const auto finite = [](double v, double otherwise) { return std::isnan(v) ? otherwise : v; };
  switch (column) {
    case NameColumn:
      return run.name;
    case StatusColumn:
      return static_cast<int>(run.status);
    case ParametersColumn:
      return m_differs.value(run.id);
    case AccuracyColumn:
      return last ? finite(last->testAccuracy, -INFINITY) : -INFINITY;
    case EpsilonColumn:
      return last ? finite(last->epsilon, INFINITY) : INFINITY;
    case ClassesColumn: {
      double worst = INFINITY;
      if (last)
        for (double a : last->classAccuracy)
          if (!std::isnan(a)) worst = std::min(worst, a);
      return std::isinf(worst) ? -INFINITY : worst;
    }
    case TimeColumn:
      return run.elapsedSeconds;
  }
  return {};
}

bool RunModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.column() != NameColumn) return false;
  const int id = m_runs[static_cast<std::size_t>(index.row())].id;
  const RunRecord& run = m_runs[static_cast<std::size_t>(index.row())];
  if (role == Qt::CheckStateRole) {
    const bool visible = value.toInt() == Qt::Checked;
    if (visible == run.visible) return true;
    setVisible(id, visible);
    Q_EMIT shownByUser(id, visible);
    return true;
  }
  if (role == Qt::EditRole) {
    const QString name = value.toString().trimmed();
    if (name.isEmpty()) return false;
    if (name == run.name) return true;
    const QString before = run.name;
    rename(id, name);
    Q_EMIT renamedByUser(id, before, name);
    return true;
  }
  return false;
}

RunColorPicker RunModel::colorPicker() const {
  RunColorPicker picker;  // the runs' own colours, so also those of a reopened session
  for (const RunRecord& r : m_runs) picker.add(r.color);
  return picker;
}

QString RunModel::nextColor() const {
  return colorPicker().take();
}

void RunModel::prepareNewRun(RunRecord& run, RunColorPicker& colors) {
  if (run.id == 0) run.id = m_nextId;
  m_nextId = std::max(m_nextId, run.id + 1);
  if (run.color.isEmpty())
    run.color = colors.take();
  else
    colors.add(run.color);
  if (run.name.isEmpty()) run.name = tr("Run %1").arg(run.id);
}

int RunModel::addRun(RunRecord run) {
  RunColorPicker colors = colorPicker();
  prepareNewRun(run, colors);
  const int row = rowCount();
  beginInsertRows({}, row, row);
  m_runs.push_back(std::move(run));
  endInsertRows();
  refreshDiffs();
  Q_EMIT runsChanged();
  return m_runs.back().id;
}

void RunModel::addRuns(std::vector<RunRecord> runs) {
  if (runs.empty()) return;
  // One insertion and one comparison of the settings for all of them: run by run, opening
  // 10,000 runs compared every run with every other (quadratic) and redrew 10,000 times.
  const int first = rowCount();
  beginInsertRows({}, first, first + static_cast<int>(runs.size()) - 1);
  RunColorPicker colors = colorPicker();
  for (RunRecord& run : runs) {
    prepareNewRun(run, colors);
    m_runs.push_back(std::move(run));
  }
  endInsertRows();
  refreshDiffs();
  Q_EMIT runsChanged();
}

void RunModel::setArriving(bool arriving) {
  if (arriving == m_arriving) return;
  m_arriving = arriving;
  if (!arriving) Q_EMIT runsChanged();
}

void RunModel::restoreRun(const RunRecord& run, int row) {
  row = std::clamp(row, 0, rowCount());
  beginInsertRows({}, row, row);
  m_runs.insert(m_runs.begin() + row, run);
  endInsertRows();
  m_nextId = std::max(m_nextId, run.id + 1);
  refreshDiffs();
  Q_EMIT runsChanged();
}

std::optional<RunRecord> RunModel::takeRun(int id) {
  const int row = rowOf(id);
  if (row < 0) return std::nullopt;
  beginRemoveRows({}, row, row);
  RunRecord run = std::move(m_runs[static_cast<std::size_t>(row)]);
  m_runs.erase(m_runs.begin() + row);
  endRemoveRows();
  refreshDiffs();
  Q_EMIT runsChanged();
  Q_EMIT runRemoved(id);
  return run;
}

void RunModel::clear() {
  std::vector<int> ids;
  for (const auto& r : m_runs) ids.push_back(r.id);
  beginResetModel();
  m_runs.clear();
  m_differingKeys.clear();
  m_differs.clear();
  endResetModel();
  Q_EMIT runsChanged();
  for (int id : ids) Q_EMIT runRemoved(id);
}

const RunRecord* RunModel::run(int id) const {
  const int row = rowOf(id);
  return row < 0 ? nullptr : &m_runs[static_cast<std::size_t>(row)];
}

RunRecord* RunModel::find(int id) {
  const int row = rowOf(id);
  return row < 0 ? nullptr : &m_runs[static_cast<std::size_t>(row)];
}

int RunModel::rowOf(int id) const {
  // Runs opened from a file or added one by one sit at row id − 1, and views ask for them in
  // row order: both places are tried before the search (every view asking for each of 10,000
  // runs searched 10,000 rows each time).
  for (const long long guess : {static_cast<long long>(id) - 1, m_lastRow + 1}) {
    if (guess >= 0 && guess < static_cast<long long>(m_runs.size()) &&
        m_runs[static_cast<std::size_t>(guess)].id == id) {
      m_lastRow = guess;
      return static_cast<int>(guess);
    }
  }
  for (std::size_t i = 0; i < m_runs.size(); ++i)
    if (m_runs[i].id == id) {
      m_lastRow = static_cast<long long>(i);
      return static_cast<int>(i);
    }
  return -1;
}

int RunModel::idAt(int row) const {
  return row >= 0 && row < rowCount() ? m_runs[static_cast<std::size_t>(row)].id : 0;
}

void RunModel::emitRowChanged(int row) {
  Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
  Q_EMIT runChanged(idAt(row));
}

void RunModel::setStatus(int id, RunStatus status, const QString& message) {
  if (RunRecord* r = find(id)) {
    r->status = status;
    if (!message.isEmpty()) r->message = message;
    if (status == RunStatus::Done) r->progress = 1.0;
    emitRowChanged(rowOf(id));
  }
}

void RunModel::setProgress(int id, double progress, double elapsedSeconds) {
  if (RunRecord* r = find(id)) {
    r->progress = progress;
    r->elapsedSeconds = elapsedSeconds;
    // The progress bar and the time only: nothing a chart draws (no runChanged). One cell
    // each: a view repaints a changed cell alone, but the whole table for a range of cells.
    const int row = rowOf(id);
    Q_EMIT dataChanged(index(row, StatusColumn), index(row, StatusColumn),
                       {ProgressRole, Qt::DisplayRole});
    Q_EMIT dataChanged(index(row, TimeColumn), index(row, TimeColumn), {Qt::DisplayRole});
  }
}

void RunModel::setAttack(int id, const AttackRecord& attack) {
  if (RunRecord* r = find(id)) {
    r->attack = attack;
    Q_EMIT attackChanged(id);
  }
}

void RunModel::setLira(int id, const LiraRecord& lira) {
  if (RunRecord* r = find(id)) {
    r->lira = lira;
    Q_EMIT attackChanged(id);
  }
}

void RunModel::setCanaryAudit(int id, const CanaryAuditRecord& audit) {
  if (RunRecord* r = find(id)) {
    r->canaryAudit = audit;
    Q_EMIT attackChanged(id);
  }
}

void RunModel::setPrivacyLabel(int id, const QString& label) {
  if (RunRecord* r = find(id)) r->privacyLabel = label;
}

void RunModel::appendEval(int id, const EvalPoint& point) {
  if (RunRecord* r = find(id)) {
    r->evals.push_back(point);
    r->elapsedSeconds = point.elapsedSeconds;
    emitRowChanged(rowOf(id));
    Q_EMIT historyChanged(id);
  }
}

void RunModel::appendLosses(int id, const std::vector<LossPoint>& points) {
  if (points.empty()) return;
  if (RunRecord* r = find(id)) {
    r->losses.insert(r->losses.end(), points.begin(), points.end());
    Q_EMIT historyChanged(id);
  }
}

void RunModel::setVisible(int id, bool visible) {
  if (RunRecord* r = find(id); r && r->visible != visible) {
    r->visible = visible;
    emitRowChanged(rowOf(id));
    Q_EMIT runsChanged();
  }
}

void RunModel::rename(int id, const QString& name) {
  if (RunRecord* r = find(id)) {
    r->name = name;
    emitRowChanged(rowOf(id));
    Q_EMIT runsChanged();
  }
}

void RunModel::setResult(int id, const RunRecord& finished) {
  RunRecord* r = find(id);
  if (!r) return;
  // Its settings are the planned ones as a rule: the Differs texts are made again only if not.
  const bool settingsChanged = experimentToJson(r->config) != experimentToJson(finished.config);
  r->status = finished.status;
  r->message = finished.message;
  r->progress = finished.progress;
  r->config = finished.config;
  r->privacyLabel = finished.privacyLabel;
  r->evals = finished.evals;
  r->losses = finished.losses;
  r->elapsedSeconds = finished.elapsedSeconds;
  if (settingsChanged) refreshDiffs();
  emitRowChanged(rowOf(id));
  Q_EMIT historyChanged(id);
}

void RunModel::refreshDiffs() {
  // The typed settings, compared field by field as the schema compares them (no JSON round
  // trip per run: opening 10,000 runs spent seconds on it).
  std::vector<train::ExperimentConfig> configs;
  configs.reserve(m_runs.size());
  for (const auto& r : m_runs) configs.push_back(r.config);
  const QStringList keys = differingKeys(configs);
  // The Differs column's text, made here once rather than at every paint of the table.
  m_differs.clear();
  for (std::size_t i = 0; i < m_runs.size(); ++i)
    m_differs.insert(m_runs[i].id, describeKeys(configs[i], keys));
  if (keys != m_differingKeys) {
    m_differingKeys = keys;
    if (!m_runs.empty())
      Q_EMIT dataChanged(index(0, ParametersColumn), index(rowCount() - 1, ParametersColumn));
  }
}

}  // namespace epsilon::ui
