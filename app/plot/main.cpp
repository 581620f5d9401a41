// epsilonlab-plot: renders the runs of an EpsilonLab session file into the GUI's charts (the
// 2×2 grid, or one chart or the sweep map with --chart) as PNG, SVG or PDF. Exit status 0 on
// success, 2 on a bad flag or an unreadable file (the message names it).
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <exception>

#include "base/io/figure_file.h"
#include "base/io/run_file.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/headless_plot.h"

namespace {

constexpr int kExitUsage = 2;

int intValue(const QCommandLineParser& parser, const QString& flag, int low, int high) {
  bool ok = false;
  const int value = parser.value(flag).toInt(&ok);
  if (!ok || value < low || value > high)
    throw std::invalid_argument(QStringLiteral("--%1: expected an integer in [%2, %3], got '%4'")
                                    .arg(flag)
                                    .arg(low)
                                    .arg(high)
                                    .arg(parser.value(flag))
                                    .toStdString());
  return value;
}

int plot(const QCommandLineParser& parser) {
  if (parser.positionalArguments().size() != 1)
    throw std::invalid_argument("expected one session or figure file");
  const QString out = parser.value(QStringLiteral("out"));
  if (out.isEmpty())
    throw std::invalid_argument("--out: expected the file to write (.png, .svg or .pdf)");
  const QSize size(intValue(parser, QStringLiteral("width"), 100, 20000),
                   intValue(parser, QStringLiteral("height"), 100, 20000));
  const int dpi = intValue(parser, QStringLiteral("dpi"), 30, 1200);
  if (parser.isSet(QStringLiteral("figure"))) {
    const auto figure = epsilon::ui::loadFigure(parser.positionalArguments().constFirst());
    const QString error = epsilon::ui::plotFigureToFile(figure, out, size, dpi);
    if (!error.isEmpty()) throw std::invalid_argument(error.toStdString());
    return 0;
  }
  // A session, a run file or a sweep's folder, read as File › Open reads it (each run's ε
  // checked against its settings).
  int missing = 0;
  const auto runs =
      epsilon::ui::openSessionOrRuns(parser.positionalArguments().constFirst(), &missing);
  if (missing > 0)
    QTextStream(stderr) << "epsilonlab-plot: " << missing
                        << " runs of this sweep are missing (still running, or stopped: "
                           "`epsilonlab-cli sweep --resume` finishes them)\n";
  const QString caption = parser.value(QStringLiteral("caption"));
  const QString chart = parser.value(QStringLiteral("chart"));
  const bool privacy = parser.isSet(QStringLiteral("privacy-caption"));
  const QString error =
      chart.isEmpty() ? epsilon::ui::plotRunsToFile(runs, out, size, dpi, caption, privacy)
                      : epsilon::ui::plotChartToFile(runs, chart, out, size, dpi, caption, privacy);
  if (!error.isEmpty()) throw std::invalid_argument(error.toStdString());
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  // Never shows a window: draw offscreen unless told otherwise.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("epsilonlab-plot"));
  QApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Draws the runs of an EpsilonLab session file as the GUI's charts."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("file"),
      QStringLiteral("An epsilonlab-session file, an epsilonlab-run file or a folder of run files "
                     "(or, with --figure, an epsilonlab-figure file)."));
  parser.addOptions({
      {QStringLiteral("out"), QStringLiteral("The file to write (.png, .svg or .pdf)."),
       QStringLiteral("FILE")},
      {QStringLiteral("chart"),
       QStringLiteral("One chart only: accuracy-vs-epoch, epsilon-vs-epoch, accuracy-vs-epsilon, "
                      "loss-vs-step, or sweep-map (final accuracy over the one or two swept "
                      "parameters, with iso-epsilon lines)."),
       QStringLiteral("NAME")},
      {QStringLiteral("figure"),
       QStringLiteral(
           "The file is an epsilonlab-figure (a described line chart), drawn as it is.")},
      {QStringLiteral("caption"), QStringLiteral("A subtitle under each chart's title."),
       QStringLiteral("TEXT")},
      {QStringLiteral("privacy-caption"),
       QStringLiteral("A caption under the drawing with the runs' delta, accountant and "
                      "sampling, for a report.")},
      {QStringLiteral("width"), QStringLiteral("Width in pixels (PNG) or points."),
       QStringLiteral("N"), QStringLiteral("1600")},
      {QStringLiteral("height"), QStringLiteral("Height in pixels (PNG) or points."),
       QStringLiteral("N"), QStringLiteral("1100")},
      {QStringLiteral("dpi"), QStringLiteral("Resolution stored in a PNG."), QStringLiteral("N"),
       QStringLiteral("150")},
  });
  parser.process(app);
  try {
    return plot(parser);
  } catch (const std::exception& e) {
    QTextStream(stderr) << "epsilonlab-plot: " << e.what() << "\n";
    return kExitUsage;
  }
}
