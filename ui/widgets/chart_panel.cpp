#include "ui/widgets/chart_panel.h"

#include <QActionGroup>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QTimer>
#include <QToolTip>
#include <QXYSeries>

#include "base/io/number_format.h"
#include "base/io/run_conversion.h"
#include "base/session/run_model.h"
#include "ui/charts/drawn_text.h"
#include "ui/charts/run_legend.h"
#include "ui/widgets/coalesced_refresh.h"

namespace epsilon::ui {

namespace {
constexpr int kRedrawIntervalMs = 100;  // ≤ 10 redraws per second (docs/ARCHITECTURE.md)
constexpr int kMaxRedrawDelayMs = 250;  // waiting for the readout, the charts stay this live
}  // namespace

ChartPanel::ChartPanel(RunModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_charts(new RunCharts(this)),
      m_redraw(new CoalescedRefresh(this, kRedrawIntervalMs, [this](bool live) { redraw(live); })),
      m_legend(new QLabel(this)) {
  m_redraw->holdWhile([this] { return m_model->arriving(); });  // an open draws once, at its end
  connect(m_charts, &RunCharts::seriesCreated, this, &ChartPanel::connectHover);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(2);
  for (ChartKind kind : kAllChartKinds) {
    const int k = static_cast<int>(kind);
    auto* view = new QChartView(m_charts->chart(kind), this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(180, 134);  // four of them fit a 1024×720 window beside the docks
    view->setObjectName(chartFileStem(kind));
    m_views[k] = view;
    grid->addWidget(view, k / 2, k % 2);
  }
  // The grid's one legend: full names, wrapped, never elided (run_legend.h).
  m_legend->setObjectName(QStringLiteral("runLegend"));
  m_legend->setWordWrap(true);
  m_legend->setTextFormat(Qt::RichText);
  m_legend->setAlignment(Qt::AlignCenter);
  grid->addWidget(m_legend, 2, 0, 1, 2);
  connect(model, &RunModel::historyChanged, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::runsChanged, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::modelReset, this, &ChartPanel::scheduleRedraw);
  connect(model, &RunModel::runChanged, this, &ChartPanel::scheduleRedraw);
}

void ChartPanel::scheduleRedraw() {
  m_redraw->schedule();
}

void ChartPanel::redrawNow() {
  m_redraw->now();
}

int ChartPanel::redrawCount() const {
  return m_redraw->count();
}

void ChartPanel::deferRedrawWhile(std::function<bool()> busy) {
  m_redraw->deferWhile(std::move(busy), kMaxRedrawDelayMs);
}

void ChartPanel::releaseRedraw() {
  m_redraw->release();
}

void ChartPanel::redraw(bool live) {
  // Live, one chart a turn (its scene's work follows in the next), so a frame due meanwhile
  // is painted between them: the whole grid at once held the GUI thread for about 10 ms.
  m_nextChart = 0;
  drawNextChart();
  while (!live && m_nextChart < kChartKindCount) drawNextChart();
}

void ChartPanel::drawNextChart() {
  const auto kind = static_cast<ChartKind>(m_nextChart++);
  m_charts->update(m_model->runs(), kind);
  if (m_nextChart < kChartKindCount) {
    QTimer::singleShot(0, this, [this, generation = m_redraw->count()] {
      if (generation == m_redraw->count() && m_nextChart < kChartKindCount) drawNextChart();
    });
    return;
  }
  // The legend is laid out again only when it changed (names, colours, runs shown), not at
  // every redraw of a training run. Under the names, what the charts' ε assume (δ,
  // accountant, sampling): the privacy readout that also says it is hidden in the Focus view.
  QString legend = m_charts->legendHtml();
  if (!legend.isEmpty())
    legend += QStringLiteral("<div align=\"center\"><small>%1</small></div>")
                  .arg(drawnText(privacyCaption(m_model->runs())).toHtmlEscaped());
  if (legend != m_legend->text()) {
    m_legend->setText(legend);
    m_legend->setVisible(!legend.isEmpty());
    fitLegend();
  }
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitLegend();
}

void ChartPanel::fitLegend() {
  int size = m_charts->legendPointSize();
  const QString html = m_legend->text();
  if (!html.isEmpty() && width() > 1)
    while (size > 8 && runLegendHeight(html, width(), size) > height() / 5.0) --size;
  if (m_legend->font().pointSize() == size) return;
  QFont font = m_legend->font();
  font.setPointSize(size);
  m_legend->setFont(font);
}

QMenu* ChartPanel::epsilonScaleMenu(QWidget* parent) {
  return scaleMenu(
      tr("ε axes"), tr("Automatic (logarithmic when ε spans more than ×20)"),
      m_charts->epsilonScale(),
      [this](RunCharts::AxisScale scale) { m_charts->setEpsilonScale(scale); }, parent);
}

QMenu* ChartPanel::lossScaleMenu(QWidget* parent) {
  return scaleMenu(
      tr("Loss axis"), tr("Automatic (logarithmic when a loss rises 20× above its start)"),
      m_charts->lossScale(), [this](RunCharts::AxisScale scale) { m_charts->setLossScale(scale); },
      parent);
}

QMenu* ChartPanel::scaleMenu(const QString& title, const QString& automatic,
                             RunCharts::AxisScale current,
                             const std::function<void(RunCharts::AxisScale)>& choose,
                             QWidget* parent) {
  auto* menu = new QMenu(title, parent);
  auto* group = new QActionGroup(menu);
  const std::pair<QString, RunCharts::AxisScale> choices[] = {
      {automatic, RunCharts::AxisScale::Automatic},
      {tr("Linear"), RunCharts::AxisScale::Linear},
      {tr("Logarithmic"), RunCharts::AxisScale::Logarithmic}};
  for (const auto& [text, scale] : choices) {
    QAction* action = menu->addAction(text, this, [this, choose, scale = scale] {
      choose(scale);
      redrawNow();
    });
    action->setCheckable(true);
    action->setChecked(scale == current);
    group->addAction(action);
  }
  return menu;
}

void ChartPanel::setPresentationMode(bool on) {
  m_charts->setPresentationMode(on);
  fitLegend();
}

void ChartPanel::setFontStep(int points) {
  m_charts->setFontStep(points);
  fitLegend();
}

void ChartPanel::connectHover(QXYSeries* series, int runId, ChartKind kind) {
  connect(series, &QXYSeries::hovered, this, [this, runId, kind](const QPointF& point, bool state) {
    if (!state) {
      QToolTip::hideText();
      return;
    }
    const RunRecord* run = m_model->run(runId);
    if (!run) return;
    QString text;
    switch (kind) {
      case ChartKind::AccuracyVsEpoch:
        text = tr("%1\nepoch %2: test accuracy %3%")
                   .arg(run->name, formatNumber(point.x()), formatNumber(point.y(), 4));
        break;
      case ChartKind::EpsilonVsEpoch:
        text = tr("%1\nepoch %2: ε = %3")
                   .arg(run->name, formatNumber(point.x()), formatEpsilon(point.y()));
        break;
      case ChartKind::AccuracyVsEpsilon:
        text = tr("%1\nε = %2: test accuracy %3%")
                   .arg(run->name, formatEpsilon(point.x()), formatNumber(point.y(), 4));
        break;
      case ChartKind::LossVsStep:
        text = tr("%1\nstep %2: loss %3")
                   .arg(run->name, formatNumber(point.x(), 6), formatNumber(point.y(), 4));
        break;
    }
    if (!run->privacyLabel.isEmpty() && kind != ChartKind::LossVsStep)
      text += QLatin1Char('\n') + run->privacyLabel;
    QToolTip::showText(QCursor::pos(), text);
  });
}

}  // namespace epsilon::ui
