// Exports read the same everywhere: the chart grid is exported as PNG, SVG and PDF, the SVG is
// drawn by an independent renderer (librsvg's rsvg-convert) and the PDF by poppler's pdftoppm,
// and the three pictures are compared where text is: every chart's title and x-axis title sit
// where the PNG has them (within a tolerance), and the legend shows one separate entry per run,
// each where the PNG has it (overlapping entries merge into fewer). Once, an SVG at 150 DPI
// placed its text for 96-DPI metrics: titles read "Privacy sp ε)nt ( epoch" and legend entries
// printed over each other.
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "base/session/run_model.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/run_charts.h"

using namespace epsilon::ui;

namespace {

// Runs with names as a lesson gives them (spaces, "·", Greek letters).
std::vector<RunRecord> someRuns() {
  RunModel model;  // gives the palette's colours
  const double sigmas[] = {0.5, 1.0, 2.0, 4.0};
  for (double sigma : sigmas) {
    RunRecord run;
    run.name = QStringLiteral("σ %1 · C 1 · ε run").arg(sigma);
    run.status = RunStatus::Done;
    for (int epoch = 1; epoch <= 8; ++epoch) {
      EvalPoint p;
      p.epoch = epoch;
      p.step = epoch * 10;
      p.testAccuracy = 0.6 + 0.3 * (1.0 - 1.0 / (epoch + sigma));
      p.epsilon = 3.0 * std::sqrt(epoch) / sigma;
      run.evals.push_back(p);
      run.losses.push_back({static_cast<long long>(epoch * 10), 1.0 / (epoch + sigma)});
    }
    model.addRun(run);
  }
  return model.runs();
}

// Text ink: dark and grey (the charts' titles, labels and the legend's names are grey to
// black; the runs' colours, the grid and the swatches are not).
bool isInk(QRgb pixel) {
  const int high = std::max({qRed(pixel), qGreen(pixel), qBlue(pixel)});
  const int low = std::min({qRed(pixel), qGreen(pixel), qBlue(pixel)});
  return high < 150 && high - low < 48;
}

int inkInRow(const QImage& image, int y, int left, int right) {
  int count = 0;
  for (int x = left; x < right; ++x) count += isInk(image.pixel(x, y));
  return count;
}

// The first line of text met going down (step 1) or up (step -1) from row `from` inside
// [left, right): the rows with ink until a gap of 3 empty rows, and the columns with ink in
// them. A null rectangle when there is none.
QRect firstTextLine(const QImage& image, int from, int to, int step, int left, int right) {
  int y = from;
  while (y != to && inkInRow(image, y, left, right) < 2) y += step;
  if (y == to) return {};
  int top = y, bottom = y, empty = 0;
  for (; y != to && empty < 3; y += step) {
    if (inkInRow(image, y, left, right) == 0) {
      ++empty;
      continue;
    }
    empty = 0;
    top = std::min(top, y);
    bottom = std::max(bottom, y);
  }
  int first = right, last = left - 1;
  for (int row = top; row <= bottom; ++row)
    for (int x = left; x < right; ++x)
      if (isInk(image.pixel(x, row))) {
        first = std::min(first, x);
        last = std::max(last, x);
      }
  return QRect(QPoint(first, top), QPoint(last, bottom));
}

// Runs of ink columns in the rows of `band`, split where `gap` or more columns have none: the
// legend's entries (a name's words are closer than an entry's swatch and spacing).
std::vector<QRect> inkSegments(const QImage& image, const QRect& band, int gap) {
  std::vector<QRect> segments;
  int start = -1, last = -1;
  for (int x = 0; x < image.width(); ++x) {
    bool ink = false;
    for (int y = band.top(); y <= band.bottom() && !ink; ++y) ink = isInk(image.pixel(x, y));
    if (!ink) continue;
    if (start >= 0 && x - last > gap) {
      segments.emplace_back(QPoint(start, band.top()), QPoint(last, band.bottom()));
      start = -1;
    }
    if (start < 0) start = x;
    last = x;
  }
  if (start >= 0) segments.emplace_back(QPoint(start, band.top()), QPoint(last, band.bottom()));
  return segments;
}

// Where the text is: each chart's title and x-axis title, and the legend's entries.
struct TextPlaces {
  std::vector<QRect> titles;
  std::vector<QRect> axisTitles;
  std::vector<QRect> legendEntries;
};

TextPlaces textPlaces(const QImage& image) {
  TextPlaces places;
  const int w = image.width(), h = image.height();
  const QRect legend = firstTextLine(image, h - 1, -1, -1, 0, w);
  if (legend.isNull()) return places;
  places.legendEntries = inkSegments(image, legend, w / 60);
  const int chartsBottom = legend.top() - 4;
  for (int k = 0; k < 4; ++k) {
    const int left = (k % 2) * w / 2, right = left + w / 2;
    const int top = (k / 2) * chartsBottom / 2, bottom = top + chartsBottom / 2;
    places.titles.push_back(firstTextLine(image, top, bottom, 1, left + 2, right - 2));
    places.axisTitles.push_back(firstTextLine(image, bottom - 1, top, -1, left + 2, right - 2));
  }
  return places;
}

QString describe(const QRect& r) {
  return QStringLiteral("[%1..%2 × %3..%4]")
      .arg(r.left())
      .arg(r.right())
      .arg(r.top())
      .arg(r.bottom());
}

// Two places of one text agree: edges within `dx` columns and `dy` rows.
bool samePlace(const QRect& a, const QRect& b, int dx, int dy) {
  return !a.isNull() && !b.isNull() && std::abs(a.left() - b.left()) <= dx &&
         std::abs(a.right() - b.right()) <= dx && std::abs(a.top() - b.top()) <= dy &&
         std::abs(a.bottom() - b.bottom()) <= dy;
}

QString tool(const char* name, const char* package) {
  const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
  if (path.isEmpty())
    qWarning("%s not found: install Debian's %s (scripts/install-deps)", name, package);
  return path;
}

bool runTool(const QString& program, const QStringList& arguments) {
  QProcess process;
  process.start(program, arguments);
  if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit ||
      process.exitCode() != 0) {
    qWarning("%s failed: %s", qPrintable(program), process.readAllStandardError().constData());
    return false;
  }
  return true;
}

}  // namespace

