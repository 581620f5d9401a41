// MainWindow: live mode — a committed change retrains at once, replacing the previous live
// run; replacing a finished one is an undoable step, and turning live mode on is remembered.
#include <QSettings>
#include <QUndoCommand>
#include <QUndoStack>
#include <algorithm>

#include "ui/charts/run_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

namespace {

// Swaps a finished live run for its replacement. The first redo() is the replacement the
// controller already made; undo takes the new run out (stopped for good, like a deleted run)
// and puts the finished one back at its row.
class ReplaceLiveRunCommand : public QUndoCommand {
 public:
  ReplaceLiveRunCommand(RunModel* model, RunRecord replaced, int replacedRow, int newId)
      : m_model(model), m_replaced(std::move(replaced)), m_replacedRow(replacedRow) {
    m_replacement.id = newId;
    setText(QObject::tr("Replace live run"));
  }
  void redo() override {
    if (m_first) {
      m_first = false;
      return;
    }
    m_replacedRow = take(m_replaced);
    m_model->restoreRun(m_replacement, std::min(m_replacementRow, m_model->rowCount()));
  }
  void undo() override {
    m_replacementRow = take(m_replacement);
    m_model->restoreRun(m_replaced, std::min(m_replacedRow, m_model->rowCount()));
  }

 private:
  // Takes `run` (by its id) out of the model, keeping its latest state; returns its row.
  int take(RunRecord& run) {
    const int row = m_model->rowOf(run.id);
    if (auto taken = m_model->takeRun(run.id)) {
      run = std::move(*taken);
      if (run.isActive()) run.status = RunStatus::Cancelled;
    }
    return row;
  }

  RunModel* m_model;
  RunRecord m_replaced;
  RunRecord m_replacement;
  int m_replacedRow;
  int m_replacementRow = 0;
  bool m_first = true;
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
  m_undo->push(new ReplaceLiveRunCommand(m_runs, std::move(kept), row, id));
  return id;
}

void MainWindow::rememberLiveMode(bool on) {
  if (m_options.useSettings) QSettings().setValue(QStringLiteral("liveMode"), on);
}

}  // namespace epsilon::ui
