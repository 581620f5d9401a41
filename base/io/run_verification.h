// Trust, but verify: a run opened from a file states an ε that anyone could have edited. Each
// run's ε is recomputed from its stored settings with the one privacy statement
// (core/privacy/privacy_statement.h, via the run's planned description) and a stored ε that
// differs is not shown: the recomputed one replaces it and the run says why, with both values.
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <vector>

#include "base/io/run_record.h"
#include "core/train/run_planning.h"

namespace epsilon::ui {

// N and P of a run's config (train::planInput by default); throws when its data set is not
// available.
using PlanInputOf = std::function<train::RunPlanInput(const train::ExperimentConfig&)>;

// Checks one run: every evaluation's ε with RDP (cheap), the last one with PLD (each PLD
// accounting takes tens of milliseconds, so with PLD an earlier ε edited to lie between its
// neighbours' goes unseen; an ε that decreases is refused as the file is read, checkEvalOrder).
// On a mismatch the stored ε are replaced by the settings' and `run.message` says "ε in the
// file does not match its settings: …" with both values; when the run cannot be checked (its
// data set is missing) its privacy label says so. Returns false on a mismatch.
bool verifyStatedEpsilon(RunRecord& run, const PlanInputOf& planInput);

// True when verifyStatedEpsilon found the run's stored ε wrong (its message says so).
bool hasEpsilonMismatch(const RunRecord& run);

// train::planInput, made once per data set and network for as long as the function is kept
// (a sweep of 10,000 runs shares one or two); callable from any thread.
PlanInputOf memoizedPlanInput();

// What a long open reports and obeys (File › Open session as a job): `progress` gets the share
// done in [0, 1] from any thread; once `cancel` is set the work stops early and its result is
// incomplete (the caller drops it).
struct OpenWatch {
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(double)> progress;
  bool cancelled() const { return cancel && cancel->load(); }
};

// The same for every run, with train::planInput computed once per data set and network;
// `watch` hears how many runs are checked, from `from` to 1.
void verifyStatedEpsilons(std::vector<RunRecord>& runs, const OpenWatch& watch = {},
                          double from = 0.0);

}  // namespace epsilon::ui
