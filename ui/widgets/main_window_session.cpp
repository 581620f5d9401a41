// MainWindow: sessions and exports — saving and opening sessions (also from the command line),
// the offer to reopen the last one, the File menu's exports (charts, histories, the grid on
// the clipboard) and opening a data folder.
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <algorithm>

#include "base/io/experiment_json.h"
#include "base/io/run_conversion.h"
#include "base/io/run_file.h"
#include "base/io/run_verification.h"
#include "base/io/session_file.h"
#include "base/session/cluster_sweeps.h"
#include "base/session/dataset_store.h"
#include "base/session/run_model.h"
#include "base/session/session.h"
#include "base/session/session_history.h"
#include "base/session/session_opener.h"
#include "ui/charts/chart_export.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/file_dialogs.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/sweep_map_view.h"
#include "ui/widgets/training_controller.h"

namespace epsilon::ui {

MainWindow::Options MainWindow::startupOptions(bool sessionGiven, bool scripted) {
  Options options;
  // A session named on the command line is what the user asked for: never ask about another.
  options.offerLastSession = !sessionGiven && !scripted;
  options.useSettings = !scripted;  // scripted pictures start from the defaults
  options.guardUnsavedWork = !scripted;
  if (!scripted)
    options.recoveryFile = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                           QStringLiteral("/recovery-session.json");
  return options;
}

QString MainWindow::saveSessionTo(const QString& path) {
  try {
    m_session->save(path);
  } catch (const std::exception& e) {
    showError(tr("Cannot save the session"), QString::fromUtf8(e.what()));
    return m_lastError;
  }
  m_sessionPath = m_saveSuggestion = path;
  if (m_options.useSettings) QSettings().setValue(QStringLiteral("lastSession"), path);
  updateTitle();
  statusBar()->showMessage(tr("Saved %1 runs to %2").arg(m_runs->rowCount()).arg(path), 5000);
  return {};
}

QString MainWindow::openSessionFrom(const QString& path) {
  // Started before listening: an open under way is cancelled by this one, and its end is not
  // this one's.
  startOpeningSession(path);
  QString error;
  QEventLoop wait;
  const auto connection =
      connect(this, &MainWindow::sessionOpened, &wait,
              [&](const QString&, const QString& message, bool cancelled) {
                error = cancelled ? tr("Opening %1 was cancelled").arg(path) : message;
                wait.quit();
              });
  if (openingSession()) wait.exec();  // the window paints and answers meanwhile
  disconnect(connection);
  return error;
}

void MainWindow::startOpeningSession(const QString& path) {
  m_opener->open(path);
  m_cancelOpenAction->setEnabled(true);
  statusBar()->showMessage(tr("Opening %1…").arg(path));
}

bool MainWindow::openingSession() const {
  return m_opener->busy();
}

bool MainWindow::cancelOpeningSession() {
  return m_opener->cancel();
}

void MainWindow::connectSessionOpener() {
  m_opener = new SessionOpener(m_runs, this);
  connect(m_opener, &SessionOpener::progress, this, [this](double fraction) {
    statusBar()->showMessage(tr("Opening %1… %2% read and checked (File › Cancel opening)")
                                 .arg(m_opener->path())
                                 .arg(static_cast<int>(100.0 * fraction)));
  });
  connect(m_opener, &SessionOpener::replacing, this, [this](const QString&) {
    // The file is good: what was open before goes now, and the runs arrive in chunks.
    m_cancelOpenAction->setEnabled(false);
    m_controller->cancelAll();
    m_session->clear();
    // The runs before leave the views now; the new ones are drawn once they are all in.
    m_charts->redrawNow();
    m_sweepMap->redrawNow();
  });
  connect(m_opener, &SessionOpener::finished, this, &MainWindow::onSessionOpened);
}

void MainWindow::onSessionOpened(const OpenOutcome& outcome) {
  m_cancelOpenAction->setEnabled(false);
  const QString& path = outcome.path;
  if (outcome.cancelled) {
    statusBar()->showMessage(tr("Opening %1 was cancelled; the runs shown are unchanged").arg(path),
                             5000);
    Q_EMIT sessionOpened(path, {}, true);
    return;
  }
  if (!outcome.error.isEmpty()) {
    showError(tr("Cannot open the session"), outcome.error);
    Q_EMIT sessionOpened(path, m_lastError, false);
    return;
  }
  m_clusterSweeps->follow();  // runs still waiting for a cluster's job go on waiting
  // The views draw the opened runs now, once, rather than when their timers next fire.
  m_charts->redrawNow();
  m_sweepMap->redrawNow();
  m_sessionPath = path;
  m_saveSuggestion = outcome.saveSuggestion;
  m_session->setSaved();  // what was open before was settled; the runs are the file's
  if (m_options.useSettings && path != m_options.recoveryFile)
    QSettings().setValue(QStringLiteral("lastSession"), path);
  updateTitle();
  if (outcome.forged > 0)
    // Not a failure to open: the runs are shown with their settings' ε, and each says why.
    statusBar()->showMessage(tr("Opened %1 runs from %2; in %3 of them the ε stored in the file "
                                "did not match the run's settings, and the settings' ε is shown "
                                "(see the run's status).")
                                 .arg(outcome.count)
                                 .arg(path)
                                 .arg(outcome.forged));
  else if (outcome.missing > 0)
    // A sweep still running, or stopped part-way: what is there is shown, and what is not is
    // said (the sweep's own files give its size).
    statusBar()->showMessage(tr("Opened %1 runs from %2; %3 runs of this sweep are missing "
                                "(still running, or stopped: `sweep --resume` finishes them).")
                                 .arg(outcome.count)
                                 .arg(path)
                                 .arg(outcome.missing));
  else
    statusBar()->showMessage(tr("Opened %1 runs from %2").arg(outcome.count).arg(path), 5000);
  Q_EMIT sessionOpened(path, {}, false);
}

void MainWindow::askReopenLastSession() {
  const QString last = QSettings().value(QStringLiteral("lastSession")).toString();
  if (last.isEmpty() || !QFileInfo::exists(last)) return;
  if (QMessageBox::question(this, tr("Reopen last session?"),
                            tr("Reopen the last session, %1?").arg(last)) == QMessageBox::Yes)
    openSessionFrom(last);
}

void MainWindow::offerRecovery() {
  const QString file = m_options.recoveryFile;
  QMessageBox box(QMessageBox::Question, tr("Recover unsaved work?"),
                  tr("EpsilonLab ended without saving its last session (%1). Recover its runs?")
                      .arg(QFileInfo(file).lastModified().toString(Qt::ISODate)),
                  QMessageBox::NoButton, this);
  QPushButton* recover = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
  box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
  box.setDefaultButton(recover);
  box.exec();
  if (box.clickedButton() != recover) {
    QFile::remove(file);
    return;
  }
  if (!openSessionFrom(file).isEmpty()) return;  // the error is shown; the file is kept
  // Recovered work is still unsaved: it has no file of its own until the user saves it.
  m_sessionPath.clear();
  m_saveSuggestion.clear();
  m_session->markRecovered();
  updateTitle();
}

bool MainWindow::settleUnsavedWork() {
  if (!m_session->isModified()) return true;
  const int runs = m_runs->rowCount() + m_session->runsSetAside();
  if (!m_options.guardUnsavedWork || runs == 0) {
    if (runs == 0) m_session->setSaved();  // only settings changed: nothing lost
    return true;
  }
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved work"),
      m_session->runsSetAside() > 0
          ? tr("This session has %1 runs that are not saved, %2 of them set aside by a lesson. "
               "Save the runs on screen before going on?")
                .arg(runs)
                .arg(m_session->runsSetAside())
          : tr("This session has %1 runs that are not saved. Save them before going on?").arg(runs),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) {
    askSaveSession();
    return !m_session->isModified();  // the save dialog was cancelled, or the save failed
  }
  if (answer == QMessageBox::Discard) {
    m_session->setSaved();
    return true;
  }
  return false;
}

