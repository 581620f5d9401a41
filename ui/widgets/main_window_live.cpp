// MainWindow: live mode — a committed change retrains at once, replacing the previous live
// run; replacing a finished one is an undoable step, and turning live mode on is remembered.
#include <QSettings>
#include <algorithm>

#include "base/session/run_model.h"
#include "base/session/session_history.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

namespace {

// Swaps a finished live run for its replacement. The controller has made the replacement;
// undo takes the new run out (stopped for good, like a deleted run) and puts the finished one
// back at its row; redo swaps them again.
struct LiveReplacement {
  RunModel* model;
  RunRecord replaced;
  RunRecord replacement;
  int replacedRow;
  int replacementRow = 0;

  void redo() {
    replacedRow = take(replaced);
    model->restoreRun(replacement, std::min(replacementRow, model->rowCount()));
  }
  void undo() {
    replacementRow = take(replacement);
    model->restoreRun(replaced, std::min(replacedRow, model->rowCount()));
  }
  // Takes `run` (by its id) out of the model, keeping its latest state; returns its row.
  int take(RunRecord& run) {
    const int row = model->rowOf(run.id);
    if (auto taken = model->takeRun(run.id)) {
      run = std::move(*taken);
      if (run.isActive()) run.status = RunStatus::Cancelled;
    }
    return row;
  }
};

}  // namespace

int MainWindow::startLiveRun(const train::ExperimentConfig& config, const QString& name) {
  const int previous = m_controller->liveRun();
  const RunRecord* old = m_runs->run(previous);
  // A live run still training is simply superseded: it has nothing worth keeping yet.
  if (!old || old->isActive()) return m_controller->start(config, name, true);
  const int row = m_runs->rowOf(previous);
  RunRecord kept = *m_runs->takeRun(previous);
  const int id = m_controller->start(config, name, true);
  auto swap = std::make_shared<LiveReplacement>(LiveReplacement{m_runs, std::move(kept), {}, row});
  swap->replacement.id = id;
  m_undo->push({tr("Replace live run"), [swap] { swap->undo(); }, [swap] { swap->redo(); }});
  return id;
}

void MainWindow::rememberLiveMode(bool on) {
  if (m_options.useSettings) QSettings().setValue(QStringLiteral("liveMode"), on);
}

}  // namespace epsilon::ui
