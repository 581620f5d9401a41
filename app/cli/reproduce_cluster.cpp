#include "reproduce_cluster.h"

#include <QFileInfo>

#include "base/cluster/cluster_job.h"
#include "base/io/experiment_json.h"
#include "base/io/run_file.h"
#include "core/common/errors.h"
#include "reproduce_runs.h"

namespace epsilon::cli {

namespace {

// The value after `flag` in a task's `sweep` arguments, or "".
QString sweepArgument(const QStringList& args, const QString& flag) {
  const qsizetype i = args.indexOf(flag);
  return i >= 0 && i + 1 < args.size() ? args[i + 1] : QString();
}

ConfigError folderError(const QString& dir, const QString& what) {
  return ConfigError((ui::clipped(dir) + QStringLiteral(": ") + what).toStdString());
}

}  // namespace

ClusterReproduction readClusterReproduction(const QDir& out, const std::vector<ui::Preset>& presets,
                                            bool all, bool quickFlag) {
  ClusterReproduction r;
  for (const ui::Preset& preset : presets) {
    const QString dir = out.filePath(preset.name);
    if (all && !QFileInfo::exists(cluster::recordPath(dir))) continue;
    const cluster::ClusterJob job = cluster::readClusterJob(dir);  // names the missing record
    if (sweepArgument(job.sweepArgs, QStringLiteral("--preset")) != preset.name)
      throw folderError(dir, QStringLiteral("holds a sweep that is not the preset %1 "
                                            "(`reproduce --slurm --out DIR` writes DIR/NAME)")
                                 .arg(preset.name));
    const bool quick = job.sweepArgs.contains(QStringLiteral("--quick"));
    if (quickFlag && !quick)
      throw folderError(dir, QStringLiteral("was submitted without --quick"));
    if (!r.presets.empty() && quick != r.quick)
      throw folderError(dir,
                        QStringLiteral("was submitted %1 --quick, the presets before it %2")
                            .arg(quick ? QStringLiteral("with") : QStringLiteral("without"),
                                 r.quick ? QStringLiteral("with") : QStringLiteral("without")));
    r.quick = quick;
    const QString dataset = sweepArgument(job.sweepArgs, QStringLiteral("--dataset"));
    if (!dataset.isEmpty()) r.datasets.insert(preset.name, dataset);
    r.jobIds << job.jobIds;
    if (!r.submitted.isValid() || job.submitted < r.submitted) r.submitted = job.submitted;
    r.presets.push_back(preset);
  }
  if (r.presets.empty())
    throw folderError(out.path(), QStringLiteral("holds no preset's folder of `reproduce --slurm` "
                                                 "(DIR/NAME/%1)")
                                      .arg(QLatin1String(cluster::kJobRecordName)));
  return r;
}

QDateTime readClusterResults(std::vector<PresetOutcome>& outcomes, const QDir& out) {
  QStringList problems;
  QDateTime last;
  for (PresetOutcome& o : outcomes) {
    const QDir dir(out.filePath(o.preset.name));
    int missing = 0, failed = 0;
    for (std::size_t i = 0; i < o.points.size(); ++i) {
      const QString path = dir.filePath(runFileName(o.points[i]));
      const QFileInfo file(path);
      if (!file.exists()) {
        ++missing;
        continue;
      }
      o.results[i] = ui::readRunResult(path);
      if (ui::experimentToJson(o.results[i].config) != ui::experimentToJson(o.points[i].config))
        throw ui::SessionError(
            (ui::clipped(path) + QStringLiteral(": holds other settings than the preset's run "
                                                "(submitted by another EpsilonLab version?)"))
                .toStdString());
      const train::RunStatus s = o.results[i].status;
      if (s != train::RunStatus::Done && s != train::RunStatus::Diverged) ++failed;
      if (!last.isValid() || file.lastModified() > last) last = file.lastModified();
    }
    if (missing > 0 || failed > 0)
      problems << QStringLiteral("%1 (preset %2): %3 of %4 runs missing, %5 failed")
                      .arg(ui::clipped(dir.path()), o.preset.name)
                      .arg(missing)
                      .arg(o.points.size())
                      .arg(failed);
  }
  if (!problems.isEmpty())
    throw ConfigError(
        (QStringLiteral("cannot write the report yet: ") + problems.join(QStringLiteral("; ")) +
         QStringLiteral(". Follow the tasks with `epsilonlab-cli cluster status DIR/NAME`; run "
                        "failed ones again with `epsilonlab-cli cluster resubmit DIR/NAME "
                        "--failed`"))
            .toStdString());
  return last;
}

}  // namespace epsilon::cli
