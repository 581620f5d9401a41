// MainWindow: the gradient-norm view, a tab beside Model view that follows the lot the
// controller delivered last (live while a run trains).
#include <QDockWidget>

#include "base/session/run_model.h"
#include "ui/widgets/gradient_norm_view.h"
#include "ui/widgets/main_window.h"
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
  connect(m_controller, &TrainingController::gradientNormsUpdated, this, [this](int runId) {
    const RunRecord* run = m_runs->run(runId);
    if (!run) return;
    m_gradientNorms->setSample(m_controller->lastGradientNorms(runId),
                               run->config.privacy.privatizer, run->name);
  });
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
