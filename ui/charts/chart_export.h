// Writes a drawing (one chart, or the whole grid) to PNG at a chosen size and DPI, to SVG
// or to PDF. Files are written atomically (QSaveFile): an export that fails leaves any
// earlier file untouched and reports why.
#pragma once

#include <QSize>
#include <QString>
#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
class QRectF;
QT_END_NAMESPACE

namespace epsilon::ui {

using RenderFunction = std::function<void(QPainter& painter, const QRectF& target)>;

enum class ExportFormat { Png, Svg, Pdf };

// From the file name's suffix (png, svg, pdf); nullopt-like: returns false if unknown.
bool exportFormatForPath(const QString& path, ExportFormat& format);

// Renders into `path`. `size` is in pixels for PNG (the DPI is stored in the file and
// scales fonts), the view box of an SVG and a page of size / DPI inches for a PDF: the three
// show the same picture, texts in the same places. A `caption` (for a report: the runs' δ,
// accountant and sampling, privacyCaption) is written under the drawing, which then takes the
// room above it. Returns an empty string on success, otherwise a message naming the file and
// the reason.
QString exportDrawing(const RenderFunction& render, const QString& path, QSize size, int dpi = 96,
                      const QString& title = {}, const QString& caption = {});

}  // namespace epsilon::ui
