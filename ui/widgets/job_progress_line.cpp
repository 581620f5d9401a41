#include "ui/widgets/job_progress_line.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

namespace epsilon::ui {

JobProgressLine::JobProgressLine(QWidget* parent)
    : QWidget(parent), m_progress(new QProgressBar(this)), m_status(new QLabel(this)) {
  m_progress->setRange(0, 100);
  m_progress->hide();
  m_status->setWordWrap(true);
  m_status->hide();
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->addWidget(m_progress);
  column->addWidget(m_status);
  hide();  // nothing to say yet: no space taken (not even the layout's spacing)
}

void JobProgressLine::started(const QString& text) {
  m_progress->setValue(0);
  m_progress->show();
  setText(text);
}

void JobProgressLine::progressed(double fraction, const QString& text) {
  m_progress->setValue(static_cast<int>(fraction * 100.0));
  setText(text);
}

void JobProgressLine::ended(const QString& text) {
  m_progress->hide();
  setText(text);
}

void JobProgressLine::setText(const QString& text) {
  m_status->setText(text);
  m_status->setVisible(!text.isEmpty());
  setVisible(!text.isEmpty() || !m_progress->isHidden());
}

QString JobProgressLine::text() const {
  return m_status->text();
}

}  // namespace epsilon::ui
