// A finished run of a σ × C sweep, as the sweep map's suites (base/io and the Sweep map tab)
// lay them out: its final test accuracy and ε at δ = 1e-5, RDP, Poisson sampling.
#pragma once

#include "base/io/run_record.h"

namespace epsilon::test {

inline ui::RunRecord finishedSweepRun(double sigma, double clip, double accuracy, double epsilon) {
  ui::RunRecord run;
  run.name = QStringLiteral("σ %1 · C %2").arg(sigma).arg(clip);
  run.status = ui::RunStatus::Done;
  run.config.privacy.noise.initial = sigma;
  run.config.privacy.privatizer.clipNorm = clip;
  run.privacyLabel = QStringLiteral("δ = 1e-5 · RDP · Poisson sampling");
  ui::EvalPoint last;
  last.epoch = 2;
  last.testAccuracy = accuracy;
  last.epsilon = epsilon;
  run.evals.push_back(last);
  return run;
}

}  // namespace epsilon::test