void MainWindow::askSaveSession() {
  QString path =
      askSaveFile(this, FolderPurpose::Sessions, tr("Save session"),
                  m_saveSuggestion.isEmpty() ? QStringLiteral("session.json") : m_saveSuggestion,
                  tr("EpsilonLab sessions (*.json)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  saveSessionTo(path);
}

void MainWindow::buildExportActions(QMenu* file) {
  QMenu* exportMenu = file->addMenu(tr("&Export chart"));
  auto exportWithDialog = [this](int kind) {
    ExportDialog dialog(kind, this);  // chart, format, size, DPI; remembers the folder
    if (dialog.exec() == QDialog::Accepted)
      exportChartTo(dialog.chartKind(), dialog.path(), dialog.size(), dialog.dpi(),
                    dialog.privacyCaption());
  };
  exportMenu->addAction(tr("Whole chart grid…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                        [exportWithDialog] { exportWithDialog(-1); });
  for (ChartKind kind : kAllChartKinds)
    exportMenu->addAction(chartTitle(kind) + QStringLiteral("…"), this,
                          [exportWithDialog, kind] { exportWithDialog(static_cast<int>(kind)); });
  exportMenu->addAction(sweepMapTitle() + QStringLiteral("…"), this,
                        [exportWithDialog] { exportWithDialog(kSweepMapChart); });
  file->addAction(tr("Export run &histories (CSV or JSON)…"), this, [this] {
    const QString path = askSaveFile(this, FolderPurpose::Histories, tr("Export histories"),
                                     QStringLiteral("runs.csv"), tr("CSV (*.csv);;JSON (*.json)"));
    if (!path.isEmpty()) exportHistoryTo(path);
  });
  file->addAction(tr("&Copy chart grid"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                  &MainWindow::copyChartGrid);
}

void MainWindow::copyChartGrid() {
  m_charts->redrawNow();
  QImage image(QSize(1600, 1000), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  m_charts->charts()->renderGrid(painter, QRectF(0, 0, 1600, 1000));
  painter.end();
  QApplication::clipboard()->setImage(image);
  statusBar()->showMessage(tr("Chart grid copied to the clipboard."), 4000);
}

QString MainWindow::exportChartTo(int chartKind, const QString& path, QSize size, int dpi,
                                  bool privacyCaption) {
  m_charts->redrawNow();
  RenderFunction render;
  QString title;
  if (chartKind < 0) {
    title = tr("EpsilonLab charts");
    render = [this](QPainter& painter, const QRectF& target) {
      m_charts->charts()->renderGrid(painter, target);
    };
  } else if (chartKind == kSweepMapChart) {
    title = sweepMapTitle();
    m_sweepMap->redrawNow();
    render = [this](QPainter& painter, const QRectF& target) {
      m_sweepMap->chart().render(painter, target);
    };
  } else {
    const auto kind = static_cast<ChartKind>(chartKind);
    title = chartTitle(kind);
    render = [this, kind](QPainter& painter, const QRectF& target) {
      m_charts->charts()->renderOne(kind, painter, target);
    };
  }
  // The caption names what the shown runs' ε assume (run_conversion.h, privacyCaption).
  const QString caption = privacyCaption ? ui::privacyCaption(m_runs->runs()) : QString();
  const QString error = exportDrawing(render, path, size, dpi, title, caption);
  if (!error.isEmpty()) {
    showError(tr("Cannot export the chart"), error);
    return error;
  }
  statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  return {};
}

QString MainWindow::exportHistoryTo(const QString& path) {
  try {
    if (QFileInfo(path).suffix().toLower() == QStringLiteral("json"))
      exportHistoryJson(path, m_runs->runs());
    else
      exportHistoryCsv(path, m_runs->runs());
  } catch (const std::exception& e) {
    showError(tr("Cannot export the histories"), QString::fromUtf8(e.what()));
    return m_lastError;
  }
  statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  return {};
}

void MainWindow::connectDataFolders() {
  connect(&DatasetStore::instance(), &DatasetStore::loaded, this, &MainWindow::onFolderLoaded);
  connect(&DatasetStore::instance(), &DatasetStore::failed, this, &MainWindow::onFolderFailed);
  // A run's settings that name a folder not loaded yet ("Load into panel", undo): the same
  // job as File › Open data folder; the panel takes the settings when the folder arrives.
  connect(m_panel, &ExperimentPanel::dataFolderNeeded, this, &MainWindow::openDataFolder);
}

void MainWindow::openDataFolder(const QString& path) {
  // Loaded as a job (a CIFAR-10 folder takes seconds): the window stays live, and the folder
  // joins the data-set list when it arrives, or a message names what is wrong with it.
  const QString clean = QDir::cleanPath(path);
  if (m_panel->selectDataset(clean)) return;
  m_pendingFolder = clean;
  statusBar()->showMessage(tr("Loading %1…").arg(clean));
  DatasetStore::instance().request(clean);
}

void MainWindow::onFolderLoaded(const QString& name,
                                const std::shared_ptr<const data::Dataset>& dataset) {
  if (name != m_pendingFolder) return;  // another set (the model view's), or an older request
  m_pendingFolder.clear();
  m_panel->addLoadedDataset(name, dataset);
  statusBar()->showMessage(tr("Added %1").arg(name), 5000);
  Q_EMIT dataFolderOpened(name, {});
}

void MainWindow::onFolderFailed(const QString& name, const QString& message) {
  if (name != m_pendingFolder) return;
  m_pendingFolder.clear();
  statusBar()->clearMessage();
  showError(tr("Cannot open the data folder"), message);
  Q_EMIT dataFolderOpened(name, message);
}

}  // namespace epsilon::ui
