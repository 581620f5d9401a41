// `reproduce --report-only`: the report of a reproduction a Slurm cluster trained. Reads what
// `reproduce --slurm --out DIR` recorded in each DIR/NAME (the preset, --quick, the data set
// its tasks ran on) and the run files the tasks left there; command_reproduce.cpp then writes
// the same report a local `reproduce` writes.
#pragma once

#include <QDateTime>
#include <QDir>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

#include "base/io/preset_file.h"
#include "reproduce_html.h"

namespace epsilon::cli {

struct ClusterReproduction {
  std::vector<ui::Preset> presets;  // those with a folder DIR/NAME of `reproduce --slurm`
  bool quick = false;
  QMap<QString, QString> datasets;  // preset name -> the data set its tasks ran on
  QStringList jobIds;               // every Slurm job of every preset, oldest first
  QDateTime submitted;              // the first submission
};

// Reads DIR/NAME/epsilonlab-job.slurm of each of `presets` (with `all`, those that have one).
// Throws ConfigError naming the folder: no record, the sweep of another preset, --quick mixed
// or asked for when the submission had none; or no preset's folder at all.
ClusterReproduction readClusterReproduction(const QDir& out, const std::vector<ui::Preset>& presets,
                                            bool all, bool quickFlag);

// Fills each outcome's results from DIR/NAME's run files (one per point). Throws ConfigError
// naming every preset and folder that lacks runs or holds failed ones, with how many, and
// what to do; SessionError naming a run file that cannot be read or holds other settings.
// Returns when the last run file landed.
QDateTime readClusterResults(std::vector<PresetOutcome>& outcomes, const QDir& out);

}  // namespace epsilon::cli
