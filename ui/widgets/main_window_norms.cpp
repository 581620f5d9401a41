// MainWindow: the gradient-norm view, a tab beside Model view that follows the selected run
// (one run selected) or else the lot the controller delivered last (live while a run trains).
#include <QDockWidget>

#include "base/session/run_model.h"
#include "ui/widgets/gradient_norm_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

void MainWindow::buildGradientNormDock() {
  m_gradientNorms = new GradientNormView;
  auto* dock = new QDockWidget(tr("Gradient norms"), this);
  dock->setObjectName(QStringLiteral("gradientNormDock"));
  dock->setWidget(m_gradientNorms);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  if (auto* modelDock = findChild<QDockWidget*>(QStringLiteral("modelDock"))) {
    tabifyDockWidget(modelDock, dock);
    modelDock->raise();
  }
  // The selected run's lots when one run is selected and has norms; else the newest lot.
  connect(m_controller, &TrainingController::gradientNormsUpdated, this, [this](int runId) {
    const QList<int> selected = m_runsView->selectedRunIds();
    if (selected.size() == 1 && selected.front() != runId &&
        m_controller->lastGradientNorms(selected.front()))
      return;
    showGradientNorms(runId);
  });
}

void MainWindow::showGradientNorms(int runId) {
  const RunRecord* run = m_runs->run(runId);
  const auto sample = m_controller->lastGradientNorms(runId);
  if (!run || !sample) return;
  m_gradientNorms->setSample(sample, run->config.privacy.privatizer, run->name);
}

bool MainWindow::raiseView(const QString& name) {
  static const std::pair<const char*, const char*> docks[] = {
      {"gradient-norms", "gradientNormDock"},
      {"model", "modelDock"},
      {"help", "helpDock"},
      {"lesson", "lessonDock"}};
  for (const auto& [view, dockName] : docks) {
    if (name != QLatin1String(view)) continue;
    auto* dock = findChild<QDockWidget*>(QLatin1String(dockName));
    if (!dock) return false;
    dock->show();
    dock->raise();
    return true;
  }
  return false;
}

}  // namespace epsilon::ui
