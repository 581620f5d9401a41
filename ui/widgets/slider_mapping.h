// Pure helpers mapping between integer slider positions and parameter values, linear or
// logarithmic, so a slider can span 1e-4..1 for a learning rate and still land on exact
// values typed into its spin box.
#pragma once

namespace epsilon::ui {

struct SliderScale {
  double minimum = 0.0;
  double maximum = 1.0;
  bool logarithmic = false;
  int steps = 1000;  // slider positions 0..steps
};

// Slider position (clamped to 0..steps) to value.
double sliderToValue(const SliderScale& scale, int position);
// Value (clamped to [minimum, maximum]) to the nearest slider position.
int valueToSlider(const SliderScale& scale, double value);

}  // namespace epsilon::ui
