// MainWindow: sessions — saving, opening (also from the command line) and the offer to
// reopen the last one.
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include "ui/charts/run_model.h"
#include "ui/io/run_file.h"
#include "ui/io/session_file.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

MainWindow::Options MainWindow::startupOptions(bool sessionGiven, bool scripted) {
  Options options;
  // A session named on the command line is what the user asked for: never ask about another.
  options.offerLastSession = !sessionGiven && !scripted;
  options.useSettings = !scripted;  // scripted pictures start from the defaults
  return options;
}

QString MainWindow::saveSessionTo(const QString& path) {
  try {
    saveSession(path, m_runs->runs());
  } catch (const std::exception& e) {
    showError(tr("Cannot save the session"), QString::fromUtf8(e.what()));
    return m_lastError;
  }
  m_sessionPath = path;
  if (m_options.useSettings) QSettings().setValue(QStringLiteral("lastSession"), path);
  updateTitle();
  statusBar()->showMessage(tr("Saved %1 runs to %2").arg(m_runs->rowCount()).arg(path), 5000);
  return {};
}

QString MainWindow::openSessionFrom(const QString& path) {
  std::vector<RunRecord> runs;
  try {
    runs = openSessionOrRuns(path);  // a session, a run file or a folder of run files
  } catch (const std::exception& e) {
    showError(tr("Cannot open the session"), QString::fromUtf8(e.what()));
    return m_lastError;
  }
  m_controller->cancelAll();
  m_undo->clear();
  m_runs->clear();
  const auto count = runs.size();
  for (auto& r : runs) m_runs->addRun(std::move(r));
  m_charts->redrawNow();
  m_sessionPath = path;
  if (m_options.useSettings) QSettings().setValue(QStringLiteral("lastSession"), path);
  updateTitle();
  statusBar()->showMessage(tr("Opened %1 runs from %2").arg(count).arg(path), 5000);
  return {};
}

void MainWindow::askReopenLastSession() {
  const QString last = QSettings().value(QStringLiteral("lastSession")).toString();
  if (last.isEmpty() || !QFileInfo::exists(last)) return;
  if (QMessageBox::question(this, tr("Reopen last session?"),
                            tr("Reopen the last session, %1?").arg(last)) == QMessageBox::Yes)
    openSessionFrom(last);
}

}  // namespace epsilon::ui
