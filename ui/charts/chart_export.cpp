#include "ui/charts/chart_export.h"

#include <QFileInfo>
#include <QFont>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "ui/charts/drawn_text.h"

namespace epsilon::ui {

bool exportFormatForPath(const QString& path, ExportFormat& format) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QStringLiteral("png"))
    format = ExportFormat::Png;
  else if (suffix == QStringLiteral("svg"))
    format = ExportFormat::Svg;
  else if (suffix == QStringLiteral("pdf"))
    format = ExportFormat::Pdf;
  else
    return false;
  return true;
}

namespace {

// Why the export cannot be made as asked, or an empty string.
QString checkExportRequest(const QString& path, QSize size, int dpi) {
  if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
    return QObject::tr("%1: export size %2×%3 is outside 16..20000 pixels")
        .arg(path)
        .arg(size.width())
        .arg(size.height());
  if (dpi < 24 || dpi > 1200)
    return QObject::tr("%1: DPI %2 is outside 24..1200").arg(path).arg(dpi);
  return {};
}

// The DPI the charts' texts are measured and laid out at: fonts measured without a paint
// device (Qt Charts' titles and labels, the legend's QTextDocument) take the primary screen's
// logical DPI (96 offscreen).
double layoutDpi() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  return screen ? screen->logicalDotsPerInchY() : 96.0;
}

// Every format draws the same picture: the drawing laid out in layout-DPI units on a target
// of size × layoutDpi / dpi, scaled up by dpi / layoutDpi, so a higher DPI gives larger text
// and lines at the same size, as a slide needs. The device's own DPI for fonts is the layout
// DPI too: a vector file then names each text run in the size it was measured at, and a
// renderer that places the runs where the layout put them (librsvg, a browser, a PDF viewer)
// draws them without overlaps (at a device DPI of `dpi` an SVG's text came out dpi/96 times
// wider than the room made for it, and legend entries and title pieces ran into each other).
QRectF logicalTarget(QSize size, int dpi) {
  return QRectF(QPointF(0, 0), QSizeF(size) * (layoutDpi() / dpi));
}

bool paintPng(const RenderFunction& render, QIODevice& file, QSize size, int dpi) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF target = logicalTarget(size, dpi);
    painter.scale(size.width() / target.width(), size.height() / target.height());
    render(painter, target);
  }
  return image.save(&file, "PNG");
}

bool paintSvg(const RenderFunction& render, QIODevice& file, QSize size, int dpi,
              const QString& title) {
  QSvgGenerator generator;
  generator.setOutputDevice(&file);
  generator.setSize(size);
  generator.setViewBox(QRectF(QPointF(0, 0), QSizeF(size)));
  generator.setResolution(static_cast<int>(std::lround(layoutDpi())));
  generator.setTitle(title);
  generator.setDescription(QObject::tr("Exported from EpsilonLab"));
  QPainter painter;
  if (!painter.begin(&generator)) return false;
  const QRectF target = logicalTarget(size, dpi);
  painter.scale(size.width() / target.width(), size.height() / target.height());
  render(painter, target);
  painter.end();
  return true;
}

bool paintPdf(const RenderFunction& render, QIODevice& file, QSize size, int dpi,
              const QString& title) {
  QPdfWriter writer(&file);
  writer.setTitle(title);
  writer.setCreator(QStringLiteral("EpsilonLab"));
  writer.setResolution(static_cast<int>(std::lround(layoutDpi())));
  writer.setPageSize(
      QPageSize(QSizeF(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi), QPageSize::Point));
  writer.setPageMargins(QMarginsF(0, 0, 0, 0));
  QPainter painter;
  if (!painter.begin(&writer)) return false;
  const QRectF target = logicalTarget(size, dpi);
  const QRect page = painter.viewport();  // the page in layout-DPI units: about `target`
  painter.scale(page.width() / target.width(), page.height() / target.height());
  render(painter, target);
  painter.end();
  return true;
}

// The drawing above a caption strip: the caption in a pixel-sized font (the same size in
// layout units whatever the device's DPI), wrapped to the width, cut as charts cut text.
RenderFunction withCaption(const RenderFunction& render, const QString& caption) {
  if (caption.isEmpty()) return render;
  return [render, text = drawnText(caption)](QPainter& painter, const QRectF& target) {
    QFont font;
    font.setPixelSize(std::max(9, static_cast<int>(target.height() / 60)));
    const double margin = 8.0;
    const QRectF room(0, 0, std::max(1.0, target.width() - 2 * margin), target.height() / 3);
    const QRectF box = QFontMetricsF(font).boundingRect(room, Qt::TextWordWrap, text);
    const double strip = std::min(box.height() + margin, target.height() / 3);
    render(painter, target.adjusted(0, 0, 0, -strip));
    painter.save();
    painter.setFont(font);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(target.left() + margin, target.bottom() - strip + margin / 2,
                            room.width(), strip - margin / 2),
                     Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    painter.restore();
  };
}

}  // namespace

QString exportDrawing(const RenderFunction& plainRender, const QString& path, QSize size, int dpi,
                      const QString& title, const QString& caption) {
  const RenderFunction render = withCaption(plainRender, caption);
  ExportFormat format;
  if (!exportFormatForPath(path, format))
    return QObject::tr("%1: unknown export format '%2' (use .png, .svg or .pdf)")
        .arg(path, QFileInfo(path).suffix());
  if (const QString problem = checkExportRequest(path, size, dpi); !problem.isEmpty())
    return problem;

  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
  bool painted = false;
  switch (format) {
    case ExportFormat::Png:
      painted = paintPng(render, file, size, dpi);
      break;
    case ExportFormat::Svg:
      painted = paintSvg(render, file, size, dpi, title);
      break;
    case ExportFormat::Pdf:
      painted = paintPdf(render, file, size, dpi, title);
      break;
  }
  if (!painted) {
    file.cancelWriting();
    return QObject::tr("Cannot render %1").arg(path);
  }
  if (!file.commit()) return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
  return {};
}

}  // namespace epsilon::ui
