// The one JSON schema of an evaluation point, shared by session files, run files and the
// CLI's JSON lines. Written names: step, epoch, train_loss, test_accuracy, test_loss, epsilon,
// nominal_epsilon, sigma, clip_norm, fraction_clipped, gradient_norm, elapsed_seconds; NaN is
// null and ∞ is "inf"; class_accuracy, the test accuracy per class (an array, null for a class
// without test examples), when the run recorded it (older files have none). Older files still read:
// elapsed_s and mean_grad_norm (run files also wrote ∞ as null: readRunFile turns such an ε back
// into ∞).
#pragma once

#include <QJsonObject>
#include <QStringList>
#include <vector>

#include "base/io/json_reader.h"
#include "base/io/run_record.h"

namespace epsilon::ui {

QJsonObject evalPointToJson(const EvalPoint& point);

// Reads the evaluation keys of `r` (the caller allows or reads any others, then finishes).
// Throws ConfigError naming the key path.
EvalPoint evalPointFromJson(JsonReader& r);

// Refuses a history (the evaluations under `key` of `r`) whose steps go back or whose ε goes
// down: no run records either. Throws ConfigError naming the point ("evals[4].epsilon").
void checkEvalOrder(const JsonReader& r, const QString& key, const std::vector<EvalPoint>& evals);

// The written names of the numbers, in column order (CSV headers use them too; the per-class
// array is not a column).
const QStringList& evalPointKeys();

}  // namespace epsilon::ui
