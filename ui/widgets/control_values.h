// What a control stands for in an ExperimentConfig: spin boxes that hand back a loaded value
// they can only show rounded or clamped, until the user changes them. (Combo items carry the
// schema's word for their choice: ExperimentPanel::boundControls.)
#pragma once

class QDoubleSpinBox;
class QSpinBox;

namespace epsilon::ui {

// What setValue(value) would make the box show: rounded to its decimals, clamped to its range.
double shownValue(const QDoubleSpinBox* box, double value);
// `loaded` while the box still shows what loading it displayed (σ 1.0737 shown as 1.074, a
// learning rate above the range shown at its maximum), else the value the user set.
double valueOrLoaded(const QDoubleSpinBox* box, double loaded);
long long valueOrLoaded(const QSpinBox* box, long long loaded);

}  // namespace epsilon::ui
