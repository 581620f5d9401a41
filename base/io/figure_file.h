// A figure file ("epsilonlab-figure"): a titled line chart described as data — axes (linear or
// log, with ranges) and named series of points with a line style. The CLI writes one for charts
// that are not run histories (the audit's ROC over the accountant's bound) and epsilonlab-plot
// draws it, so the CLI itself needs no chart or widget library.
#pragma once

#include <QPointF>
#include <QString>
#include <vector>

namespace epsilon::ui {

enum class FigureLine { Solid, Dashed, Bold };

struct FigureSeries {
  QString name;
  FigureLine line = FigureLine::Solid;
  std::vector<QPointF> points;
  QString color;  // "#rrggbb"; empty: the chart's palette picks one
};

struct FigureAxis {
  QString title;
  bool log = false;
  double min = 0.0;  // both 0: fit the data
  double max = 0.0;
};

struct Figure {
  QString title;
  FigureAxis x;
  FigureAxis y;
  std::vector<FigureSeries> series;
};

// Writes atomically (QSaveFile); throws DataError naming the file when it cannot.
void saveFigure(const QString& path, const Figure& figure);
// Strict: unknown keys, wrong types, a log axis with a range below or at 0, a series
// without points or a colour not like "#rrggbb" are ConfigErrors naming the file and key path.
Figure loadFigure(const QString& path);

}  // namespace epsilon::ui
