#include "reproduce_runs.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "base/io/csv_writer.h"
#include "core/common/errors.h"
#include "core/data/registry.h"
#include "core/train/job_runner.h"
#include "core/train/run_planning.h"
#include "experiment_json.h"

namespace epsilon::cli {

std::shared_ptr<const data::Dataset> DatasetCache::get(const train::DatasetConfig& config) {
  train::ExperimentConfig keyOnly;
  keyOnly.dataset = config;
  const std::string key =
      QJsonDocument(experimentToJson(keyOnly).value(QStringLiteral("dataset")).toObject())
          .toJson(QJsonDocument::Compact)
          .toStdString();
  auto& slot = m_loaded[key];
  if (!slot)
    slot = std::make_shared<const data::Dataset>(data::loadDataset(config.name, config.options));
  return slot;
}

namespace {

// A rough cost to order the jobs: examples processed (longest first keeps both cores busy
// until the end instead of leaving one long run alone at the tail).
double costOf(const train::SweepPoint& point, long long trainSize) {
  const auto& c = point.config;
  double cost = static_cast<double>(c.totalSteps(trainSize)) * c.training.lotSize;
  if (c.model.preset == "lenet5") cost *= 1.5;
  if (c.privacy.privatizer.kind == privacy::PrivatizerKind::Tanh) cost *= 1.5;
  return cost;
}

}  // namespace

std::vector<train::RunResult> runPlanned(
    const std::vector<PlannedRun>& runs, int jobs, DatasetCache& cache,
    const std::function<void(std::size_t, const train::RunResult&)>& onFinished) {
  std::vector<train::RunResult> results(runs.size());
  std::vector<std::shared_ptr<const data::Dataset>> datasets(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    datasets[i] = cache.get(runs[i].point.config.dataset);
    if (!runs[i].accountantOnly) runs[i].point.config.validateFor(*datasets[i]);
  }
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return costOf(runs[a].point, datasets[a]->train.size()) >
           costOf(runs[b].point, datasets[b]->train.size());
  });

  train::JobRunner runner({.threads = 0, .maxConcurrentRuns = std::max(0, jobs)});
  std::vector<train::RunId> ids(runs.size(), 0);
  for (std::size_t i : order) {
    if (runs[i].accountantOnly) continue;
    ids[i] = runner.submit(runs[i].point.config, {}, datasets[i]);
  }
  // Collected in submission order, which is close to the order they finish in.
  for (std::size_t i : order) {
    if (runs[i].accountantOnly) {
      results[i] = train::accountantOnlyRun(runs[i].point.config,
                                            train::planInput(runs[i].point.config, *datasets[i]));
    } else {
      results[i] = runner.wait(ids[i]);
      results[i].model.reset();
      runner.release(ids[i]);
    }
    if (onFinished) onFinished(i, results[i]);
  }
  return results;
}

QString runFileName(const train::SweepPoint& point) {
  QStringList parts;
  for (const auto& [parameter, value] : point.values)
    parts << QString::fromStdString(parameter + "=" + value);
  QString label = parts.join(QLatin1Char(','));
  for (QChar& ch : label)
    if (!(ch.isLetterOrNumber() && ch.unicode() < 128) && !QStringLiteral("._=,-+").contains(ch))
      ch = QLatin1Char('_');
  return QStringLiteral("run-%1-%2.json").arg(point.index, 2, 10, QLatin1Char('0')).arg(label);
}

QByteArray runFileBytes(const train::SweepPoint& point, const train::RunResult& result) {
  // A run is numbered in its file by its point (index + 1), not by the order its job was
  // started in, so that a resumed sweep writes what an uninterrupted one writes.
  train::RunResult numbered = result;
  numbered.runId = static_cast<train::RunId>(point.index) + 1;
  for (auto& event : numbered.history) event.runId = numbered.runId;
  QJsonObject run = runToJson(numbered);
  QJsonObject values;
  for (const auto& [parameter, value] : point.values)
    values.insert(QString::fromStdString(parameter), QString::fromStdString(value));
  QJsonObject sweep{
      {"index", point.index}, {"label", QString::fromStdString(point.label)}, {"values", values}};
  if (point.of > 0) sweep.insert(QStringLiteral("of"), point.of);
  run.insert(QStringLiteral("sweep"), sweep);
  return QJsonDocument(run).toJson(QJsonDocument::Indented);
}

const train::ProgressEvent* lastEvaluation(const train::RunResult& result) {
  for (auto it = result.history.rbegin(); it != result.history.rend(); ++it)
    if (it->kind == train::EventKind::Evaluation) return &*it;
  return nullptr;
}

QByteArray summaryCsv(const std::vector<train::SweepPoint>& points,
                      const std::vector<train::RunResult>& results) {
  // Then the settings a report needs: model, lot size, epochs, learning rate and every setting
  // that differs between the runs (csv_writer.h, settingColumns).
  std::vector<QJsonObject> configs;
  for (std::size_t i = 0; i < points.size() && i < results.size(); ++i)
    configs.push_back(experimentToJson(results[i].config));
  const QStringList settings = ui::settingColumns(configs);
  ui::CsvWriter csv(QStringList{"index", "label", "values", "final_accuracy", "final_epsilon",
                                "nominal_epsilon", "delta", "accountant", "status", "seconds"} +
                    settings);
  for (std::size_t i = 0; i < points.size() && i < results.size(); ++i) {
    const auto& point = points[i];
    const auto& result = results[i];
    QStringList values;
    for (const auto& [parameter, value] : point.values)
      values << QString::fromStdString(parameter + "=" + value);
    const train::ProgressEvent* last = lastEvaluation(result);
    csv.addRow(
        QStringList{
            QString::number(point.index), ui::csvText(QString::fromStdString(point.label)),
            ui::csvText(values.join(QLatin1Char(';'))),
            last ? ui::csvNumber(last->testAccuracy) : QString(),
            last ? ui::csvNumber(last->privacy.epsilon) : QString(),
            last ? ui::csvNumber(last->privacy.nominalEpsilon.value_or(ui::kNaN)) : QString(),
            ui::csvNumber(result.config.privacy.delta),
            QString::fromLatin1(privacy::accountantKindName(result.config.privacy.accountant)),
            QString::fromStdString(train::runStatusName(result.status)),
            QString::number(result.elapsedSeconds, 'f', 2)} +
        ui::settingCells(configs[i], settings));
  }
  return csv.bytes();
}

void writeSweepOutputs(const QString& dir, const std::vector<train::SweepPoint>& points,
                       const std::vector<train::RunResult>& results, const QString& summaryPath,
                       const std::vector<bool>& kept) {
  if (!QDir().mkpath(dir))
    throw std::runtime_error(dir.toStdString() + ": cannot create the output folder");
  const QDir out(dir);
  for (std::size_t i = 0; i < points.size() && i < results.size(); ++i)
    if (i >= kept.size() || !kept[i])
      writeFileAtomically(out.filePath(runFileName(points[i])),
                          runFileBytes(points[i], results[i]));
  writeFileAtomically(
      summaryPath.isEmpty() ? out.filePath(QStringLiteral("summary.csv")) : summaryPath,
      summaryCsv(points, results));
}

}  // namespace epsilon::cli
