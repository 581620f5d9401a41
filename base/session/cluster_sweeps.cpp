#include "base/session/cluster_sweeps.h"

#include <QDir>
#include <QJsonDocument>
#include <QSet>
#include <QTimer>
#include <optional>
#include <utility>

#include "base/cluster/run_folder_watcher.h"
#include "base/cluster/slurm_client.h"
#include "base/io/experiment_json.h"
#include "base/io/run_file.h"
#include "base/jobs/job_service.h"
#include "base/session/run_model.h"

namespace epsilon::ui {

struct ClusterSweeps::Folder {
  std::unique_ptr<cluster::RunFolderWatcher> watcher;
  QTimer slurmTimer;
  bool asking = false;  // a Slurm question is on the job service
  QSet<int> read;       // sweep indices whose run file was read (or is being read)
};

namespace {

// What one look at Slurm found (on the job service's thread).
struct SlurmView {
  int tasks = 1;
  QList<cluster::TaskStatus> statuses;
  QMap<int, QString> tails;  // a failed task's log tail
};

SlurmView lookAtSlurm(const QString& folder) {
  const cluster::ClusterJob job = cluster::readClusterJob(folder);
  SlurmView view;
  view.tasks = job.tasks;
  view.statuses = cluster::currentStatus(job);
  for (const cluster::TaskStatus& t : view.statuses)
    if (t.state == cluster::TaskState::Failed)
      view.tails.insert(t.task, cluster::logTail(job.logPath(t.task), 5));
  return view;
}

// The status and message a task's state gives a run waiting for it; none: leave it (a task
// that is done gives its runs when their files land).
std::optional<std::pair<RunStatus, QString>> runStateOf(const cluster::TaskStatus& t,
                                                        const QString& tail) {
  const QString where = ClusterSweeps::tr("Slurm job %1, task %2").arg(t.jobId).arg(t.task);
  switch (t.state) {
    case cluster::TaskState::Pending:
      return std::pair{RunStatus::Queued,
                       ClusterSweeps::tr("pending on the cluster (%1)").arg(where)};
    case cluster::TaskState::Running:
      return std::pair{RunStatus::Running,
                       ClusterSweeps::tr("running on the cluster (%1)").arg(where)};
    case cluster::TaskState::Failed:
      return std::pair{
          RunStatus::Failed,
          ClusterSweeps::tr("failed on the cluster (%1): %2\n%3").arg(where, t.detail, tail)};
    case cluster::TaskState::Cancelled:
      return std::pair{RunStatus::Cancelled,
                       ClusterSweeps::tr("cancelled on the cluster (%1)").arg(where)};
    default:
      return std::nullopt;
  }
}

// scancel of the whole job (every waiting run is stopped) or of the tasks that write `runs`
// (a task that writes other runs too stops them as well).
QStringList cancelOnSlurm(const cluster::ClusterJob& job, bool all, const QList<int>& runs) {
  if (all) return cluster::cancelActiveTasks(job);
  QSet<int> tasks;
  for (int index : runs) tasks.insert(index % job.tasks + 1);
  QStringList cancelled;
  for (int task : tasks) cancelled << cluster::cancelActiveTasks(job, task);
  return cancelled;
}

bool waitsIn(const RunRecord& run, const QString& folder) {
  return run.cluster && run.cluster->folder == folder && run.isActive();
}

}  // namespace

QStringList clusterSweepArgs(const ClusterSweepRequest& request) {
  if (!request.preset.isEmpty())
    return {QStringLiteral("--preset"),  request.preset,
            QStringLiteral("--dataset"), request.dataset,
            QStringLiteral("--jobs"),    cluster::taskJobs(request.settings)};
  QStringList args{QStringLiteral("--config"),
                   QDir(request.folder).filePath(QLatin1String(cluster::kConfigCopyName))};
  const QString flags[2] = {QStringLiteral("--param"), QStringLiteral("--param2")};
  for (std::size_t i = 0; i < request.axes.size() && i < 2; ++i) {
    QStringList values;
    for (const std::string& v : request.axes[i].values) values << QString::fromStdString(v);
    args << flags[i]
         << QString::fromStdString(request.axes[i].parameter) + QLatin1Char('=') +
                values.join(QLatin1Char(','));
  }
  if (request.targetEpsilon)
    args << QStringLiteral("--target-epsilon") << QString::number(*request.targetEpsilon, 'g', 17);
  args << QStringLiteral("--jobs") << cluster::taskJobs(request.settings);
  return args;
}

ClusterSweeps::ClusterSweeps(RunModel* runs, QObject* parent) : QObject(parent), m_runs(runs) {
  // Runs taken out of the model (deleted, another session opened) are no longer expected.
  const auto recheck = [this] {
    for (const QString& folder : followed()) dropIfFinished(folder);
  };
  connect(m_runs, &QAbstractItemModel::rowsRemoved, this, recheck);
  connect(m_runs, &QAbstractItemModel::modelReset, this, recheck);
}

ClusterSweeps::~ClusterSweeps() = default;

void ClusterSweeps::setIntervals(int folderMs, int slurmMs) {
  m_folderMs = folderMs;
  m_slurmMs = slurmMs;
}

QList<int> ClusterSweeps::submit(const ClusterSweepRequest& request) {
  QList<int> ids;
  for (std::size_t i = 0; i < request.points.size(); ++i) {
    RunRecord run;
    run.name = request.names.value(static_cast<int>(i));
    run.config = request.points[i].config;
    run.status = RunStatus::Queued;
    run.message = tr("submitting to Slurm");
    run.cluster = ClusterPlace{request.folder, request.points[i].index};
    ids << m_runs->addRun(run);
  }
  cluster::SweepSubmission submission;
  submission.dir = request.folder;
  submission.cli = request.cli;
  submission.sweepArgs = clusterSweepArgs(request);
  if (request.preset.isEmpty())
    submission.configCopy = QJsonDocument(experimentToJson(request.base)).toJson();
  submission.runs = static_cast<int>(request.points.size());
  submission.settings = request.settings;
  const QString folder = request.folder;
  JobService::instance().start<cluster::ClusterJob>(
      JobKind::Cluster, tr("submitting a sweep to Slurm"), this,
      [submission](JobContext&) { return cluster::submitSweep(submission); },
      [this, folder, ids](const cluster::ClusterJob& job) {
        for (int id : ids)
          m_runs->setStatus(id, RunStatus::Queued,
                            tr("queued on the cluster (Slurm job %1)").arg(job.jobIds.front()));
        followFolder(folder);
        Q_EMIT submitted(folder, job.jobIds.front());
      },
      [this, folder, ids](const QString& message) {
        for (int id : ids) m_runs->takeRun(id);
        Q_EMIT failed(folder, message);
      });
  return ids;
}

void ClusterSweeps::follow() {
  QStringList folders;
  for (const RunRecord& run : m_runs->runs())
    if (run.cluster && run.isActive() && !folders.contains(run.cluster->folder))
      folders << run.cluster->folder;
  for (const QString& folder : folders) followFolder(folder);
}

void ClusterSweeps::followFolder(const QString& folder) {
  if (m_folders.count(folder)) return;
  auto entry = std::make_unique<Folder>();
  Folder* f = entry.get();
  m_folders[folder] = std::move(entry);
  f->watcher = std::make_unique<cluster::RunFolderWatcher>(folder, m_folderMs);
  connect(f->watcher.get(), &cluster::RunFolderWatcher::runLanded, this,
          [this, folder](int index, const QString& path) { onLanded(folder, index, path); });
  if (m_slurmMs > 0) {
    connect(&f->slurmTimer, &QTimer::timeout, this, [this, folder] { askSlurm(folder); });
    f->slurmTimer.start(m_slurmMs);
    askSlurm(folder);
  }
  f->watcher->check();
}

QStringList ClusterSweeps::followed() const {
  QStringList folders;
  for (const auto& [folder, entry] : m_folders) folders << folder;
  return folders;
}

// The run a landed file fills: not yet done. A run already shown failed or cancelled is filled
// too: the file is the truth (on a network file system Slurm may report a task completed
// before this machine sees its files).
int ClusterSweeps::runOf(const QString& folder, int index) const {
  for (const RunRecord& run : m_runs->runs())
    if (run.cluster && run.cluster->folder == folder && run.cluster->index == index &&
        run.status != RunStatus::Done)
      return run.id;
  return 0;
}

void ClusterSweeps::onLanded(const QString& folder, int index, const QString& path) {
  const int id = runOf(folder, index);
  if (id == 0) return;
  if (const auto f = m_folders.find(folder); f != m_folders.end()) f->second->read.insert(index);
  JobService::instance().start<RunRecord>(
      JobKind::Cluster, tr("reading %1").arg(QDir(folder).relativeFilePath(path)), this,
      [path](JobContext&) { return readRunFile(path); },
      [this, id](const RunRecord& landed) { fill(id, landed); },
      [this, id, folder](const QString& message) {
        m_runs->setStatus(id, RunStatus::Failed, message);
        dropIfFinished(folder);
      });
}

void ClusterSweeps::fill(int id, const RunRecord& landed) {
  const RunRecord* run = m_runs->run(id);
  if (!run || !run->cluster || run->status == RunStatus::Done) return;
  const QString folder = run->cluster->folder;
  m_runs->setPrivacyLabel(id, landed.privacyLabel);
  for (const EvalPoint& point : landed.evals) m_runs->appendEval(id, point);
  m_runs->appendLosses(id, landed.losses);
  m_runs->setProgress(id, 1.0, landed.elapsedSeconds);
  if (landed.attack) m_runs->setAttack(id, *landed.attack);
  m_runs->setStatus(id, landed.status,
                    landed.message.isEmpty() ? tr("trained on the cluster") : landed.message);
  dropIfFinished(folder);
}

void ClusterSweeps::askSlurm(const QString& folder) {
  const auto it = m_folders.find(folder);
  if (it == m_folders.end() || it->second->asking) return;
  it->second->asking = true;
  JobService::instance().start<SlurmView>(
      JobKind::Cluster, tr("asking Slurm"), this,
      [folder](JobContext&) { return lookAtSlurm(folder); },
      [this, folder](const SlurmView& view) {
        if (const auto f = m_folders.find(folder); f != m_folders.end()) f->second->asking = false;
        showTasks(folder, view.statuses, view.tails);
      },
      [this, folder](const QString& message) {
        if (const auto f = m_folders.find(folder); f != m_folders.end()) f->second->asking = false;
        for (const RunRecord& run : m_runs->runs())
          if (waitsIn(run, folder))
            m_runs->setStatus(run.id, run.status, tr("cannot ask Slurm: %1").arg(message));
      });
}

void ClusterSweeps::showTasks(const QString& folder, const QList<cluster::TaskStatus>& tasks,
                              const QMap<int, QString>& tails) {
  QMap<int, cluster::TaskStatus> byTask;
  for (const cluster::TaskStatus& t : tasks) byTask.insert(t.task, t);
  QList<std::pair<int, std::pair<RunStatus, QString>>> changes;  // not while iterating the runs
  for (const RunRecord& run : m_runs->runs()) {
    // A failed or cancelled run follows its task too: resubmitted, it is queued again.
    if (!expects(run, folder) || byTask.isEmpty()) continue;
    const auto t = byTask.find(run.cluster->index % static_cast<int>(byTask.size()) + 1);
    if (t == byTask.end()) continue;
    const auto state = runStateOf(*t, tails.value(t->task));
    if (state && (state->first != run.status || state->second != run.message))
      changes.append({run.id, *state});
  }
  for (const auto& [id, state] : changes) m_runs->setStatus(id, state.first, state.second);
  dropIfFinished(folder);
}

void ClusterSweeps::cancel(const QList<int>& ids) {
  QMap<QString, QList<int>> indices;  // folder -> the sweep indices to stop
  for (int id : ids)
    if (const RunRecord* run = m_runs->run(id); run && run->cluster && run->isActive())
      indices[run->cluster->folder] << run->cluster->index;
  for (auto it = indices.begin(); it != indices.end(); ++it) {
    const QString folder = it.key();
    int waiting = 0;
    for (const RunRecord& run : m_runs->runs()) waiting += waitsIn(run, folder) ? 1 : 0;
    const bool all = waiting == static_cast<int>(it.value().size());
    JobService::instance().start<QStringList>(
        JobKind::Cluster, tr("cancelling on Slurm"), this,
        [folder, all, runs = it.value()](JobContext&) {
          return cancelOnSlurm(cluster::readClusterJob(folder), all, runs);
        },
        [this, folder](const QStringList&) { askSlurm(folder); },
        [this, folder](const QString& message) { Q_EMIT failed(folder, message); });
  }
}

// A run of the folder still expects its file while none was read for it, whatever Slurm said
// of its task (failed, cancelled: `cluster resubmit --failed` may still write it; completed
// before a network file system shows the file here). The folder is let go only when nothing
// more can land for a run of the model.
bool ClusterSweeps::expects(const RunRecord& run, const QString& folder) const {
  if (!run.cluster || run.cluster->folder != folder || run.status == RunStatus::Done) return false;
  const auto f = m_folders.find(folder);
  return f == m_folders.end() || !f->second->read.contains(run.cluster->index);
}

bool ClusterSweeps::expectsFiles(const QString& folder) const {
  for (const RunRecord& run : m_runs->runs())
    if (expects(run, folder)) return true;
  return false;
}

void ClusterSweeps::dropIfFinished(const QString& folder) {
  if (expectsFiles(folder)) return;
  // Later: this may be called from the folder's own watcher or timer.
  QTimer::singleShot(0, this, [this, folder] {
    if (!expectsFiles(folder)) m_folders.erase(folder);
  });
}

}  // namespace epsilon::ui
