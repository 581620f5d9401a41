// The private-tuning summary beside the Sweep map (issue 28, item 3): what releasing the best
// of the shown runs costs, beside one run alone and all of them composed. Every ε is asked of
// the one privacy statement (core/train/private_tuning.h, tuningBound; privacy_statement.h):
// nothing here computes a privacy figure. Runs on the job service (planInput reads the data
// sets' sizes).
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "base/io/run_record.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/sweep.h"

namespace epsilon::ui {

struct SweepTuningSummary {
  privacy::TuningDistribution law;
  bool drawnAtRandom = false;          // a private tuning drew the number of runs from `law`
  long long runs = 0;                  // K: the runs summed up
  privacy::PrivacyStatement tuned;     // the best released; tuned.tuning holds one run alone
  privacy::PrivacyStatement composed;  // all K runs composed, every output released
  QString boundingRun;  // the run (or grid point) whose settings bound every other's privacy
  QString problem;      // why there is no summary (no runs, PLD, no bounding run); rest unset
};

// The summary of the shown runs of `runs`. With `law` they are a private tuning whose number
// was drawn from it, each run's settings drawn from `grid`: the grid's bounding point bounds
// them (any point could have been drawn); without, a fixed sweep, summed up against a Poisson
// law of mean K and bounded by its own runs.
SweepTuningSummary sweepTuningSummary(const std::vector<RunRecord>& runs,
                                      const std::optional<privacy::TuningDistribution>& law,
                                      const std::vector<train::SweepPoint>& grid = {});

// "Releasing the best of these runs costs ε = X (random number of runs, mean μ) — one run
// alone: Y — all K composed: Z", with δ, accountant and sampling; or the problem.
QString describeSweepTuning(const SweepTuningSummary& summary);

}  // namespace epsilon::ui
