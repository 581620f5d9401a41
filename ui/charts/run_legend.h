// One legend for the whole chart grid: a colour swatch and the full name of every shown run,
// wrapped onto as many lines as needed, so no name is ever elided. The chart panel shows it
// below the grid and every export draws it with the charts.
#pragma once

#include <QString>
#include <vector>

#include "base/io/run_record.h"

class QPainter;
class QRectF;

namespace epsilon::ui {

// Rich text for the shown (visible) runs, in order; a name never breaks across lines.
QString runLegendHtml(const std::vector<RunRecord>& runs);

// The height the legend takes when laid out `width` wide at `pointSize`; 0 without runs.
qreal runLegendHeight(const QString& html, qreal width, int pointSize);

// Draws the legend at the top of `target`, laid out to its width.
void drawRunLegend(QPainter& painter, const QString& html, const QRectF& target, int pointSize);

}  // namespace epsilon::ui
