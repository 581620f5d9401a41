// The Sweep dialog: one parameter (and optionally a second) with the values to try; every
// combination becomes a normal run, trained as parallel jobs. It only collects the axes;
// expanding and validating them is core's (core/train/sweep.h).
#pragma once

#include <QDialog>
#include <vector>

#include "core/train/sweep.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QCheckBox;
class QDialogButtonBox;

namespace epsilon::ui {

class SweepDialog : public QDialog {
  Q_OBJECT
 public:
  SweepDialog(const train::ExperimentConfig& base, QWidget* parent = nullptr);

  std::vector<train::SweepAxis> axes() const;
  // The expanded sweep, or an empty list with `error` naming what is wrong.
  std::vector<train::SweepPoint> points(QString* error = nullptr) const;

  void setAxis(int which, const QString& parameter, const QString& values);  // tests, presets

 private:
  void refresh();

  train::ExperimentConfig m_base;
  QComboBox* m_parameter[2];
  QLineEdit* m_values[2];
  QCheckBox* m_useSecond;
  QLabel* m_summary;
  QDialogButtonBox* m_buttons;
};

// "0.5, 1, 2" or "0.5 1 2" → {"0.5", "1", "2"}.
std::vector<std::string> splitValues(const QString& text);

}  // namespace epsilon::ui
