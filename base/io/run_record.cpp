#include "base/io/run_record.h"

namespace epsilon::ui {

QString runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::Queued:
      return QStringLiteral("queued");
    case RunStatus::Running:
      return QStringLiteral("running");
    case RunStatus::Done:
      return QStringLiteral("done");
    case RunStatus::Cancelled:
      return QStringLiteral("cancelled");
    case RunStatus::Diverged:
      return QStringLiteral("diverged");
    case RunStatus::Failed:
      return QStringLiteral("failed");
  }
  return QStringLiteral("failed");
}

RunStatus parseRunStatus(const QString& text) {
  for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Done, RunStatus::Cancelled,
                      RunStatus::Diverged, RunStatus::Failed}) {
    if (runStatusName(s) == text) return s;
  }
  return RunStatus::Failed;
}

}  // namespace epsilon::ui
