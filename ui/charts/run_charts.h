// The four charts every run is drawn in — test accuracy vs epoch, ε vs epoch, accuracy vs ε
// (the privacy–utility frontier) and training loss vs step — kept in sync with a list of
// runs. The same object feeds the GUI's chart views and the CLI's headless --plot, so an
// exported slide looks like the window.
#pragma once

#include <QFont>
#include <QObject>
#include <QSizeF>
#include <QStringList>
#include <array>
#include <map>
#include <optional>
#include <vector>

#include "base/io/run_record.h"

QT_BEGIN_NAMESPACE
class QChart;
class QXYSeries;
class QAbstractAxis;
class QValueAxis;
class QLogValueAxis;
class QPainter;
class QRectF;
QT_END_NAMESPACE

namespace epsilon::ui {

enum class ChartKind { AccuracyVsEpoch = 0, EpsilonVsEpoch, AccuracyVsEpsilon, LossVsStep };
inline constexpr int kChartKindCount = 4;
inline constexpr std::array<ChartKind, kChartKindCount> kAllChartKinds = {
    ChartKind::AccuracyVsEpoch, ChartKind::EpsilonVsEpoch, ChartKind::AccuracyVsEpsilon,
    ChartKind::LossVsStep};

QString chartTitle(ChartKind kind);
QString chartFileStem(ChartKind kind);  // "accuracy-vs-epoch", ...
// The chart's titles, longest first: a chart shows the longest that fits its width.
QStringList chartTitles(ChartKind kind);
// Draws one chart scaled into `target` (the chart may or may not be shown in a view).
void renderChart(QChart* chart, QPainter& painter, const QRectF& target);

class RunCharts : public QObject {
  Q_OBJECT
 public:
  explicit RunCharts(QObject* parent = nullptr);
  ~RunCharts() override;

  QChart* chart(ChartKind kind) const { return m_charts[static_cast<int>(kind)]; }

  // Brings every chart up to date with `runs` (hidden runs are removed): series are reused
  // and their points replaced in one call each, then the axes fit the data.
  // With `only`, that chart alone (the others keep their points until their turn): the chart
  // panel spreads a live redraw over four event-loop turns, so none holds the GUI thread long.
  // What the four charts share — which runs are drawn (thinned past kMaxDrawnRuns), the
  // legend, the log-axis choices — is worked out once per redraw: by a whole update, at a
  // redraw's first chart (kAllChartKinds.front()), and whenever the runs' ids or visibility
  // differ from those it was worked out for; the other charts of a redraw reuse it.
  void update(const std::vector<RunRecord>& runs, std::optional<ChartKind> only = std::nullopt);
  // How many times that shared work was done (tests count it).
  int sharedWorkCount() const { return m_shared.count; }
  // Large fonts and thick lines for a projector.
  void setPresentationMode(bool on);
  bool presentationMode() const { return m_presentation; }
  // Points added to every font of the charts and the legend (View › Chart text size).
  void setFontStep(int points);
  int fontStep() const { return m_fontStep; }
  // The tick labels' size of the mode and step: other charts (the Attack tab's) take it.
  int labelPointSize() const { return (m_presentation ? 12 : 9) + m_fontStep; }
  // The ε axes (ε vs epoch, accuracy vs ε): automatic is logarithmic when the runs' final ε
  // values span more than a factor kLogEpsilonSpan, linear otherwise.
  enum class AxisScale { Automatic, Linear, Logarithmic };
  using EpsilonScale = AxisScale;
  static constexpr double kLogEpsilonSpan = 20.0;
  void setEpsilonScale(AxisScale scale) { m_epsilonScale = scale; }  // applies at next update()
  AxisScale epsilonScale() const { return m_epsilonScale; }
  bool epsilonAxesLogarithmic() const { return m_log[static_cast<int>(ChartKind::EpsilonVsEpoch)]; }
  // The loss axis: automatic is logarithmic when a run's loss rises above kLogLossRise times
  // the largest first loss of the runs (a network blown up by noise — σ 8 with momentum 0.9 on
  // xor reaches thousands of nats — would flatten every other curve to the floor).
  static constexpr double kLogLossRise = 20.0;
  void setLossScale(AxisScale scale) { m_lossScale = scale; }  // applies at the next update()
  AxisScale lossScale() const { return m_lossScale; }
  bool lossAxisLogarithmic() const { return m_log[static_cast<int>(ChartKind::LossVsStep)]; }
  // A subtitle for exports ("δ = 1e-5 · RDP · Poisson sampling").
  void setCaption(const QString& caption);