class TestExportRender : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void svgAndPdfReadLikeThePng_data() {
    QTest::addColumn<int>("dpi");
    QTest::newRow("96 dpi") << 96;
    QTest::newRow("150 dpi (slides)") << 150;
  }

  void svgAndPdfReadLikeThePng() {
    QFETCH(int, dpi);
    const QString rsvg = tool("rsvg-convert", "librsvg2-bin");
    const QString pdftoppm = tool("pdftoppm", "poppler-utils");
    QVERIFY2(!rsvg.isEmpty() && !pdftoppm.isEmpty(), "the independent renderers are missing");

    const std::vector<RunRecord> runs = someRuns();
    RunCharts charts;
    charts.update(runs);
    const RenderFunction grid = [&charts](QPainter& painter, const QRectF& target) {
      charts.renderGrid(painter, target);
    };
    const QSize size(1200, 800);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("grid.png"));
    const QString svg = dir.filePath(QStringLiteral("grid.svg"));
    const QString pdf = dir.filePath(QStringLiteral("grid.pdf"));
    for (const QString& path : {png, svg, pdf})
      QCOMPARE(exportDrawing(grid, path, size, dpi, QStringLiteral("grid")), QString());

    const QString svgPng = dir.filePath(QStringLiteral("svg.png"));
    QVERIFY(
        runTool(rsvg, {QStringLiteral("-w"), QString::number(size.width()), QStringLiteral("-h"),
                       QString::number(size.height()), QStringLiteral("-b"),
                       QStringLiteral("white"), QStringLiteral("-o"), svgPng, svg}));
    QVERIFY(runTool(pdftoppm, {QStringLiteral("-png"), QStringLiteral("-singlefile"),
                               QStringLiteral("-scale-to-x"), QString::number(size.width()),
                               QStringLiteral("-scale-to-y"), QString::number(size.height()), pdf,
                               dir.filePath(QStringLiteral("pdf"))}));

    const TextPlaces reference = textPlaces(QImage(png).convertToFormat(QImage::Format_RGB32));
    // The PNG itself is as expected: a title and an axis title in each chart, one legend entry
    // per run, none of them overlapping.
    QCOMPARE(reference.titles.size(), std::size_t{4});
    for (const QRect& r : reference.titles) QVERIFY2(r.width() > 40, qPrintable(describe(r)));
    for (const QRect& r : reference.axisTitles) QVERIFY2(r.width() > 20, qPrintable(describe(r)));
    QCOMPARE(reference.legendEntries.size(), runs.size());

    const int dx = size.width() / 60, dy = size.height() / 100;  // 20 and 8 pixels
    for (const QString& rendered : {svgPng, dir.filePath(QStringLiteral("pdf.png"))}) {
      const QImage image(rendered);
      QCOMPARE(image.size(), size);
      const TextPlaces places = textPlaces(image.convertToFormat(QImage::Format_RGB32));
      const QString which = QFileInfo(rendered).baseName();
      QVERIFY2(places.legendEntries.size() == runs.size(),
               qPrintable(QStringLiteral("%1: %2 legend entries apart, expected %3")
                              .arg(which)
                              .arg(places.legendEntries.size())
                              .arg(runs.size())));
      for (std::size_t i = 0; i < runs.size(); ++i)
        QVERIFY2(samePlace(places.legendEntries[i], reference.legendEntries[i], dx, dy),
                 qPrintable(QStringLiteral("%1: legend entry %2 at %3, the PNG's at %4")
                                .arg(which)
                                .arg(i)
                                .arg(describe(places.legendEntries[i]),
                                     describe(reference.legendEntries[i]))));
      for (std::size_t k = 0; k < 4; ++k) {
        QVERIFY2(samePlace(places.titles[k], reference.titles[k], dx, dy),
                 qPrintable(QStringLiteral("%1: chart %2's title at %3, the PNG's at %4")
                                .arg(which)
                                .arg(k)
                                .arg(describe(places.titles[k]), describe(reference.titles[k]))));
        QVERIFY2(samePlace(places.axisTitles[k], reference.axisTitles[k], dx, dy),
                 qPrintable(
                     QStringLiteral("%1: chart %2's axis title at %3, the PNG's at %4")
                         .arg(which)
                         .arg(k)
                         .arg(describe(places.axisTitles[k]), describe(reference.axisTitles[k]))));
      }
    }
  }
};

QTEST_MAIN(TestExportRender)
#include "test_export_render.moc"
