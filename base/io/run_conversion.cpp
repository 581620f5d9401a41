#include "base/io/run_conversion.h"

#include <QObject>
#include <QStringList>
#include <cmath>

#include "base/io/experiment_json.h"
#include "base/io/number_format.h"

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

train::RunStatus toTrainStatus(RunStatus s) {
  for (train::RunStatus t :
       {train::RunStatus::Queued, train::RunStatus::Running, train::RunStatus::Done,
        train::RunStatus::Cancelled, train::RunStatus::Diverged, train::RunStatus::Failed})
    if (toUiStatus(t) == s) return t;
  return train::RunStatus::Failed;
}

QString privacyLabelOf(const privacy::PrivacyStatement& p) {
  QString label =
      QStringLiteral("δ = %1 · %2 · %3 · %4")
          .arg(formatDelta(p.delta), QString::fromUtf8(privacy::accountantWords(p.accountant)),
               QString::fromUtf8(privacy::samplingWords(p.sampling)),
               QString::fromUtf8(privacy::statusWords(p.status)));
  if (p.nominalEpsilon)
    label += QStringLiteral(" · nominal ε %1 (%2)")
                 .arg(formatEpsilon(*p.nominalEpsilon), QString::fromUtf8(privacy::kNominalLabel));
  return label;
}

QString privacyCaption(const std::vector<RunRecord>& runs) {
  QStringList labels;
  for (const RunRecord& run : runs)
    if (run.visible && !run.privacyLabel.isEmpty() && !labels.contains(run.privacyLabel))
      labels << run.privacyLabel;
  if (labels.isEmpty()) return QObject::tr("ε: no run states its privacy (δ, accountant)");
  return QObject::tr("ε at %1").arg(labels.join(QStringLiteral("; ")));
}

EvalPoint toEvalPoint(const train::ProgressEvent& e) {
  EvalPoint p;
  p.step = e.step;
  p.epoch = e.epoch;
  p.trainLoss = e.trainLoss;
  p.testAccuracy = e.testAccuracy;
  p.testLoss = e.testLoss;
  p.classAccuracy = e.classAccuracy;
  p.epsilon = e.privacy.epsilon;
  p.nominalEpsilon = e.privacy.nominalEpsilon.value_or(kNaN);
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
