#include "base/cluster/sbatch_script.h"

#include <QRegularExpression>
#include <algorithm>

#include "base/io/json_reader.h"
#include "core/common/errors.h"

namespace epsilon::cluster {

namespace {

[[noreturn]] void refuse(const QString& setting, const QString& expected, const QString& got) {
  throw ConfigError(QStringLiteral("%1: expected %2, got '%3'")
                        .arg(setting, expected, ui::clipped(got))
                        .toStdString());
}

bool matches(const QString& pattern, const QString& text) {
  return QRegularExpression(QRegularExpression::anchoredPattern(pattern)).match(text).hasMatch();
}

}  // namespace

void checkSettings(const SlurmSettings& s) {
  if (!s.partition.isEmpty() && !matches(QStringLiteral("[A-Za-z0-9_.,-]+"), s.partition))
    refuse(QStringLiteral("partition"), QStringLiteral("a partition name (letters, digits, _.,-)"),
           s.partition);
  // Slurm's time formats: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
  if (!s.time.isEmpty() &&
      !matches(QStringLiteral("(\\d{1,6}(:\\d{1,2}){0,2})|(\\d{1,4}-\\d{1,2}(:\\d{1,2}){0,2})"),
               s.time))
    refuse(QStringLiteral("time"), QStringLiteral("a time limit such as 01:30:00 or 2-00:00:00"),
           s.time);
  if (s.cpusPerTask && (*s.cpusPerTask < 1 || *s.cpusPerTask > 4096))
    refuse(QStringLiteral("cpus-per-task"), QStringLiteral("an integer in [1, 4096]"),
           QString::number(*s.cpusPerTask));
  if (!s.mem.isEmpty() && !matches(QStringLiteral("[1-9]\\d{0,8}[KMGT]?"), s.mem))
    refuse(QStringLiteral("mem"), QStringLiteral("a size such as 2G or 500M"), s.mem);
  if (s.maxParallel && (*s.maxParallel < 1 || *s.maxParallel > 100000))
    refuse(QStringLiteral("max-parallel"), QStringLiteral("an integer in [1, 100000]"),
           QString::number(*s.maxParallel));
  for (const QString& arg : s.sbatchArgs)
    if (!arg.startsWith(QLatin1Char('-')) || arg.contains(QLatin1Char('\n')) ||
        arg.contains(QLatin1Char('\r')))
      refuse(QStringLiteral("sbatch-arg"),
             QStringLiteral("one sbatch option such as --account=lab"), arg);
}

void checkJobFolder(const QString& dir) {
  if (!dir.startsWith(QLatin1Char('/')) || matches(QStringLiteral(".*[\\s'\"\\\\%$`].*"), dir))
    refuse(QStringLiteral("out"),
           QStringLiteral("a folder path without spaces, quotes, backslashes, '$', '`' or '%' "
                          "(it is written on the job script's #SBATCH lines)"),
           dir);
}

QString arraySpec(const QList<int>& tasks, std::optional<int> maxParallel) {
  QList<int> sorted = tasks;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  QStringList parts;
  for (int t : sorted) parts << QString::number(t);
  QString spec = parts.join(QLatin1Char(','));
  if (sorted.size() == sorted.value(sorted.size() - 1) - sorted.value(0) + 1 && sorted.size() > 2)
    spec = QStringLiteral("%1-%2").arg(sorted.first()).arg(sorted.last());
  if (maxParallel) spec += QStringLiteral("%%1").arg(*maxParallel);
  return spec;
}

QString sbatchScript(const SweepScript& script) {
  const SlurmSettings& s = script.settings;
  const QString tasks = QString::number(script.tasks);
  QStringList lines{
      QStringLiteral("#!/bin/bash"),
      QStringLiteral("# An EpsilonLab sweep on Slurm: %1 array tasks, task K runs shard K/%1 of "
                     "the sweep and writes")
          .arg(tasks),
      QStringLiteral("# its run files (atomically) into %1, its log into %1/logs.").arg(script.dir),
      QStringLiteral("# Written by `epsilonlab-cli sweep --slurm`; follow it with `epsilonlab-cli "
                     "cluster status %1`.")
          .arg(script.dir),
      QStringLiteral("# Submit it again by hand: `sbatch %1/epsilonlab.sbatch`, or only tasks 2 "
                     "and 5: `sbatch --array=2,5 …`.")
          .arg(script.dir),
      QStringLiteral("#SBATCH --job-name=epsilonlab-sweep"),
      QStringLiteral("#SBATCH --array=1-%1%2")
          .arg(tasks, s.maxParallel ? QStringLiteral("%%1").arg(*s.maxParallel) : QString()),
      QStringLiteral("#SBATCH --output=%1/logs/task-%a-%A.log").arg(script.dir)};
  if (!s.partition.isEmpty()) lines << QStringLiteral("#SBATCH --partition=") + s.partition;
  if (!s.time.isEmpty()) lines << QStringLiteral("#SBATCH --time=") + s.time;
  if (s.cpusPerTask) lines << QStringLiteral("#SBATCH --cpus-per-task=%1").arg(*s.cpusPerTask);
  if (!s.mem.isEmpty()) lines << QStringLiteral("#SBATCH --mem=") + s.mem;
  for (const QString& arg : s.sbatchArgs) lines << QStringLiteral("#SBATCH ") + arg;
  QStringList command{QStringLiteral("exec"), shellQuoted(script.cli), QStringLiteral("sweep")};
  for (const QString& arg : script.sweepArgs) command << shellQuoted(arg);
  command << QStringLiteral("--shard") << QStringLiteral("\"$SLURM_ARRAY_TASK_ID/%1\"").arg(tasks)
          << QStringLiteral("--out") << shellQuoted(script.dir) << QStringLiteral("--summary")
          << shellQuoted(script.dir + QStringLiteral("/logs/summary-task-")) +
                 QStringLiteral("\"$SLURM_ARRAY_TASK_ID\".csv");
  lines << QString() << QStringLiteral("set -eu")
        << QStringLiteral(
               "echo \"epsilonlab: task $SLURM_ARRAY_TASK_ID/%1 of job "
               "$SLURM_ARRAY_JOB_ID on $(hostname)\"")
               .arg(tasks)
        << command.join(QLatin1Char(' '));
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace epsilon::cluster
