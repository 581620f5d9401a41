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
#include "core/train/private_tuning.h"
#include "core/train/sweep.h"

class QComboBox;
class QDoubleSpinBox;
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
  // The expanded sweep, or an empty list with `error` naming what is wrong. With private
  // tuning, the K runs drawn from the grid with the panel's seed (core/train/private_tuning.h,
  // what `epsilonlab-cli sweep --private-tuning` trains).
  std::vector<train::SweepPoint> points(QString* error = nullptr) const;
  // The grid itself: every combination of the values (what private tuning draws from).
  std::vector<train::SweepPoint> grid() const;

  // Private tuning (Papernot & Steinke 2022): the law of the number of runs K, or none (every
  // point trains). `law` is "poisson", "geometric", "log" or "" (off); tests and scripts.
  std::optional<privacy::TuningDistribution> privateTuning() const;
  void setPrivateTuning(const QString& law, double mean);

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
  void buildTuningRows(QFormLayout* form);
  void restore();
  void remember() const;

  train::ExperimentConfig m_base;
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
  QComboBox* m_tuningLaw;
  QDoubleSpinBox* m_tuningMean;
  QLabel* m_summary;
  QDialogButtonBox* m_buttons;
};

// "0.5, 1, 2" or "0.5 1 2" → {"0.5", "1", "2"}.
std::vector<std::string> splitValues(const QString& text);

}  // namespace epsilon::ui
