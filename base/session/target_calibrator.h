// TargetCalibrator: "Fix ε" — σ₀ of a planned run for a target ε (calibrateForTarget, the one
// calibration), computed as a job on the job service: a PLD calibration takes about a second,
// so the Experiment panel asks for one at every slider tick and only the newest comes back;
// an overtaken one stops at its next ε evaluation (its job's cancel flag), freeing its core.
// A sweep with a target has each point calibrated the same way, as one job.
// GUI thread only.
#pragma once

#include <QObject>
#include <functional>

#include "base/io/privacy_preview.h"
#include "base/jobs/job_service.h"

namespace epsilon::ui {

class TargetCalibrator {
 public:
  // Cancels the request before; `done` runs on `receiver`'s thread unless a newer request, a
  // cancel() or the receiver's end came first.
  void request(QObject* receiver, const train::ExperimentConfig& config,
               const train::RunPlanInput& input, double targetEpsilon,
               std::function<void(const TargetCalibration&)> done);
  // A sweep's points, each calibrated for its own settings (calibrateSweepForTarget), as one
  // job: `done` as for request().
  void requestSweep(QObject* receiver, std::vector<train::SweepPoint> points,
                    std::function<void(const SweepCalibration&)> done);
  void cancel() { m_latest.cancel(); }
  bool busy() const { return m_latest.busy(); }

 private:
  LatestRequest m_latest;
};

}  // namespace epsilon::ui
