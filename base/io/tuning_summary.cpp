#include "base/io/tuning_summary.h"

#include <QObject>
#include <algorithm>
#include <exception>
#include <limits>

#include "base/io/number_format.h"
#include "base/io/run_conversion.h"
#include "base/io/run_verification.h"
#include "core/train/private_tuning.h"
#include "core/train/run_planning.h"

namespace epsilon::ui {

SweepTuningSummary sweepTuningSummary(const std::vector<RunRecord>& runs,
                                      const std::optional<privacy::TuningDistribution>& law,
                                      const std::vector<train::SweepPoint>& grid) {
  SweepTuningSummary out;
  std::vector<const RunRecord*> shown;
  std::vector<train::ExperimentConfig> configs;
  for (const RunRecord& run : runs)
    if (run.visible) {
      shown.push_back(&run);
      configs.push_back(run.config);
    }
  out.runs = static_cast<long long>(shown.size());
  std::vector<QString> names;
  for (const RunRecord* run : shown) names.push_back(run->name);
  if (law && !grid.empty()) {
    configs.clear();
    names.clear();
    for (const train::SweepPoint& point : grid) {
      configs.push_back(point.config);
      names.push_back(QString::fromStdString(point.label));
    }
  }
  out.drawnAtRandom = law.has_value();
  out.law = law ? *law
                : privacy::TuningDistribution{std::max(1.0, static_cast<double>(out.runs)),
                                              std::numeric_limits<double>::infinity()};
  try {
    // One plan per data set and network, not one per run (a sweep of 10,000 runs).
    const train::TuningBound bound = train::tuningBound(configs, memoizedPlanInput(), out.law);
    out.tuned = privacy::privacyStatement(bound.description);
    out.composed = privacy::privacyStatement(privacy::composedRuns(bound.description, out.runs));
    out.boundingRun = names[bound.index];
  } catch (const std::exception& e) {
    out.problem = QString::fromUtf8(e.what());
  }
  return out;
}

QString describeSweepTuning(const SweepTuningSummary& s) {
  if (!s.problem.isEmpty())
    return QObject::tr("No private-tuning summary for the shown runs: %1").arg(s.problem);
  // "best of a random number of runs (Poisson, mean 4)" → "random number of runs: Poisson,
  // mean 4", to sit in the sentence's parentheses.
  QString words = QString::fromStdString(privacy::tuningWords(s.law));
  words.remove(QStringLiteral("best of a "));
  words.replace(QStringLiteral(" ("), QStringLiteral(": "));
  words.chop(1);
  const QString label = privacyLabelOf(s.tuned);
  const QString one = formatEpsilon(s.tuned.tuning->singleRunEpsilon);
  if (s.drawnAtRandom)
    return QObject::tr(
               "Releasing the best of these runs costs ε = %1 (%2) — one run alone: "
               "%3 — all %4 composed: %5 · %6 · bounded by the settings of %7")
        .arg(formatEpsilon(s.tuned.epsilon), words, one)
        .arg(s.runs)
        .arg(formatEpsilon(s.composed.epsilon), label, s.boundingRun.left(80));
  return QObject::tr(
             "These %1 runs are a fixed sweep: releasing the best costs all %1 composed: "
             "ε = %2 — one run alone: %3. Had their number been drawn at random, "
             "releasing the best would cost ε = %4 (%5) · %6 · bounded by the "
             "settings of %7")
      .arg(s.runs)
      .arg(formatEpsilon(s.composed.epsilon), one, formatEpsilon(s.tuned.epsilon), words, label,
           s.boundingRun.left(80));
}

}  // namespace epsilon::ui
