#include "base/io/run_verification.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include "base/io/experiment_json.h"
#include "base/io/json_reader.h"
#include "base/io/number_format.h"
#include "core/audit/canaries.h"
#include "core/common/errors.h"
#include "core/common/parallel.h"
#include "core/train/experiment_schema.h"

namespace epsilon::ui {

namespace {

const QString kMismatch = QStringLiteral("ε in the file does not match its settings");

// Stored and recomputed ε agree when they are the same double, as a file written by
// EpsilonLab holds it (JSON numbers round-trip exactly); both infinite counts as agreeing.
bool sameEpsilon(double stored, double recomputed) {
  if (std::isinf(stored) || std::isinf(recomputed)) return stored == recomputed;
  return std::fabs(stored - recomputed) <= 1e-12 * std::max(1.0, std::fabs(recomputed));
}

QString mismatch(const EvalPoint& point, double recomputed) {
  return kMismatch + QStringLiteral(": the file says %1 at step %2, its settings give %3")
                         .arg(formatEpsilon(point.epsilon))
                         .arg(point.step)
                         .arg(formatEpsilon(recomputed));
}

// An audited run (`epsilonlab-cli audit`) trained on its base rows and the included canaries,
// not on the N its settings give.
train::RunPlanInput trainedOn(const RunRecord& run, train::RunPlanInput input) {
  if (const auto& audit = run.canaryAudit; audit && audit->runTrainedWithCanaries) {
    input.trainSize = audit::auditedTrainSize(
        input.trainSize, audit->canaries, audit::parseCanaryKind(audit->canaryKind.toStdString()),
        audit->included);
  }
  return input;
}

}  // namespace

bool verifyStatedEpsilon(RunRecord& run, const PlanInputOf& planInput) {
  if (run.evals.empty()) return true;
  privacy::PrivacyRunDescription description;
  try {
    description = train::privacyDescription(run.config, trainedOn(run, planInput(run.config)));
  } catch (const std::exception& e) {
    run.privacyLabel += QStringLiteral(" · ε not checked against the settings (%1)")
                            .arg(clipped(QString::fromUtf8(e.what())));
    return true;  // (an ε that goes down was refused when the file was read: checkEvalOrder)
  }
  const bool pld = description.accountant == privacy::AccountantKind::Pld;
  QString problem;
  for (std::size_t i = pld ? run.evals.size() - 1 : 0; i < run.evals.size(); ++i) {
    EvalPoint& point = run.evals[i];
    if (point.step < 0 || point.step > description.steps) {
      problem = kMismatch + QStringLiteral(": step %1 is outside the run's %2 steps")
                                .arg(point.step)
                                .arg(description.steps);
      continue;
    }
    const privacy::PrivacyStatement statement =
        privacy::privacyStatement(privacy::firstSteps(description, point.step));
    if (!sameEpsilon(point.epsilon, statement.epsilon) && problem.isEmpty())
      problem = mismatch(point, statement.epsilon);
  }
  if (problem.isEmpty()) return true;
  // The stored ε is not shown: every point gets the settings' ε (or none past the run's end).
  for (EvalPoint& point : run.evals) {
    const bool inside = point.step >= 0 && point.step <= description.steps;
    const privacy::PrivacyStatement statement =
        inside ? privacy::privacyStatement(privacy::firstSteps(description, point.step))
               : privacy::PrivacyStatement{};
    point.epsilon = inside ? statement.epsilon : kNaN;
    point.nominalEpsilon = statement.nominalEpsilon.value_or(kNaN);
  }
  run.message = run.message.isEmpty() ? problem : problem + QStringLiteral("; ") + run.message;
  return false;
}

bool hasEpsilonMismatch(const RunRecord& run) {
  return run.message.startsWith(kMismatch);
}

PlanInputOf memoizedPlanInput() {
  // N depends on the data set, P on the network: one plan for each pair, keyed by the values
  // of the schema's dataset.* and model.* fields (cheaper than writing the settings as JSON).
  struct Known {
    std::vector<const train::ExperimentField*> fields;
    std::map<std::vector<train::FieldValue>, train::RunPlanInput> inputs;
    std::mutex mutex;
  };
  auto known = std::make_shared<Known>();
  for (const train::ExperimentField& field : train::experimentFields())
    if (field.section() == "dataset" || field.section() == "model") known->fields.push_back(&field);
  return [known](const train::ExperimentConfig& config) {
    std::vector<train::FieldValue> key;
    key.reserve(known->fields.size());
    for (const train::ExperimentField* field : known->fields) key.push_back(field->get(config));
    // Held while a plan is made, so that a data set is loaded once, not once per thread.
    const std::lock_guard lock(known->mutex);
    auto found = known->inputs.find(key);
    if (found == known->inputs.end())
      found = known->inputs.emplace(std::move(key), train::planInput(config)).first;
    return found->second;
  };
}

void verifyStatedEpsilons(std::vector<RunRecord>& runs, const OpenWatch& watch, double from) {
  const PlanInputOf planInput = memoizedPlanInput();
  std::atomic<std::size_t> checked{0};
  // Runs are checked in parallel (a sweep of 10,000 runs has as many distinct σ, each a new
  // accounting); each run's result depends only on its own record, and the statement is a
  // pure function (privacy_statement.h), so the result is the same with any thread count.
  forEachChunk(runs.size(), 16, [&](std::size_t, std::size_t begin, std::size_t end) {
    if (watch.cancelled()) return;
    for (std::size_t i = begin; i < end; ++i) verifyStatedEpsilon(runs[i], planInput);
    const std::size_t done = checked += end - begin;
    if (watch.progress)
      watch.progress(from +
                     (1.0 - from) * static_cast<double>(done) / static_cast<double>(runs.size()));
  });
}

}  // namespace epsilon::ui
