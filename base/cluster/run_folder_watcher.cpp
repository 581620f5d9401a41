#include "base/cluster/run_folder_watcher.h"

namespace epsilon::cluster {

RunFolderWatcher::RunFolderWatcher(const QString& dir, int pollMs, QObject* parent)
    : QObject(parent), m_landed(dir) {
  m_watcher.addPath(dir);
  connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &RunFolderWatcher::check);
  connect(&m_poll, &QTimer::timeout, this, &RunFolderWatcher::check);
  m_poll.start(pollMs);
}

void RunFolderWatcher::check() {
  const QMap<int, QString> fresh = m_landed.poll();
  for (auto it = fresh.begin(); it != fresh.end(); ++it) Q_EMIT runLanded(it.key(), it.value());
}

}  // namespace epsilon::cluster
