#include "base/io/figure_file.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "base/io/json_reader.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

namespace epsilon::ui {

namespace {

constexpr const char* kFigureFormat = "epsilonlab-figure";
constexpr int kFigureVersion = 1;

QString lineName(FigureLine line) {
  switch (line) {
    case FigureLine::Dashed:
      return QStringLiteral("dashed");
    case FigureLine::Bold:
      return QStringLiteral("bold");
    case FigureLine::Solid:
      break;
  }
  return QStringLiteral("solid");
}

QJsonObject axisToJson(const FigureAxis& axis) {
  return QJsonObject{
      {"title", axis.title}, {"log", axis.log}, {"min", axis.min}, {"max", axis.max}};
}

FigureAxis readAxis(JsonReader r) {
  r.allowOnly({"title", "log", "min", "max"});
  FigureAxis axis;
  axis.title = r.string(QStringLiteral("title"), false, {}, true);
  axis.log = r.boolean(QStringLiteral("log"), false);
  axis.min = r.number(QStringLiteral("min"));
  axis.max = r.number(QStringLiteral("max"));
  if (axis.min > axis.max) r.fail(QStringLiteral("min"), QStringLiteral("expected min <= max"));
  if (axis.log && axis.max > 0 && axis.min <= 0)
    r.fail(QStringLiteral("min"),
           QStringLiteral("a log axis needs min > 0, found %1").arg(axis.min));
  r.finish();
  return axis;
}

FigureSeries readSeries(JsonReader r) {
  r.allowOnly({"name", "line", "points", "color"});
  FigureSeries series;
  series.name = r.string(QStringLiteral("name"), true);
  const QString line = r.string(QStringLiteral("line"), false, QStringLiteral("solid"));
  if (line == QLatin1String("dashed"))
    series.line = FigureLine::Dashed;
  else if (line == QLatin1String("bold"))
    series.line = FigureLine::Bold;
  else if (line != QLatin1String("solid"))
    r.fail(QStringLiteral("line"),
           QStringLiteral("expected solid, dashed or bold, found '%1'").arg(clipped(line)));
  series.color = r.string(QStringLiteral("color"), false, {}, true);
  static const QRegularExpression kColour(QStringLiteral("^(#[0-9a-fA-F]{6})?$"));
  if (!kColour.match(series.color).hasMatch())
    r.fail(QStringLiteral("color"),
           QStringLiteral("expected a colour like \"#0072b2\", found \"%1\"").arg(series.color));
  const QJsonArray points = r.array(QStringLiteral("points"), true);
  if (points.isEmpty())
    r.fail(QStringLiteral("points"), QStringLiteral("expected at least one point"));
  for (qsizetype i = 0; i < points.size(); ++i) {
    const QJsonArray xy = points.at(i).toArray();
    const QString key = QStringLiteral("points[%1]").arg(i);
    if (!points.at(i).isArray() || xy.size() != 2 || !xy.at(0).isDouble() || !xy.at(1).isDouble())
      r.expected(key, QStringLiteral("a pair of numbers [x, y]"), points.at(i));
    series.points.emplace_back(xy.at(0).toDouble(), xy.at(1).toDouble());
  }
  r.finish();
  return series;
}

Figure figureFromJson(const QJsonObject& object) {
  JsonReader r(object, {});
  const QString format = r.string(QStringLiteral("format"), true, {}, true);
  if (format != QLatin1String(kFigureFormat))
    r.fail(QStringLiteral("format"), QStringLiteral("expected '%1', found '%2'")
                                         .arg(QLatin1String(kFigureFormat), clipped(format)));
  r.allowOnly({"format", "version", "title", "x", "y", "series"});
  r.integer(QStringLiteral("version"), kFigureVersion, kFigureVersion, 0, true);
  Figure figure;
  figure.title = r.string(QStringLiteral("title"), false, {}, true);
  figure.x = readAxis(r.child(QStringLiteral("x"), true));
  figure.y = readAxis(r.child(QStringLiteral("y"), true));
  const QJsonArray series = r.array(QStringLiteral("series"), true);
  for (qsizetype i = 0; i < series.size(); ++i) {
    const QString key = QStringLiteral("series[%1]").arg(i);
    if (!series.at(i).isObject()) r.expected(key, QStringLiteral("an object"), series.at(i));
    figure.series.push_back(readSeries(JsonReader(series.at(i).toObject(), r.path(key))));
  }
  r.finish();
  return figure;
}

}  // namespace

void saveFigure(const QString& path, const Figure& figure) {
  QJsonArray series;
  for (const FigureSeries& s : figure.series) {
    QJsonArray points;
    for (const QPointF& p : s.points) points.append(QJsonArray{p.x(), p.y()});
    QJsonObject object{{"name", s.name}, {"line", lineName(s.line)}, {"points", points}};
    if (!s.color.isEmpty()) object.insert(QStringLiteral("color"), s.color);
    series.append(object);
  }
  const QJsonObject json{{"format", QString::fromLatin1(kFigureFormat)},
                         {"version", kFigureVersion},
                         {"title", figure.title},
                         {"x", axisToJson(figure.x)},
                         {"y", axisToJson(figure.y)},
                         {"series", series}};
  writeFileAtomically(path, QJsonDocument(json).toJson(QJsonDocument::Compact));
}

Figure loadFigure(const QString& path) {
  constexpr qint64 kMaxFigureBytes = 64LL << 20;
  const QJsonObject json = readJsonObjectFile(path, kMaxFigureBytes, QStringLiteral("figure"));
  try {
    return figureFromJson(json);
  } catch (const ConfigError& e) {
    throw ConfigError(path.toStdString() + ": " + e.what());
  }
}

}  // namespace epsilon::ui
