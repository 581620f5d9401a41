#include "base/session/target_calibrator.h"

#include <utility>

namespace epsilon::ui {

void TargetCalibrator::request(QObject* receiver, const train::ExperimentConfig& config,
                               const train::RunPlanInput& input, double targetEpsilon,
                               std::function<void(const TargetCalibration&)> done) {
  m_latest.start<TargetCalibration>(
      JobKind::Calibration, receiver,
      [config, input, targetEpsilon](JobContext& context) {
        // A drag asks at every tick: an overtaken calibration stops at its next evaluation.
        return calibrateForTarget(config, input, targetEpsilon, context.cancelFlag());
      },
      std::move(done));
}

void TargetCalibrator::requestSweep(QObject* receiver, std::vector<train::SweepPoint> points,
                                    std::function<void(const SweepCalibration&)> done) {
  m_latest.start<SweepCalibration>(
      JobKind::Calibration, receiver,
      [points = std::move(points)] { return calibrateSweepForTarget(points); }, std::move(done));
}

}  // namespace epsilon::ui
