#include "ui/widgets/control_values.h"

#include <QDoubleSpinBox>
#include <QSpinBox>
#include <algorithm>

namespace epsilon::ui {

double shownValue(const QDoubleSpinBox* box, double value) {
  // QDoubleSpinBox rounds a value set to it to its decimals by formatting it, then bounds it.
  const double rounded = QString::number(value, 'f', box->decimals()).toDouble();
  return std::clamp(rounded, box->minimum(), box->maximum());
}

double valueOrLoaded(const QDoubleSpinBox* box, double loaded) {
  return box->value() == shownValue(box, loaded) ? loaded : box->value();
}

long long valueOrLoaded(const QSpinBox* box, long long loaded) {
  const long long shown =
      std::clamp<long long>(loaded, box->minimum(), box->maximum());  // a seed beyond int's range
  return box->value() == shown ? loaded : box->value();
}

}  // namespace epsilon::ui
