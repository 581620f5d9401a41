#include "ui/widgets/class_accuracy_view.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include "base/io/class_accuracy.h"
#include "base/io/run_palette.h"
#include "base/session/run_model.h"
#include "ui/widgets/coalesced_refresh.h"

namespace epsilon::ui {

ClassAccuracyView::ClassAccuracyView(RunModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_chartView(new QChartView(this)),
      m_empty(new QLabel(this)),
      m_redraw(new CoalescedRefresh(this, 200, [this](bool) { redraw(); })) {
  setObjectName(QStringLiteral("classAccuracyView"));
  m_chartView->setObjectName(QStringLiteral("classAccuracyChart"));
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->setMinimumSize(240, 200);
  m_empty->setObjectName(QStringLiteral("classAccuracyEmpty"));
  m_empty->setWordWrap(true);
  m_empty->setAlignment(Qt::AlignCenter);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_chartView, 1);
  layout->addWidget(m_empty, 1);
  connect(model, &RunModel::historyChanged, this, [this](int id) {
    if (id == m_runId) scheduleRedraw();
  });
  connect(model, &RunModel::runsChanged, this, &ClassAccuracyView::scheduleRedraw);
  connect(model, &RunModel::modelReset, this, &ClassAccuracyView::scheduleRedraw);
  redrawNow();
}

void ClassAccuracyView::setRun(int runId) {
  if (runId == m_runId) return;
  m_runId = runId;
  m_redraw->nowIfShown();
}

QString ClassAccuracyView::emptyText() const {
  return m_empty->isHidden() ? QString() : m_empty->text();
}

void ClassAccuracyView::scheduleRedraw() {
  m_redraw->schedule();
}

void ClassAccuracyView::redrawNow() {
  m_redraw->now();
}

void ClassAccuracyView::redraw() {
  const RunRecord* run = m_model->run(m_runId);
  const auto curves = run ? classAccuracyCurves(*run) : std::vector<std::vector<QPointF>>{};
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  auto* x = new QValueAxis;
  x->setTitleText(tr("epoch"));
  auto* y = new QValueAxis;
  y->setTitleText(tr("test accuracy of the class"));
  y->setRange(0, 1);
  y->setTickCount(6);  // 0, 0.2, … 1: every label exact
  y->setLabelFormat(QStringLiteral("%.1f"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  double lastEpoch = 1;
  const QStringList& palette = runPalette();
  for (std::size_t k = 0; k < curves.size(); ++k) {
    auto* series = new QLineSeries;
    series->setName(tr("class %1").arg(k));
    for (const QPointF& p : curves[k]) series->append(p);
    if (!curves[k].empty()) lastEpoch = std::max(lastEpoch, curves[k].back().x());
    series->setPen(QPen(QColor(palette[static_cast<int>(k) % palette.size()]), 2));
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  x->setRange(0, lastEpoch);
  x->applyNiceNumbers();  // whole epochs on the ticks
  if (run) chart->setTitle(tr("%1: test accuracy per class").arg(run->name.left(80)));
  m_chartView->setChart(chart);  // the view owns the chart and deletes the previous one
  const bool empty = curves.empty();
  m_chartView->setVisible(!empty);
  m_empty->setVisible(empty);
  m_empty->setText(!run ? tr("Select one run in the Runs table to see its test accuracy per "
                             "class, one line per class.")
                        : classAccuracyEmptyText(*run));
}

}  // namespace epsilon::ui
