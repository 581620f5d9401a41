// What a control stands for in an ExperimentConfig: combo items that carry their enum (so no
// code depends on the order of the items), and spin boxes that hand back a loaded value they
// can only show rounded or clamped, until the user changes them.
#pragma once

#include <QComboBox>
#include <QVariant>

class QDoubleSpinBox;
class QSpinBox;

namespace epsilon::ui {

template <class Enum>
void addEnumItem(QComboBox* combo, const QString& text, Enum value) {
  combo->addItem(text, static_cast<int>(value));
}

// The enum of the current item (the combo must hold items added with addEnumItem).
template <class Enum>
Enum currentEnum(const QComboBox* combo) {
  return static_cast<Enum>(combo->currentData().toInt());
}

// Selects the item carrying `value`; false (selection unchanged) when no item carries it.
template <class Enum>
bool selectEnum(QComboBox* combo, Enum value) {
  const int index = combo->findData(static_cast<int>(value));
  if (index >= 0) combo->setCurrentIndex(index);
  return index >= 0;
}

// What setValue(value) would make the box show: rounded to its decimals, clamped to its range.
double shownValue(const QDoubleSpinBox* box, double value);
// `loaded` while the box still shows what loading it displayed (σ 1.0737 shown as 1.074, a
// learning rate above the range shown at its maximum), else the value the user set.
double valueOrLoaded(const QDoubleSpinBox* box, double loaded);
long long valueOrLoaded(const QSpinBox* box, long long loaded);

}  // namespace epsilon::ui
