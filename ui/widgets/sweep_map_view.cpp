#include "ui/widgets/sweep_map_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "base/session/run_model.h"
#include "ui/widgets/coalesced_refresh.h"

namespace epsilon::ui {

SweepMapView::SweepMapView(RunModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      // A sweep's runs report many times a second together.
      m_redraw(new CoalescedRefresh(this, 150, [this](bool) { redraw(); })) {
  setObjectName(QStringLiteral("sweepMap"));
  setMouseTracking(true);
  setMinimumSize(320, 240);
  m_redraw->holdWhile([this] { return m_model->arriving(); });  // an open draws once, at its end
  connect(model, &RunModel::historyChanged, this, &SweepMapView::scheduleRedraw);
  connect(model, &RunModel::runsChanged, this, &SweepMapView::scheduleRedraw);
  connect(model, &RunModel::modelReset, this, &SweepMapView::scheduleRedraw);
  connect(model, &RunModel::runChanged, this, &SweepMapView::scheduleRedraw);
  m_chart.setRuns(model->runs());
}

void SweepMapView::scheduleRedraw() {
  m_redraw->schedule();
}

void SweepMapView::redrawNow() {
  m_redraw->now();
}

void SweepMapView::redraw() {
  m_chart.setRuns(m_model->runs());
  update();
}

void SweepMapView::setChartPointSize(int points) {
  m_chart.setTextPointSize(points);
  update();
}

void SweepMapView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  m_chart.render(painter, rect());
}

void SweepMapView::mouseMoveEvent(QMouseEvent* event) {
  const int run = m_chart.runAt(rect(), event->position());
  setCursor(run ? Qt::PointingHandCursor : Qt::ArrowCursor);
  if (run)
    QToolTip::showText(event->globalPosition().toPoint(), m_chart.describeRun(run), this);
  else
    QToolTip::hideText();
}

void SweepMapView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if (const int run = m_chart.runAt(rect(), event->position())) Q_EMIT runClicked(run);
}

}  // namespace epsilon::ui
