#include "ui/widgets/steady_label.h"

#include <QEvent>
#include <QLabel>
#include <algorithm>

namespace epsilon::ui {

SteadyLabel::SteadyLabel(QWidget* parent) : QWidget(parent), m_label(new QLabel(this)) {
  setSizePolicy(m_label->sizePolicy());
  // Opaque: a new value repaints this label alone, not the readout and scroll area behind it.
  setAutoFillBackground(true);
}

QString SteadyLabel::text() const {
  return m_label->text();
}

void SteadyLabel::setText(const QString& text) {
  if (text == m_label->text()) return;
  m_sameLength = text.size() == m_label->text().size();
  m_label->setText(text);  // the label asks this host (no layout) for a layout: event() below
}

void SteadyLabel::setWordWrap(bool on) {
  m_label->setWordWrap(on);
  setSizePolicy(m_label->sizePolicy());
}

SteadyLabel::Sizes SteadyLabel::current() const {
  // A word-wrapped label's size policy says it has a height for a width.
  Sizes now{m_label->sizeHint(), m_label->minimumSizeHint(),
            hasHeightForWidth() && width() > 0 ? m_label->heightForWidth(width()) : -1,
            m_label->font()};
  if (m_sameLength && now.font == m_reported.font) {
    now.hint.setWidth(std::max(now.hint.width(), m_reported.hint.width()));
    now.minimum.setWidth(std::max(now.minimum.width(), m_reported.minimum.width()));
  }
  return now;
}

QSize SteadyLabel::sizeHint() const {
  m_reported = current();
  return m_reported.hint;
}

QSize SteadyLabel::minimumSizeHint() const {
  m_reported = current();
  return m_reported.minimum;
}

bool SteadyLabel::hasHeightForWidth() const {
  return m_label->sizePolicy().hasHeightForWidth();
}

int SteadyLabel::heightForWidth(int width) const {
  return m_label->heightForWidth(width);
}

bool SteadyLabel::event(QEvent* event) {
  if (event->type() != QEvent::LayoutRequest) return QWidget::event(event);
  const Sizes now = current();
  if (!(now == m_reported)) {
    m_reported = now;
    ++m_layoutRequests;
    updateGeometry();
  }
  return true;
}

void SteadyLabel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  m_label->setGeometry(rect());
}

}  // namespace epsilon::ui
