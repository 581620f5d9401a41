// What the two files of the sweep map's drawing share (sweep_map_chart.h): its colour scale
// and its fonts.
#pragma once

#include <QColor>
#include <QFont>

namespace epsilon::ui {

// The accuracy scale's colour at t in [0, 1] (0 the lowest accuracy shown).
QColor accuracyColour(double t);
// A font of `points` at the drawing's scale.
QFont mapFont(double scale, double points, bool bold);

}  // namespace epsilon::ui
