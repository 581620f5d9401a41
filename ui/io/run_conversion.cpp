#include "ui/io/run_conversion.h"

#include <cmath>

#include "ui/io/experiment_json.h"
#include "ui/io/number_format.h"

namespace epsilon::ui {

RunStatus toUiStatus(train::RunStatus s) {
  switch (s) {
    case train::RunStatus::Queued:
      return RunStatus::Queued;
    case train::RunStatus::Running:
      return RunStatus::Running;
    case train::RunStatus::Done:
      return RunStatus::Done;
    case train::RunStatus::Cancelled:
      return RunStatus::Cancelled;
    case train::RunStatus::Diverged:
      return RunStatus::Diverged;
    case train::RunStatus::Failed:
      return RunStatus::Failed;
  }
  return RunStatus::Failed;
}

QString privacyLabelOf(const train::PrivacySpent& p) {
  if (p.accountant.empty()) return {};
  QString label =
      QStringLiteral("δ = %1 · %2 · %3")
          .arg(formatDelta(p.delta),
               p.accountant == "rdp" ? QStringLiteral("RDP") : QStringLiteral("PLD (tight)"),
               QString::fromStdString(p.sampling));
  if (!p.status.empty()) label += QStringLiteral(" · ") + QString::fromStdString(p.status);
  if (std::isfinite(p.nominalEpsilon))
    label += QStringLiteral(" · nominal ε %1 (%2)")
                 .arg(formatEpsilon(p.nominalEpsilon), QString::fromStdString(p.nominalLabel));
  return label;
}

QString privacyLabelOf(const privacy::PrivacyReport& report) {
  train::PrivacySpent spent;
  spent.epsilon = report.epsilon;
  spent.delta = report.delta;
  spent.accountant = report.accountant;
  spent.sampling = report.samplingLabel;
  spent.status = report.statusLabel;
  if (report.nominalEpsilon) spent.nominalEpsilon = *report.nominalEpsilon;
  spent.nominalLabel = report.nominalLabel;
  return privacyLabelOf(spent);
}

EvalPoint toEvalPoint(const train::ProgressEvent& e) {
  EvalPoint p;
  p.step = e.step;
  p.epoch = e.epoch;
  p.trainLoss = e.trainLoss;
  p.testAccuracy = e.testAccuracy;
  p.testLoss = e.testLoss;
  p.epsilon = e.privacy.epsilon;
  p.nominalEpsilon = e.privacy.nominalEpsilon;
  p.sigma = e.sigma;
  p.clipNorm = e.clipNorm;
  p.fractionClipped = e.fractionClipped;
  p.gradientNorm = e.meanGradientNorm;
  p.elapsedSeconds = e.elapsedSeconds;
  return p;
}

RunRecord recordFromResult(const train::RunResult& result, const QString& name) {
  RunRecord r;
  r.name = name;
  r.status = toUiStatus(result.status);
  r.message = QString::fromStdString(result.message);
  r.progress = result.status == train::RunStatus::Done ? 1.0 : 0.0;
  r.config = result.config;
  r.elapsedSeconds = result.elapsedSeconds;
  for (const auto& e : result.history) {
    if (e.kind != train::EventKind::Evaluation) continue;
    r.evals.push_back(toEvalPoint(e));
    if (std::isfinite(e.trainLoss)) r.losses.push_back({e.step, e.trainLoss});
    r.privacyLabel = privacyLabelOf(e.privacy);
  }
  return r;
}

}  // namespace epsilon::ui
