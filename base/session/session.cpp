#include "base/session/session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <mutex>

#include "base/io/session_file.h"
#include "base/session/run_model.h"
#include "base/session/session_history.h"
#include "core/train/config_compare.h"

namespace epsilon::ui {

struct Session::RecoveryGate {
  std::mutex mutex;
  long long generation = 0;  // raised by every removal of the copy
};

namespace {
// Writes the recovery copy; the error's text, or empty. Atomic: a kill mid-write keeps the
// last copy.
QString writeRecoveryCopy(const QString& path, const std::vector<RunRecord>& runs) {
  try {
    QDir().mkpath(QFileInfo(path).absolutePath());  // a fresh account has no data folder
    saveSession(path, runs);
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

// "noise_multiplier" from "privacy.noise.initial"-like keys: the last part reads best in a menu.
QString shortFieldName(const std::string& key) {
  const QString k = QString::fromStdString(key);
  return k.mid(k.lastIndexOf(QLatin1Char('.')) + 1);
}
}  // namespace

Session::Session(QObject* parent)
    : QObject(parent),
      m_runs(new RunModel(this)),
      m_history(new SessionHistory(this)),
      m_autosave(new QTimer(this)),
      m_gate(std::make_shared<RecoveryGate>()) {
  m_autosave->setSingleShot(true);
  connect(m_autosave, &QTimer::timeout, this, &Session::writeRecoveryInBackground);
  // Whatever changes the runs is unsaved work (a run trained further included).
  connect(m_runs, &RunModel::runsChanged, this, &Session::markModified);
  connect(m_runs, &RunModel::historyChanged, this, &Session::markModified);
  connect(m_runs, &QAbstractItemModel::dataChanged, this, &Session::markModified);
  connect(m_runs, &RunModel::attackChanged, this, &Session::markModified);
  connect(m_history, &SessionHistory::changed, this, &Session::markModified);
  // Renaming, showing and hiding in the Runs table are edits the user can undo.
  connect(m_runs, &RunModel::renamedByUser, this,
          [this](int id, const QString& before, const QString& after) {
            m_history->push({tr("Rename run"), [this, id, before] { m_runs->rename(id, before); },
                             [this, id, after] { m_runs->rename(id, after); }});
          });
  connect(m_runs, &RunModel::shownByUser, this, [this](int id, bool visible) {
    m_history->push({visible ? tr("Show run") : tr("Hide run"),
                     [this, id, visible] { m_runs->setVisible(id, !visible); },
                     [this, id, visible] { m_runs->setVisible(id, visible); }});
  });
}

void Session::commitPanelConfig(const train::ExperimentConfig& config) {
  const std::vector<std::string> changed = train::differingFields(m_panelConfig, config);
  if (changed.empty()) return;
  QString text = tr("Change %1").arg(shortFieldName(changed.front()));
  if (changed.size() > 1) text = tr("Change %1 settings").arg(changed.size());
  const train::ExperimentConfig before = m_panelConfig;
  m_panelConfig = config;
  m_history->push({text,
                   [this, before] {
                     m_panelConfig = before;
                     Q_EMIT panelConfigRestored(before);
                   },
                   [this, config] {
                     m_panelConfig = config;
                     Q_EMIT panelConfigRestored(config);
                   }});
}

void Session::takeRuns(const QList<int>& ids, std::vector<RunRecord>& into) {
  for (int id : ids)
    if (auto run = m_runs->takeRun(id)) {
      if (run->isActive()) run->status = RunStatus::Cancelled;  // its job is cancelled
      into.push_back(std::move(*run));
    }
}

void Session::setRunsAside(const QString& text) {
  QList<int> ids;
  for (const RunRecord& r : m_runs->runs()) ids << r.id;
  if (ids.isEmpty()) return;
  const std::size_t before = m_aside.size();
  takeRuns(ids, m_aside);
  Q_EMIT runsSetAsideChanged(runsSetAside());
  // Undo puts exactly these runs back where they were; redo sets them aside again.
  m_history->push({text,
                   [this, before] {
                     for (std::size_t i = before; i < m_aside.size(); ++i)
                       m_runs->restoreRun(m_aside[i], static_cast<int>(i - before));
                     m_aside.resize(before);
                     Q_EMIT runsSetAsideChanged(runsSetAside());
                   },
                   [this, ids] {
                     takeRuns(ids, m_aside);
                     Q_EMIT runsSetAsideChanged(runsSetAside());
                   }});
}

void Session::bringBackRunsSetAside() {
  if (m_aside.empty()) return;
  std::vector<RunRecord> back;
  back.swap(m_aside);
  QList<int> ids;
  for (const RunRecord& r : back) {
    ids << r.id;
    m_runs->restoreRun(r, m_runs->rowCount());
  }
  Q_EMIT runsSetAsideChanged(0);
  m_history->push({tr("Bring back %1 runs").arg(ids.size()),
                   [this, ids] {
                     takeRuns(ids, m_aside);
                     Q_EMIT runsSetAsideChanged(runsSetAside());
                   },
                   [this, ids] {
                     std::vector<RunRecord> again;
                     again.swap(m_aside);
                     for (const RunRecord& r : again) m_runs->restoreRun(r, m_runs->rowCount());
                     Q_EMIT runsSetAsideChanged(0);
                   }});
}

void Session::clear() {
  m_history->clear();
  m_runs->clear();
  m_aside.clear();
  Q_EMIT runsSetAsideChanged(0);
}

void Session::resetPanelConfig(const train::ExperimentConfig& config) {
  m_panelConfig = config;
}

void Session::markModified() {
  if (!m_recoveryFile.isEmpty() && !m_autosave->isActive()) m_autosave->start();
  if (m_modified) return;
  m_modified = true;
  Q_EMIT modifiedChanged(true);
}

void Session::setSaved() {
  m_autosave->stop();
  m_recoveryWrite.cancel();
  if (!m_recoveryFile.isEmpty()) {
    const std::lock_guard lock(m_gate->mutex);  // waits for a write already under way
    ++m_gate->generation;
    QFile::remove(m_recoveryFile);
  }
  if (!m_modified) return;
  m_modified = false;
  Q_EMIT modifiedChanged(false);
}

void Session::save(const QString& path) {
  saveSession(path, m_runs->runs());
  setSaved();
}

void Session::markRecovered() {
  markModified();
  writeRecoveryNow();
}

void Session::setRecoveryFile(const QString& path, int delayMs) {
  m_recoveryFile = path;
  m_autosave->setInterval(delayMs);
}

std::vector<RunRecord> Session::recoverySnapshot() const {
  // Runs set aside are work too: they come back hidden.
  std::vector<RunRecord> all = m_runs->runs();
  for (RunRecord r : m_aside) {
    r.visible = false;
    all.push_back(std::move(r));
  }
  return all;
}

void Session::writeRecoveryNow() {
  m_autosave->stop();
  m_recoveryWrite.cancel();
  if (m_recoveryFile.isEmpty() || !m_modified) return;
  const std::lock_guard lock(m_gate->mutex);
  const QString error = writeRecoveryCopy(m_recoveryFile, recoverySnapshot());
  // A full disk must not interrupt the work: say so; the next change tries again.
  if (!error.isEmpty()) Q_EMIT recoveryFailed(error);
}

void Session::writeRecoveryInBackground() {
  if (m_recoveryFile.isEmpty() || !m_modified) return;
  const long long generation = m_gate->generation;
  m_recoveryWrite.start<QString>(
      JobKind::Autosave, this,
      [gate = m_gate, generation, path = m_recoveryFile, runs = recoverySnapshot()] {
        const std::lock_guard lock(gate->mutex);
        return gate->generation == generation ? writeRecoveryCopy(path, runs) : QString();
      },
      [this](const QString& error) {
        if (!error.isEmpty()) Q_EMIT recoveryFailed(error);
      });
}

}  // namespace epsilon::ui
