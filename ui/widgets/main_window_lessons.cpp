// MainWindow: the Lessons menu. Choosing a lesson sets the Experiment panel to its set-up,
// starts its runs, shows its paragraph and question in the Lesson dock (the answer behind a
// button) and raises the views the lesson looks at.
#include <QDir>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include "base/io/lesson_file.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "core/common/errors.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/lesson_box.h"
#include "ui/widgets/main_window.h"

// Outside any namespace (Q_INIT_RESOURCE): the lessons are compiled into the static epsilon_ui.
static void epsilonInitLessonResources() {
  Q_INIT_RESOURCE(lessons);
}

namespace epsilon::ui {

namespace {

QStringList builtinLessonFiles() {
  epsilonInitLessonResources();
  QStringList files;
  const QDir dir(QStringLiteral(":/lessons"));
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
    files << dir.filePath(name);
  return files;
}

}  // namespace

void MainWindow::buildLessonsMenu() {
  auto* menu = new QMenu(tr("&Lessons"), this);
  int number = 0;
  int minutes = 0;
  for (const QString& file : builtinLessonFiles()) {
    const Lesson lesson = readLessonFile(file);  // the built-in files are checked by the tests
    minutes += lesson.minutes;
    menu->addAction(tr("%1. %2 (%3 min)").arg(++number).arg(lesson.title).arg(lesson.minutes), this,
                    [this, file] { openLesson(file); });
  }
  menu->addSeparator();
  // What a class hour holds: reading, running and discussing every lesson.
  menu->addAction(tr("All %1 lessons: %2 min").arg(number).arg(minutes))->setEnabled(false);
  const QList<QAction*> menus = menuBar()->actions();
  menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), menu);  // before Help
}

QDockWidget* MainWindow::lessonDock() {
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("lessonDock"))) return dock;
  auto* dock = new QDockWidget(tr("Lesson"), this);
  dock->setObjectName(QStringLiteral("lessonDock"));
  dock->setWidget(new LessonBox);
  // A place of its own, never a tab behind a view it talks about: under the Experiment panel,
  // which the lesson has set up and which scrolls, so the question and the answer get the
  // height they need at 1024×768 (the right column's views keep theirs).
  if (auto* experiment = findChild<QDockWidget*>(QStringLiteral("experimentDock")))
    splitDockWidget(experiment, dock, Qt::Vertical);
  else
    addDockWidget(Qt::LeftDockWidgetArea, dock);
  return dock;
}

QList<int> MainWindow::openLesson(const QString& nameOrFile) {
  QString file = nameOrFile;
  for (const QString& builtin : builtinLessonFiles())
    if (builtin.endsWith(QLatin1Char('-') + nameOrFile + QStringLiteral(".json"))) file = builtin;
  Lesson lesson;
  std::vector<train::SweepPoint> points;
  try {
    // Every value is checked (the runs expanded) before anything changes: a bad value in the
    // file is a dialog, and the panel, the dock and the runs stay as they were.
    lesson = readLessonFile(file);
    points = lessonPoints(lesson);
    const QString error = m_panel->setConfig(lessonBaseConfig(lesson));
    if (!error.isEmpty()) throw ConfigError(error.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Cannot open the lesson"), QString::fromUtf8(e.what()));
    return {};
  }
  QDockWidget* dock = lessonDock();
  static_cast<LessonBox*>(dock->widget())->setLesson(lesson);
  dock->show();
  dock->raise();
  // The views the lesson looks at come to the front.
  const std::pair<const char*, const char*> views[] = {{"gradient-norms", "gradientNormDock"},
                                                       {"decision-boundary", "modelDock"},
                                                       {"privacy-budget", "privacyDock"}};
  for (const auto& [view, dockName] : views)
    if (lesson.lookAt.contains(QLatin1String(view)))
      if (auto* d = findChild<QDockWidget*>(QLatin1String(dockName))) d->raise();
  if (lesson.lookAt.contains(QLatin1String("sweep-map"))) showTab(tr("Sweep map"));
  if (lesson.lookAt.contains(QLatin1String("per-class"))) showTab(tr("Per class"));
  // A clean page: the runs that were here are set aside (Edit › Bring back, or Ctrl+Z).
  const int aside = m_runs->rowCount();
  m_session->setRunsAside(tr("Start lesson “%1”").arg(lesson.title));
  m_session->commitPanelConfig(m_panel->config());
  if (aside > 0)
    statusBar()->showMessage(
        tr("The %1 runs that were here are set aside: Edit › Bring back runs set aside.")
            .arg(aside),
        10000);
  try {
    return startSweep(points);
  } catch (const std::exception& e) {
    showError(tr("Cannot start the lesson's runs"), QString::fromUtf8(e.what()));
    return {};
  }
}

}  // namespace epsilon::ui