  // Number of points the run's series holds in a chart (tests count them).
  int pointCount(ChartKind kind, int runId) const;

  // Draws all four charts in a 2×2 grid into `target` with the runs' legend below them (used
  // for grid exports and --plot); renderOne draws one chart with the legend.
  void renderGrid(QPainter& painter, const QRectF& target);
  void renderOne(ChartKind kind, QPainter& painter, const QRectF& target);

  // The grid's one legend (run_legend.h) for the runs of the last update(), and its font size.
  QString legendHtml() const { return m_legendHtml; }
  int legendPointSize() const { return (m_presentation ? 13 : 9) + m_fontStep; }

 Q_SIGNALS:
  // A series was made for a run (the chart panel connects its hover tooltip).
  void seriesCreated(QXYSeries* series, int runId, ChartKind kind);

 private:
  struct RunSeries {
    std::array<QXYSeries*, kChartKindCount> line{};
    // The run's last point in each chart, a large dot over every line: runs that differ only
    // in length share one curve and are told apart by where their dots sit (lesson 4).
    std::array<QXYSeries*, kChartKindCount> end{};
  };
  // What the four charts of one redraw share (update() above).
  struct SharedWork {
    std::vector<std::pair<int, bool>> runs;  // the ids and visibility it was worked out for
    std::vector<char> drawn;                 // per run of `runs`: drawn (thinning keeps it)
    bool logEpsilon = false;
    bool logLoss = false;
    int count = 0;
  };
  void shareWork(const std::vector<RunRecord>& runs, bool redo);
  void applyStyle();
  RunSeries& seriesFor(const RunRecord& run);  // its lines, made when new
  void addDots(int runId, RunSeries& series);
  void addNewSeries(const std::vector<const RunRecord*>& fresh);
  void removeRun(int id);
  void showRun(const RunRecord& run, RunSeries& series, ChartKind kind);  // its points in a chart
  void fitAxes(std::optional<ChartKind> only = std::nullopt);
  // run_charts_log.cpp: the linear or logarithmic ε and loss axes.
  // Of the runs marked in `drawn` (SharedWork).
  bool wantLogEpsilon(const std::vector<RunRecord>& runs, const std::vector<char>& drawn) const;
  bool wantLogLoss(const std::vector<RunRecord>& runs, const std::vector<char>& drawn) const;
  void useLogAxis(ChartKind kind, bool on);
  void fitLogAxes();
  QAbstractAxis* axisInUse(ChartKind kind, Qt::Orientation orientation) const;
  QList<QPointF> onScale(QList<QPointF> points, ChartKind kind) const;  // drops ≤ 0 on a log axis
  // run_charts_fit.cpp: titles, axis titles and tick labels that fit the chart's size.
  void fitTexts(ChartKind kind);
  void fitTicks(ChartKind kind);
  QSizeF fitRoom(ChartKind kind);

  std::array<QChart*, kChartKindCount> m_charts{};
  std::array<QValueAxis*, kChartKindCount> m_xAxes{};
  std::array<QValueAxis*, kChartKindCount> m_yAxes{};
  std::map<int, RunSeries> m_series;
  bool m_presentation = false;
  int m_fontStep = 0;
  QString m_legendHtml;
  SharedWork m_shared;
  QString m_caption;
  QFont m_labelsFont;  // the tick labels' font of the mode; a tiny chart shrinks it (fitTicks)
  AxisScale m_epsilonScale = AxisScale::Automatic;
  AxisScale m_lossScale = AxisScale::Automatic;
  // The logarithmic axis each chart can swap in (ε vs epoch: y; accuracy vs ε: x; loss: y),
  // and whether it is in use.
  std::array<QLogValueAxis*, kChartKindCount> m_logAxes{};
  std::array<bool, kChartKindCount> m_log{};
  // What each chart's texts were last fitted to (fitRoom): the smallest plot area seen while
  // the chart's size, axes, ranges, caption and mode stayed the same.
  struct FitMemo {
    QSizeF chartSize;
    const QAbstractAxis* horizontal = nullptr;
    const QAbstractAxis* vertical = nullptr;
    std::array<double, 4> ranges{};
    QString caption;
    bool presentation = false;
    int fontStep = 0;
    QSizeF room;
  };
  std::array<FitMemo, kChartKindCount> m_fitMemo{};
};

}  // namespace epsilon::ui
