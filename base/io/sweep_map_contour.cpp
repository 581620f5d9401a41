// The iso-ε lines of a sweep map (sweep_map.h): marching squares over the cell centres
// (Lorensen & Cline, "Marching cubes", SIGGRAPH 1987, in two dimensions).
#include <array>
#include <cmath>

#include "base/io/sweep_map.h"

namespace epsilon::ui {

namespace {

struct Corner {
  QPointF at;
  double value;
};

// Where the level crosses the edge between two corners on opposite sides of it.
QPointF crossing(const Corner& a, const Corner& b, double level) {
  double t = 0.5;  // an infinite ε: somewhere between, drawn at the middle
  if (std::isfinite(a.value) && std::isfinite(b.value)) t = (level - a.value) / (b.value - a.value);
  return a.at + t * (b.at - a.at);
}

// One square's segments; corners counter-clockwise from the bottom left.
void marchSquare(const std::array<Corner, 4>& corner, double level,
                 std::vector<ContourSegment>& out) {
  std::array<bool, 4> above{};
  double sum = 0;
  for (int k = 0; k < 4; ++k) {
    above[k] = corner[k].value > level;
    sum += corner[k].value;
  }
  // Edge k joins corner k and corner k+1: bottom, right, top, left.
  std::array<bool, 4> crossed{};
  std::array<QPointF, 4> point{};
  int count = 0;
  for (int k = 0; k < 4; ++k) {
    const int next = (k + 1) % 4;
    if (above[k] == above[next]) continue;
    crossed[k] = true;
    point[k] = crossing(corner[k], corner[next], level);
    ++count;
  }
  if (count == 2) {
    int first = -1;
    for (int k = 0; k < 4; ++k)
      if (crossed[k]) {
        if (first < 0)
          first = k;
        else
          out.push_back({point[first], point[k]});
      }
    return;
  }
  if (count != 4) return;
  // A saddle: the centre's value (the corners' mean) says which diagonal is joined.
  const bool centreAbove = sum / 4 > level;
  if (centreAbove == above[0]) {  // corners 0 and 2 joined: cut off corners 1 and 3
    out.push_back({point[0], point[1]});
    out.push_back({point[2], point[3]});
  } else {  // cut off corners 0 and 2
    out.push_back({point[3], point[0]});
    out.push_back({point[1], point[2]});
  }
}

}  // namespace

std::vector<ContourSegment> isoEpsilonSegments(const SweepMap& map, double level) {
  std::vector<ContourSegment> segments;
  if (!map.valid() || map.axes.size() < 2 || !std::isfinite(level)) return segments;
  const auto& xs = map.axes[0].centres;
  const auto& ys = map.axes[1].centres;
  for (int j = 0; j + 1 < map.ny(); ++j)
    for (int i = 0; i + 1 < map.nx(); ++i) {
      std::array<Corner, 4> corner{};
      const std::array<std::pair<int, int>, 4> at{{{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}}};
      bool complete = true;
      for (int k = 0; k < 4; ++k) {
        const auto [ci, cj] = at[static_cast<std::size_t>(k)];
        const double e = map.epsilon[static_cast<std::size_t>(map.cell(ci, cj))];
        complete = complete && !std::isnan(e);
        corner[static_cast<std::size_t>(k)] = {
            QPointF(xs[static_cast<std::size_t>(ci)], ys[static_cast<std::size_t>(cj)]), e};
      }
      if (complete) marchSquare(corner, level, segments);
    }
  return segments;
}

}  // namespace epsilon::ui
