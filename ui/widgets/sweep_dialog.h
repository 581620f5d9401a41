// The Sweep dialog: one parameter (and optionally a second) with the values to try; every
// combination becomes a normal run, trained as parallel jobs here or sent to a Slurm cluster
// (the job folder, the CLI the nodes run and the sbatch options: cluster_options.h, shared
// with the Presets menu). It only collects them:
// expanding and validating the axes is core's (core/train/sweep.h), checking the Slurm settings
// base/cluster's, submitting and following the job base/session/cluster_sweeps.h's. What was
// typed is remembered (QSettings) however the dialog closes, Esc included.
#pragma once

#include <QDialog>
#include <optional>
#include <vector>

#include "core/train/private_tuning.h"
#include "core/train/sweep.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QLabel;
class QCheckBox;
class QDialogButtonBox;
class QFormLayout;

namespace epsilon::ui {

class ClusterOptions;

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

  // Where the sweep runs (here or on a Slurm cluster) and the sbatch options.
  ClusterOptions* clusterOptions() const { return m_cluster; }

  void done(int result) override;  // remembers what was typed, then closes

 private:
  void refresh();
  void buildTuningRows(QFormLayout* form);
  void restore();
  void remember() const;

  train::ExperimentConfig m_base;
  std::optional<double> m_target;
  QComboBox* m_parameter[2];
  QLineEdit* m_values[2];
  QCheckBox* m_useSecond;
  ClusterOptions* m_cluster;  // where it runs and the sbatch options (cluster_options.h)
  QComboBox* m_tuningLaw;
  QDoubleSpinBox* m_tuningMean;
  QLabel* m_summary;
  QDialogButtonBox* m_buttons;
};

// "0.5, 1, 2" or "0.5 1 2" → {"0.5", "1", "2"}.
std::vector<std::string> splitValues(const QString& text);

}  // namespace epsilon::ui
