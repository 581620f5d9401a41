// Draws a figure file's chart (ui/io/figure_file.h) with Qt Charts and exports it like the
// run charts: PNG, SVG or PDF by the file's suffix.
#pragma once

#include <QSize>
#include <QString>

#include "ui/io/figure_file.h"

namespace epsilon::ui {

// Needs a QApplication. Returns an empty string on success, else a message naming the file.
QString plotFigureToFile(const Figure& figure, const QString& path, QSize size, int dpi);

}  // namespace epsilon::ui
