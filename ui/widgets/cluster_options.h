// Where sweeps run, "this computer" or a Slurm cluster, and the sbatch options (the job folder,
// the CLI the nodes run, partition, time, memory, CPUs, tasks at once): the one set of controls
// of the Sweep dialog and of the Presets menu's Slurm dialog, remembered in QSettings for both.
// It only collects them: checking them is base/cluster's (sweep_submission.h).
#pragma once

#include <QDialog>
#include <QWidget>

#include "base/cluster/sbatch_script.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace epsilon::ui {

class ClusterOptions : public QWidget {
  Q_OBJECT
 public:
  // Filled from what was remembered; the job folder is new, named `folderStem`-date-time beside
  // the last one (a folder holds one sweep).
  explicit ClusterOptions(const QString& folderStem, QWidget* parent = nullptr);

  bool runOnCluster() const;
  void setRunOnCluster(bool on);
  cluster::SlurmSettings slurmSettings() const;
  QString jobFolder() const;  // absolute
  QString nodeCli() const;    // absolute
  void setSlurm(const QString& folder, const QString& cli, const cluster::SlurmSettings& s);
  // "" when here, or when the Slurm settings can be submitted; else what is wrong, named.
  QString problem() const;
  void remember() const;

  // The remembered "Run on" choice (the Presets menu shows it).
  static bool rememberedOnCluster();
  static void rememberOnCluster(bool on);

 Q_SIGNALS:
  void changed();

 private:
  void restore(const QString& folderStem);

  QComboBox* m_runOn;
  QWidget* m_clusterBox;
  QLineEdit* m_folder;
  QLineEdit* m_cli;
  QLineEdit* m_partition;
  QLineEdit* m_time;
  QLineEdit* m_mem;
  QSpinBox* m_cpus;
  QSpinBox* m_maxParallel;
};

// The Presets menu's dialog: the same options for one preset sent to Slurm (OK is enabled only
// when they can be submitted, or when "this computer" is chosen instead). Remembers them when
// it closes, Esc included.
class ClusterOptionsDialog : public QDialog {
  Q_OBJECT
 public:
  ClusterOptionsDialog(const QString& title, const QString& folderStem, QWidget* parent = nullptr);
  ClusterOptions* options() const { return m_options; }
  void done(int result) override;

 private:
  ClusterOptions* m_options;
};

}  // namespace epsilon::ui
