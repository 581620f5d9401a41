#include "base/io/eval_point_json.h"

#include <QJsonArray>
#include <cmath>

namespace epsilon::ui {

const QStringList& evalPointKeys() {
  static const QStringList keys{
      "step",          "epoch",           "train_loss", "test_accuracy", "test_loss",
      "epsilon",       "nominal_epsilon", "sigma",      "clip_norm",     "fraction_clipped",
      "gradient_norm", "elapsed_seconds"};
  return keys;
}

QJsonObject evalPointToJson(const EvalPoint& e) {
  QJsonObject o{{"step", static_cast<double>(e.step)},
                {"epoch", numberToJson(e.epoch)},
                {"train_loss", numberToJson(e.trainLoss)},
                {"test_accuracy", numberToJson(e.testAccuracy)},
                {"test_loss", numberToJson(e.testLoss)},
                {"epsilon", numberToJson(e.epsilon)},
                {"nominal_epsilon", numberToJson(e.nominalEpsilon)},
                {"sigma", numberToJson(e.sigma)},
                {"clip_norm", numberToJson(e.clipNorm)},
                {"fraction_clipped", numberToJson(e.fractionClipped)},
                {"gradient_norm", numberToJson(e.gradientNorm)},
                {"elapsed_seconds", numberToJson(e.elapsedSeconds)}};
  if (!e.classAccuracy.empty()) {
    QJsonArray classes;
    for (double a : e.classAccuracy) classes.append(numberToJson(a));
    o.insert(QStringLiteral("class_accuracy"), classes);
  }
  return o;
}

namespace {

// The value under the current name, else under the name older files used.
double numberAlias(JsonReader& r, const QString& key, const QString& oldKey, double fallback) {
  if (r.has(key) && r.has(oldKey))
    r.fail(oldKey, QStringLiteral("given twice (also as '%1')").arg(key));
  return r.has(oldKey) ? r.numberOrNull(oldKey, fallback) : r.numberOrNull(key, fallback);
}

// Per-class accuracies: fractions in [0, 1] or null (a class without test examples).
std::vector<double> classAccuracyFromJson(JsonReader& r) {
  const QString key = QStringLiteral("class_accuracy");
  const QJsonArray array = r.array(key);
  constexpr qsizetype kMaxClasses = 100000;
  if (array.size() > kMaxClasses)
    r.fail(
        key,
        QStringLiteral("expected at most %1 classes, got %2").arg(kMaxClasses).arg(array.size()));
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(array.size()));
  for (qsizetype i = 0; i < array.size(); ++i) {
    const QJsonValue v = array.at(i);
    if (!v.isNull() && !(v.isDouble() && v.toDouble() >= 0 && v.toDouble() <= 1))
      r.expected(QStringLiteral("%1[%2]").arg(key).arg(i),
                 QStringLiteral("a fraction in [0, 1] or null"), v);
    out.push_back(v.isNull() ? kNaN : v.toDouble());
  }
  return out;
}

// A value that cannot be negative (an epoch, ε, σ, a norm, a time): null (unknown) and +∞ pass.
double atLeastZero(JsonReader& r, const QString& key, double value) {
  if (value < 0)
    r.fail(key, QStringLiteral("expected a number ≥ 0, got %1").arg(value, 0, 'g', 12));
  return value;
}

// A fraction (an accuracy, the share of clipped gradients): null passes.
double fraction(JsonReader& r, const QString& key, double value) {
  if (value < 0 || value > 1 || std::isinf(value))
    r.fail(key, QStringLiteral("expected a fraction in [0, 1], got %1").arg(value, 0, 'g', 12));
  return value;
}

}  // namespace

EvalPoint evalPointFromJson(JsonReader& r) {
  EvalPoint e;
  const auto read = [&r](const char* key, double fallback) {
    return r.numberOrNull(QLatin1String(key), fallback);
  };
  e.step = r.integer(QStringLiteral("step"), 0, 9007199254740992.0, 0, true);
  e.epoch = atLeastZero(r, QStringLiteral("epoch"), read("epoch", e.epoch));
  e.trainLoss = read("train_loss", e.trainLoss);
  e.testAccuracy = fraction(r, QStringLiteral("test_accuracy"), read("test_accuracy", kNaN));
  e.testLoss = read("test_loss", e.testLoss);
  e.epsilon = atLeastZero(r, QStringLiteral("epsilon"), read("epsilon", e.epsilon));
  e.nominalEpsilon =
      atLeastZero(r, QStringLiteral("nominal_epsilon"), read("nominal_epsilon", e.nominalEpsilon));
  e.sigma = atLeastZero(r, QStringLiteral("sigma"), read("sigma", e.sigma));
  e.clipNorm = atLeastZero(r, QStringLiteral("clip_norm"), read("clip_norm", e.clipNorm));
  e.fractionClipped =
      fraction(r, QStringLiteral("fraction_clipped"), read("fraction_clipped", e.fractionClipped));
  e.gradientNorm = atLeastZero(r, QStringLiteral("gradient_norm"),
                               numberAlias(r, QStringLiteral("gradient_norm"),
                                           QStringLiteral("mean_grad_norm"), e.gradientNorm));
  e.elapsedSeconds = atLeastZero(r, QStringLiteral("elapsed_seconds"),
                                 numberAlias(r, QStringLiteral("elapsed_seconds"),
                                             QStringLiteral("elapsed_s"), e.elapsedSeconds));
  e.classAccuracy = classAccuracyFromJson(r);  // absent in older files: empty
  return e;
}

void checkEvalOrder(const JsonReader& r, const QString& key, const std::vector<EvalPoint>& evals) {
  // No accountant's ε goes down as steps are added (each step composes one more mechanism),
  // so a history whose ε decreases is refused rather than shown or "corrected".
  for (std::size_t i = 1; i < evals.size(); ++i) {
    const EvalPoint& before = evals[i - 1];
    const EvalPoint& point = evals[i];
    const QString at = QStringLiteral("%1[%2]").arg(key).arg(i);
    if (point.step < before.step)
      r.fail(at + QStringLiteral(".step"),
             QStringLiteral("expected steps in order, got %1 after %2")
                 .arg(point.step)
                 .arg(before.step));
    if (point.epsilon < before.epsilon)
      r.fail(at + QStringLiteral(".epsilon"),
             QStringLiteral("ε never decreases over a run's evaluations, got %1 after %2")
                 .arg(point.epsilon)
                 .arg(before.epsilon));
  }
}

}  // namespace epsilon::ui
