#include "base/io/class_accuracy.h"

#include <QObject>
#include <QStringList>
#include <cmath>

#include "base/io/number_format.h"

namespace epsilon::ui {

std::optional<ClassExtremes> classExtremes(const std::vector<double>& classAccuracy) {
  std::optional<ClassExtremes> out;
  for (std::size_t k = 0; k < classAccuracy.size(); ++k) {
    const double a = classAccuracy[k];
    if (std::isnan(a)) continue;
    const int label = static_cast<int>(k);
    if (!out) {
      out = ClassExtremes{label, label, a, a};
      continue;
    }
    if (a < out->worstAccuracy) {
      out->worst = label;
      out->worstAccuracy = a;
    }
    if (a > out->bestAccuracy) {
      out->best = label;
      out->bestAccuracy = a;
    }
  }
  return out;
}

QString describeClassExtremes(const RunRecord& run) {
  const EvalPoint* last = run.lastEval();
  const auto extremes = last ? classExtremes(last->classAccuracy) : std::nullopt;
  if (!extremes) return {};
  return QObject::tr("worst %1: %2 · best %3: %4")
      .arg(extremes->worst)
      .arg(formatPercent(extremes->worstAccuracy))
      .arg(extremes->best)
      .arg(formatPercent(extremes->bestAccuracy));
}

QString describeClassAccuracies(const RunRecord& run) {
  if (describeClassExtremes(run).isEmpty()) return {};
  QStringList lines{QObject::tr("Test accuracy per class at the last evaluation:")};
  const std::vector<double>& classes = run.lastEval()->classAccuracy;
  for (std::size_t k = 0; k < classes.size(); ++k)
    lines << (std::isnan(classes[k])
                  ? QObject::tr("class %1: no test example").arg(k)
                  : QObject::tr("class %1: %2").arg(k).arg(formatPercent(classes[k])));
  return lines.join(QLatin1Char('\n'));
}

std::vector<std::vector<QPointF>> classAccuracyCurves(const RunRecord& run) {
  std::vector<std::vector<QPointF>> curves;
  for (const EvalPoint& e : run.evals) {
    if (e.classAccuracy.size() > curves.size()) curves.resize(e.classAccuracy.size());
    for (std::size_t k = 0; k < e.classAccuracy.size(); ++k)
      if (!std::isnan(e.classAccuracy[k])) curves[k].push_back({e.epoch, e.classAccuracy[k]});
  }
  return curves;
}

QString classAccuracyEmptyText(const RunRecord& run) {
  if (run.evals.empty()) return QObject::tr("This run has not been evaluated yet.");
  return QObject::tr(
      "No per-class accuracy for this run: it was recorded before EpsilonLab kept "
      "test accuracy per class, so the per-class view is empty for it.");
}

}  // namespace epsilon::ui
