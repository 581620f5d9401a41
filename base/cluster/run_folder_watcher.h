// Tells a follower (the GUI's Runs table and charts) each run file that lands in a sweep's
// folder, once: a QFileSystemWatcher on the folder, and a polling timer as the fallback for
// network file systems, where change notifications from other machines (the cluster's nodes)
// never arrive. Both only trigger LandedRuns::poll (cluster_job.h); a run file lands in one
// rename, so a file is never reported half-written. Qt Core only; lives on the thread that
// made it (the GUI thread: listing a folder is cheap, reading the run files is the job
// service's, docs/ARCHITECTURE.md "Threading").
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include "base/cluster/cluster_job.h"

namespace epsilon::cluster {

class RunFolderWatcher : public QObject {
  Q_OBJECT

 public:
  // Watches `dir`, polling every `pollMs` as well; run files already there are reported at the
  // first check (call check() to have them at once).
  explicit RunFolderWatcher(const QString& dir, int pollMs = 5000, QObject* parent = nullptr);

  // Looks now; emits runLanded for each new run file.
  void check();

 Q_SIGNALS:
  void runLanded(int index, const QString& path);

 private:
  LandedRuns m_landed;
  QFileSystemWatcher m_watcher;
  QTimer m_poll;
};

}  // namespace epsilon::cluster
