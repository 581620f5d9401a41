#include "base/cluster/slurm_state.h"

#include <QMap>
#include <QRegularExpression>
#include <QStringList>

namespace epsilon::cluster {

const char* taskStateName(TaskState state) {
  switch (state) {
    case TaskState::Pending:
      return "pending";
    case TaskState::Running:
      return "running";
    case TaskState::Done:
      return "done";
    case TaskState::Failed:
      return "failed";
    case TaskState::Cancelled:
      return "cancelled";
    case TaskState::Unknown:
      break;
  }
  return "unknown";
}

TaskState stateOfSlurmWord(const QString& word) {
  const QString w = word.trimmed().toUpper();
  if (w.isEmpty()) return TaskState::Unknown;
  for (const char* p : {"PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
                        "SUSPENDED", "RESV_DEL_HOLD", "RESIZING"})
    if (w == QLatin1String(p)) return TaskState::Pending;
  for (const char* p : {"RUNNING", "COMPLETING", "STAGE_OUT", "SIGNALING"})
    if (w == QLatin1String(p)) return TaskState::Running;
  if (w == QLatin1String("COMPLETED")) return TaskState::Done;
  if (w.startsWith(QLatin1String("CANCELLED"))) return TaskState::Cancelled;  // "CANCELLED by 0"
  return TaskState::Failed;
}

bool isActive(TaskState state) {
  return state == TaskState::Pending || state == TaskState::Running;
}

QList<SlurmTask> parseSqueue(const QString& text) {
  QList<SlurmTask> tasks;
  for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
    const QStringList f = line.trimmed().split(QLatin1Char('|'));
    bool ok = false;
    const int task = f.value(1).toInt(&ok);
    if (f.size() != 4 || !ok || f[0].isEmpty()) continue;
    tasks.append({f[0], task, f[2], f[3], QString()});
  }
  return tasks;
}

namespace {

// "2-5%2", "1,3,7-9", "4-8:2" -> the indices (at most 1e6 of them, against a hostile range).
QList<int> expandTaskIds(const QString& text) {
  static const QRegularExpression range(QStringLiteral("^(\\d+)(?:-(\\d+)(?::(\\d+))?)?$"));
  QList<int> ids;
  for (const QString& part : text.section(QLatin1Char('%'), 0, 0).split(QLatin1Char(','))) {
    const auto m = range.match(part);
    if (!m.hasMatch()) continue;
    const long long first = m.captured(1).toLongLong();
    const long long last = m.captured(2).isEmpty() ? first : m.captured(2).toLongLong();
    const long long step = m.captured(3).isEmpty() ? 1 : std::max(1LL, m.captured(3).toLongLong());
    for (long long i = first; i <= last && ids.size() < 1000000; i += step)
      ids.append(static_cast<int>(i));
  }
  return ids;
}

// One record's Key=Value words; a word without '=' continues the previous value (a value
// with spaces, such as a Command path).
QMap<QString, QString> recordFields(const QString& record) {
  QMap<QString, QString> fields;
  QString last;
  for (const QString& word :
       record.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
    const auto eq = word.indexOf(QLatin1Char('='));
    if (eq > 0) {
      last = word.left(eq);
      fields.insert(last, word.mid(eq + 1));
    } else if (!last.isEmpty()) {
      fields[last] += QLatin1Char(' ') + word;
    }
  }
  return fields;
}

}  // namespace

QList<SlurmTask> parseScontrol(const QString& text) {
  QList<SlurmTask> tasks;
  for (const QString& record :
       text.split(QRegularExpression(QStringLiteral("\\n\\s*\\n")), Qt::SkipEmptyParts)) {
    const auto f = recordFields(record);
    if (!f.contains(QStringLiteral("ArrayJobId")) || !f.contains(QStringLiteral("ArrayTaskId")))
      continue;
    for (int id : expandTaskIds(f.value(QStringLiteral("ArrayTaskId"))))
      tasks.append({f.value(QStringLiteral("ArrayJobId")), id, f.value(QStringLiteral("JobState")),
                    f.value(QStringLiteral("Reason")), f.value(QStringLiteral("ExitCode"))});
  }
  return tasks;
}

namespace {

QString slurmDetail(const SlurmTask& t) {
  QString detail = t.state;
  if (!t.reason.isEmpty() && t.reason != QLatin1String("None"))
    detail += QStringLiteral(" (%1)").arg(t.reason);
  if (!t.exitCode.isEmpty() && t.exitCode != QLatin1String("0:0"))
    detail += QStringLiteral(", exit code ") + t.exitCode;
  return detail;
}

}  // namespace

QList<TaskStatus> taskStatuses(const ClusterJob& job, const QList<SlurmTask>& slurm,
                               const QMap<int, QString>& landed) {
  QList<TaskStatus> out;
  for (int task = 1; task <= job.tasks; ++task) {
    TaskStatus s;
    s.task = task;
    s.jobId = job.taskJob.value(task - 1);
    s.expected = job.runsOfTask(task);
    for (auto it = landed.begin(); it != landed.end(); ++it)
      if (it.key() >= 0 && it.key() < job.runs && it.key() % job.tasks == task - 1) ++s.landed;
    const SlurmTask* known = nullptr;
    for (const SlurmTask& t : slurm)
      if (t.jobId == s.jobId && t.task == task) known = &t;
    if (known) {
      s.state = stateOfSlurmWord(known->state);
      s.detail = slurmDetail(*known);
      if (s.state == TaskState::Done && s.landed < s.expected) {
        s.state = TaskState::Failed;
        s.detail += QStringLiteral(", but %1 of its %2 run files are missing")
                        .arg(s.expected - s.landed)
                        .arg(s.expected);
      }
    } else if (s.landed >= s.expected) {
      s.state = TaskState::Done;
      s.detail = QStringLiteral("all run files landed (Slurm no longer lists the task)");
    } else {
      s.state = TaskState::Unknown;
      s.detail = QStringLiteral("Slurm no longer lists the task and its run files are missing");
    }
    out.append(s);
  }
  return out;
}

}  // namespace epsilon::cluster
