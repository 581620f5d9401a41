// The Sweep dialog: one parameter (and optionally a second) with the values to try; every
// combination becomes a normal run, trained as parallel jobs here or sent to a Slurm cluster
// (the job folder, the CLI the nodes run and the sbatch options). It only collects them:
// expanding and validating the axes is core's (core/train/sweep.h), checking the Slurm settings
// base/cluster's, submitting and following the job base/session/cluster_sweeps.h's. What was
// typed is remembered (QSettings) however the dialog closes, Esc included.
#pragma once

#include <QDialog>
#include <optional>
#include <vector>

#include "base/cluster/sbatch_script.h"
#include "core/train/sweep.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QCheckBox;
class QDialogButtonBox;
class QSpinBox;
class QFormLayout;
class QWidget;

namespace epsilon::ui {

class SweepDialog : public QDialog {
  Q_OBJECT
 public:
  SweepDialog(const train::ExperimentConfig& base, QWidget* parent = nullptr);

  std::vector<train::SweepAxis> axes() const;
  // "Calibrate σ to a target ε" is on in the panel: every point's σ is calibrated to `target`
  // for its own settings (a target_epsilon axis overrides it); points() refuses a sweep of
  // noise_multiplier then, saying why. nullopt: σ as the panel has it.
  void setTargetEpsilon(std::optional<double> target);
  std::optional<double> targetEpsilon() const { return m_target; }
  // The expanded sweep, or an empty list with `error` naming what is wrong.
  std::vector<train::SweepPoint> points(QString* error = nullptr) const;

  void setAxis(int which, const QString& parameter, const QString& values);  // tests, presets

  // Where the sweep runs: false here, true on a Slurm cluster.
  bool runOnCluster() const;
  void setRunOnCluster(bool on);
  cluster::SlurmSettings slurmSettings() const;
  QString jobFolder() const;  // absolute
  QString nodeCli() const;    // absolute
  // Tests and scripts: the folder, the CLI, partition, time, CPUs, memory and tasks at once
  // (0: Slurm's default).
  void setSlurm(const QString& folder, const QString& cli, const cluster::SlurmSettings& s);

  void done(int result) override;  // remembers what was typed, then closes

 private:
  void refresh();
  QString clusterProblem() const;  // "" when the Slurm settings can be submitted
  void buildClusterRows(QFormLayout* form);
  void restore();
  void remember() const;

  train::ExperimentConfig m_base;
  std::optional<double> m_target;
  QComboBox* m_parameter[2];
  QLineEdit* m_values[2];
  QCheckBox* m_useSecond;
  QComboBox* m_runOn;
  QWidget* m_clusterBox;
  QLineEdit* m_folder;
  QLineEdit* m_cli;
  QLineEdit* m_partition;
  QLineEdit* m_time;
  QLineEdit* m_mem;
  QSpinBox* m_cpus;
  QSpinBox* m_maxParallel;
  QLabel* m_summary;
  QDialogButtonBox* m_buttons;
};

// "0.5, 1, 2" or "0.5 1 2" → {"0.5", "1", "2"}.
std::vector<std::string> splitValues(const QString& text);

}  // namespace epsilon::ui
