// MainWindow: the pace of small runs. A 2-D run finishes in a twentieth of a second, too fast
// to see the boundary, the curves or the gradient norms move; Run › Pace spreads its steps
// over a few seconds (training.paceSeconds), which never changes a result.
#include <QActionGroup>
#include <QMenu>
#include <QMenuBar>

#include "ui/widgets/main_window.h"

namespace epsilon::ui {

void MainWindow::buildPaceMenu() {
  QMenu* run = nullptr;
  for (QAction* a : menuBar()->actions())
    if (a->menu() && a->text().remove(QLatin1Char('&')) == tr("Run")) run = a->menu();
  if (!run) return;
  QMenu* pace = run->addMenu(tr("&Pace (small data sets)"));
  pace->setToolTip(
      tr("Spread a short run over a few seconds to watch it train; results are unchanged"));
  auto* group = new QActionGroup(pace);
  const std::pair<QString, double> choices[] = {
      {tr("As set (lessons: 4 s per run)"), -1.0},
      {tr("Real time"), 0.0},
      {tr("At least 2 s per run"), 2.0},
      {tr("At least 4 s per run"), 4.0},
      {tr("At least 10 s per run"), train::kMaxPaceSeconds}};
  for (const auto& [text, seconds] : choices) {
    QAction* action = pace->addAction(text, this, [this, s = seconds] { m_paceSeconds = s; });
    action->setCheckable(true);
    action->setChecked(seconds == m_paceSeconds);
    action->setObjectName(QStringLiteral("pace%1").arg(seconds));
    group->addAction(action);
  }
}

train::ExperimentConfig MainWindow::paced(train::ExperimentConfig config) const {
  if (m_paceSeconds >= 0) config.training.paceSeconds = m_paceSeconds;
  return config;
}

}  // namespace epsilon::ui
