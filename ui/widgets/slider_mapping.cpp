#include "ui/widgets/slider_mapping.h"

#include <algorithm>
#include <cmath>

namespace epsilon::ui {

double sliderToValue(const SliderScale& scale, int position) {
  const double t = std::clamp(position, 0, scale.steps) / static_cast<double>(scale.steps);
  if (scale.logarithmic) {
    const double lo = std::log(scale.minimum);
    const double hi = std::log(scale.maximum);
    return std::exp(lo + t * (hi - lo));
  }
  return scale.minimum + t * (scale.maximum - scale.minimum);
}

int valueToSlider(const SliderScale& scale, double value) {
  const double v = std::clamp(value, scale.minimum, scale.maximum);
  double t = 0.0;
  if (scale.logarithmic) {
    t = (std::log(v) - std::log(scale.minimum)) /
        (std::log(scale.maximum) - std::log(scale.minimum));
  } else if (scale.maximum > scale.minimum) {
    t = (v - scale.minimum) / (scale.maximum - scale.minimum);
  }
  return static_cast<int>(std::lround(t * scale.steps));
}

}  // namespace epsilon::ui
