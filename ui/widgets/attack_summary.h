// What the Attack tab says beside its chart about its runs: the membership attack's numbers
// (AUC, TPR at FPR 1% and 0.1%, advantage) and measured ε̂ vs the accountant's ε with its δ,
// accountant and sampling. Formatting only: every number comes from the runs' records.
#pragma once

#include <QString>
#include <vector>

#include "base/io/run_record.h"

namespace epsilon::ui {

// The measured-vs-promised line; without a canary audit it says so, with the accountant's ε.
QString epsilonComparisonText(const RunRecord& run);

struct AttackSummaryRow {
  const RunRecord* run = nullptr;
  QString name;     // as shown (runs that share a name get their id)
  QString missing;  // why the run has no attack result, when it has none
};

// The runs as one rich-text table, a column a run (colour and name) and a row a measure: AUC,
// TPR at FPR 1% and 0.1%, advantage, measured ε̂ and the accountant's ε with a mark pointing to
// its δ, accountant and sampling under the table (LiRA's AUC and TPRs too when a run has them);
// then why a run has no attack result, what LiRA found against the loss threshold and each
// canary audit's line.
QString attackSummaryHtml(const std::vector<AttackSummaryRow>& rows);

}  // namespace epsilon::ui
