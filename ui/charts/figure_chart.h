// Draws a figure file's chart (base/io/figure_file.h) with Qt Charts, on screen (the Attack tab)
// or exported like the run charts: PNG, SVG or PDF by the file's suffix.
#pragma once

#include <QSize>
#include <QString>
#include <memory>

#include "base/io/figure_file.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace epsilon::ui {

// The figure as a Qt chart (its axes, and one line series per figure series, in the series'
// colour or the palette's), for a chart view or an export.
std::unique_ptr<QChart> buildFigureChart(const Figure& figure);

// Needs a QApplication. Returns an empty string on success, else a message naming the file.
QString plotFigureToFile(const Figure& figure, const QString& path, QSize size, int dpi);

}  // namespace epsilon::ui
