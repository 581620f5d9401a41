#include "ui/widgets/parameter_slider.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

namespace epsilon::ui {

ParameterSlider::ParameterSlider(const QString& label, const SliderScale& scale, int decimals,
                                 QWidget* parent)
    : QWidget(parent),
      m_scale(scale),
      m_label(new QLabel(label, this)),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_spin(new QDoubleSpinBox(this)),
      m_layout(new QGridLayout(this)) {
  m_slider->setRange(0, scale.steps);
  m_slider->setMinimumWidth(60);
  m_spin->setRange(scale.minimum, scale.maximum);
  m_spin->setDecimals(decimals);
  m_spin->setKeyboardTracking(false);
  // No fixed minimum width: the spin box's own hint follows the font, so presentation mode's
  // large font never cuts the value off.
  // Steps of one unit in the first significant digit suit both linear and log ranges.
  m_spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  m_label->setBuddy(m_spin);
  m_layout->setContentsMargins(0, 0, 0, 0);
  setCompact(false);
  // Opaque: a moving slider or a new value repaints this widget alone, not the group box,
  // panel and scroll area behind it (their paint, the group box's title and frame, cost more
  // than the slider's own while a slider is dragged).
  setAutoFillBackground(true);

  connect(m_slider, &QSlider::valueChanged, this, &ParameterSlider::onSliderMoved);
  connect(m_slider, &QSlider::sliderReleased, this,
          [this] { Q_EMIT valueCommitted(m_spin->value()); });
  connect(m_spin, &QDoubleSpinBox::valueChanged, this, &ParameterSlider::onSpinChanged);
}

double ParameterSlider::value() const {
  return m_spin->value();
}

void ParameterSlider::setValue(double value) {
  const double old = m_spin->value();
  {
    const QSignalBlocker blockSpin(m_spin);
    const QSignalBlocker blockSlider(m_slider);
    m_spin->setValue(value);
    m_slider->setValue(valueToSlider(m_scale, m_spin->value()));
  }
  if (m_spin->value() != old) Q_EMIT valueChanged(m_spin->value());
}

void ParameterSlider::setToolTips(const QString& text) {
  m_label->setToolTip(text);
  m_slider->setToolTip(text);
  m_spin->setToolTip(text);
}

void ParameterSlider::setCompact(bool on) {
  for (QWidget* w : {static_cast<QWidget*>(m_label), static_cast<QWidget*>(m_slider),
                     static_cast<QWidget*>(m_spin)})
    m_layout->removeWidget(w);
  m_label->setMinimumWidth(on ? 0 : 96);
  if (on) {  // label · value, then the slider across the whole width
    m_layout->addWidget(m_label, 0, 0);
    m_layout->addWidget(m_spin, 0, 1, Qt::AlignRight);
    m_layout->addWidget(m_slider, 1, 0, 1, 2);
    m_layout->setColumnStretch(0, 1);
    m_layout->setColumnStretch(1, 0);
    m_layout->setColumnStretch(2, 0);
  } else {  // label, slider, value on one line
    m_layout->addWidget(m_label, 0, 0);
    m_layout->addWidget(m_slider, 0, 1);
    m_layout->addWidget(m_spin, 0, 2);
    m_layout->setColumnStretch(0, 0);
    m_layout->setColumnStretch(1, 1);
    m_layout->setColumnStretch(2, 0);
  }
}

void ParameterSlider::onSliderMoved(int position) {
  if (m_updating) return;
  m_updating = true;
  m_spin->setValue(sliderToValue(m_scale, position));
  m_updating = false;
  Q_EMIT valueChanged(m_spin->value());
  // Keyboard and wheel moves have no release: commit them at once.
  if (!m_slider->isSliderDown()) Q_EMIT valueCommitted(m_spin->value());
}

void ParameterSlider::onSpinChanged(double value) {
  if (m_updating) return;
  m_updating = true;
  m_slider->setValue(valueToSlider(m_scale, value));
  m_updating = false;
  Q_EMIT valueChanged(value);
  Q_EMIT valueCommitted(value);
}

}  // namespace epsilon::ui
