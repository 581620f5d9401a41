// A labelled slider paired with a spin box for exact values, linear or log scale; compact: the
// label and the value on one line above a full-width slider (for a narrow panel).
// valueChanged follows the mouse (for the live privacy readout); valueCommitted fires when
// the slider is released or a value is typed (for starting a live run).
#pragma once

#include <QWidget>

#include "ui/widgets/slider_mapping.h"

class QSlider;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;

namespace epsilon::ui {

class ParameterSlider : public QWidget {
  Q_OBJECT
 public:
  ParameterSlider(const QString& label, const SliderScale& scale, int decimals,
                  QWidget* parent = nullptr);

  double value() const;
  void setValue(double value);  // no valueCommitted; valueChanged only if it changed
  void setToolTips(const QString& text);
  void setCompact(bool on);
  QSlider* slider() const { return m_slider; }
  QDoubleSpinBox* spinBox() const { return m_spin; }

 Q_SIGNALS:
  void valueChanged(double value);
  void valueCommitted(double value);

 private:
  void onSliderMoved(int position);
  void onSpinChanged(double value);

  SliderScale m_scale;
  QLabel* m_label;
  QSlider* m_slider;
  QDoubleSpinBox* m_spin;
  QGridLayout* m_layout;
  bool m_updating = false;
};

}  // namespace epsilon::ui
