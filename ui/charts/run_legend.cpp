#include "ui/charts/run_legend.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextDocument>

#include "ui/charts/drawn_text.h"

namespace epsilon::ui {

namespace {

void layOut(QTextDocument& document, const QString& html, qreal width, int pointSize) {
  QFont font;
  font.setPointSize(pointSize);
  document.setDefaultFont(font);
  document.setHtml(html);
  document.setTextWidth(width);
}

}  // namespace

QString runLegendHtml(const std::vector<RunRecord>& runs) {
  QStringList entries;
  for (const RunRecord& run : runs) {
    if (!run.visible) continue;
    // Non-breaking spaces, and a word joiner after each hyphen ("tfp-cnn"), keep each name
    // whole; lines break only between runs.
    QString name = drawnText(run.name).toHtmlEscaped();
    name.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    name.replace(QLatin1Char('-'), QStringLiteral("-&#8288;"));
    entries
        << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2").arg(run.color, name);
  }
  if (entries.isEmpty()) return {};
  return QStringLiteral("<div align=\"center\">%1</div>")
      .arg(entries.join(QStringLiteral(" &nbsp;&nbsp; ")));
}

qreal runLegendHeight(const QString& html, qreal width, int pointSize) {
  if (html.isEmpty()) return 0;
  QTextDocument document;
  layOut(document, html, width, pointSize);
  return document.size().height();
}

void drawRunLegend(QPainter& painter, const QString& html, const QRectF& target, int pointSize) {
  if (html.isEmpty()) return;
  QTextDocument document;
  layOut(document, html, target.width(), pointSize);
  painter.save();
  painter.translate(target.topLeft());
  document.drawContents(&painter, QRectF(QPointF(0, 0), target.size()));
  painter.restore();
}

}  // namespace epsilon::ui
