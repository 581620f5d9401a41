#include "reproduce_plot.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include "base/io/figure_file.h"
#include "base/io/session_file.h"
#include "cli_command.h"
#include "core/train/experiment_schema.h"

namespace epsilon::cli {

namespace {

// Legends have little room: swept parameters by their usual symbols ("σ=0.5, C=4"), the
// schema's (experiment_schema.h).
QString chartLabel(const train::SweepPoint& point) {
  QStringList parts;
  for (const auto& [parameter, value] : point.values) {
    if (parameter == "variant" || parameter == "target_epsilon")
      return QString::fromStdString(point.label);
    const train::ExperimentField* field = train::fieldForWord(parameter);
    const std::string& symbol = field && !field->symbol.empty() ? field->symbol : parameter;
    parts << QString::fromStdString(symbol) + QLatin1Char('=') + QString::fromStdString(value);
  }
  return parts.isEmpty() ? QString::fromStdString(point.label) : parts.join(QStringLiteral(", "));
}

// The points' runs from the session model, named for a legend.
std::vector<ui::RunRecord> legendNamed(const std::vector<train::SweepPoint>& points,
                                       const std::vector<ui::RunRecord>& runs) {
  std::vector<ui::RunRecord> named;
  for (std::size_t i = 0; i < points.size() && i < runs.size(); ++i) {
    named.push_back(runs[i]);
    named.back().name = chartLabel(points[i]);
  }
  return named;
}

QString plotProgram() {
  return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("epsilonlab-plot"));
}

}  // namespace

void requirePlotting(const char* flag, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
      suffix != QLatin1String("pdf"))
    throw UsageError(std::string(flag) + ": expected a .png, .svg or .pdf file, got '" +
                     path.toStdString() + "'");
  requirePlotTool(flag);
}

void requirePlotTool(const char* flag) {
  if (!QFileInfo(plotProgram()).isExecutable())
    throw UsageError(std::string(flag) + ": drawing charts needs " + plotProgram().toStdString() +
                     ", which is not installed (it is built with EPSILON_BUILD_GUI=ON)");
}

namespace {

// Runs epsilonlab-plot with `arguments`; an empty string on success, else its message.
QString runPlotProgram(const QStringList& arguments, const QString& path) {
  QProcess process;
  process.start(plotProgram(), arguments);
  constexpr int kPlotTimeoutMs = 10 * 60 * 1000;  // a grid of a few dozen runs takes about a second
  if (!process.waitForFinished(kPlotTimeoutMs))
    return QStringLiteral("%1: %2 did not finish").arg(path, plotProgram());
  if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
    return QString::fromUtf8(process.readAllStandardError()).trimmed();
  return {};
}

QStringList sizeArguments(const QString& path, QSize size, int dpi) {
  return {QStringLiteral("--out"),    path,
          QStringLiteral("--width"),  QString::number(size.width()),
          QStringLiteral("--height"), QString::number(size.height()),
          QStringLiteral("--dpi"),    QString::number(dpi)};
}

}  // namespace

QString plotRecords(const std::vector<ui::RunRecord>& runs, const QString& path,
                    const QString& caption, const QString& chart, QSize size, int dpi,
                    bool privacyCaption) {
  QTemporaryDir dir;
  if (!dir.isValid())
    return QStringLiteral("%1: cannot make a temporary folder (%2)").arg(path, dir.errorString());
  std::vector<ui::RunRecord> numbered = runs;
  for (std::size_t i = 0; i < numbered.size(); ++i) numbered[i].id = static_cast<int>(i) + 1;
  const QString session = dir.filePath(QStringLiteral("runs.json"));
  ui::saveSession(session, numbered);
  QStringList arguments = QStringList{session} + sizeArguments(path, size, dpi);
  if (!caption.isEmpty()) arguments << QStringLiteral("--caption") << caption;
  if (!chart.isEmpty()) arguments << QStringLiteral("--chart") << chart;
  if (privacyCaption) arguments << QStringLiteral("--privacy-caption");
  return runPlotProgram(arguments, path);
}

QString plotFigure(const ui::Figure& figure, const QString& path, QSize size, int dpi) {
  QTemporaryDir dir;
  if (!dir.isValid())
    return QStringLiteral("%1: cannot make a temporary folder (%2)").arg(path, dir.errorString());
  const QString file = dir.filePath(QStringLiteral("figure.json"));
  ui::saveFigure(file, figure);
  return runPlotProgram(
      QStringList{file, QStringLiteral("--figure")} + sizeArguments(path, size, dpi), path);
}

QString plotRunGrid(const std::vector<train::SweepPoint>& points,
                    const std::vector<ui::RunRecord>& runs, const QString& path,
                    const QString& caption, QSize size, int dpi, bool privacyCaption) {
  return plotRecords(legendNamed(points, runs), path, caption, {}, size, dpi, privacyCaption);
}

QString sweepMapPath(const QString& plotPath) {
  const QFileInfo info(plotPath);
  return info.dir().filePath(info.completeBaseName() + QStringLiteral("-map.") + info.suffix());
}

QString plotSweepMap(const std::vector<train::SweepPoint>& points,
                     const std::vector<ui::RunRecord>& runs, const QString& path, QSize size,
                     int dpi, bool privacyCaption) {
  return plotRecords(legendNamed(points, runs), path, {}, QStringLiteral("sweep-map"), size, dpi,
                     privacyCaption);
}

QString plotOneChart(const std::vector<train::SweepPoint>& points,
                     const std::vector<ui::RunRecord>& runs, const QString& chart,
                     const QString& path, const QString& caption, QSize size, int dpi) {
  return plotRecords(legendNamed(points, runs), path, caption, chart, size, dpi);
}

}  // namespace epsilon::cli
