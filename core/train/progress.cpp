#include "core/train/progress.h"

namespace epsilon::train {

std::string runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::Queued:
      return "queued";
    case RunStatus::Running:
      return "running";
    case RunStatus::Done:
      return "done";
    case RunStatus::Cancelled:
      return "cancelled";
    case RunStatus::Diverged:
      return "diverged";
    case RunStatus::Failed:
      return "failed";
  }
  return "unknown";
}

bool isFinished(RunStatus status) {
  return status != RunStatus::Queued && status != RunStatus::Running;
}

}  // namespace epsilon::train
