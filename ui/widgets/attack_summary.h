// What the Attack tab says beside its chart about one run: the membership attack's numbers
// (AUC, TPR at FPR 1% and 0.1%, advantage) and "measured ε̂ ≥ x (95%) vs accountant ε ≤ y
// (δ, accountant, sampling)". Formatting only: every number comes from the run's record.
#pragma once

#include <QString>

#include "base/io/run_record.h"

namespace epsilon::ui {

// The attack line: "AUC 0.712 · TPR 12.30% at FPR 1% · TPR 2.10% at FPR 0.1% · advantage 0.310".
QString attackNumbersText(const AttackRecord& attack);

// The measured-vs-promised line; without a canary audit it says so, with the accountant's ε.
QString epsilonComparisonText(const RunRecord& run);

// The run's block as rich text: its colour and name, the attack line (or `missing`, why there
// is none), the ε line.
QString attackSummaryHtml(const RunRecord& run, const QString& shownName, const QString& missing);

}  // namespace epsilon::ui
