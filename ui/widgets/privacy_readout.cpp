#include "ui/widgets/privacy_readout.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "base/io/number_format.h"
#include "core/privacy/privacy_statement.h"
#include "core/train/config_compare.h"
#include "ui/charts/drawn_text.h"
#include "ui/widgets/steady_label.h"

namespace epsilon::ui {

namespace {
// A preview back sooner than this never shows "computing" (a PLD preview takes a few ms; the
// note would only flash and lay the readout out twice per frame while a slider moves).
constexpr int kComputingNoteDelayMs = 200;
}  // namespace

PrivacyReadout::PrivacyReadout(QWidget* parent)
    : QWidget(parent),
      m_epsilon(new SteadyLabel(this)),
      m_label(new SteadyLabel(this)),
      m_nominal(new SteadyLabel(this)),
      m_pca(new SteadyLabel(this)),
      m_sentence(new SteadyLabel(this)),
      m_chartView(new QChartView(this)),
      m_curve(new QLineSeries),
      m_nominalCurve(new QLineSeries),
      m_x(new QValueAxis),
      m_y(new QValueAxis),
      m_computingNote(new QTimer(this)) {
  setPresentationMode(false);
  m_computingNote->setSingleShot(true);
  m_computingNote->setInterval(kComputingNoteDelayMs);
  connect(m_computingNote, &QTimer::timeout, this, [this] {
    if (!m_request.busy() || !m_asked) return;
    m_label->setText(
        tr("computing ε with the %1 accountant…")
            .arg(QString::fromUtf8(privacy::accountantWords(m_asked->config.privacy.accountant))));
  });
  // No minimum width of its own: its texts wrap to the dock's (a minimum of 330 px was wider
  // than the dock of a 1024-pixel window and cut every line's end).
  m_epsilon->label()->setObjectName(QStringLiteral("epsilonValue"));
  m_epsilon->label()->setToolTip(tr(
      "The privacy budget the run will have spent at its end: (ε, δ)-differential privacy for the "
      "whole training set (Dwork et al. 2006). Smaller is more private."));
  m_label->label()->setObjectName(QStringLiteral("epsilonDetails"));  // δ, accountant, sampling
  m_label->setWordWrap(true);
  m_nominal->setWordWrap(true);
  m_pca->label()->setObjectName(QStringLiteral("pcaLine"));
  m_pca->setWordWrap(true);
  m_pca->label()->setToolTip(tr(
      "pca-mlp's input projection is computed from the data with Gaussian noise (Abadi et al. "
      "2016, "
      "§5) and released once before training: one more DP mechanism, composed with the steps. The "
      "ε above includes it; this is what it costs on its own."));
  m_pca->hide();
  m_sentence->label()->setObjectName(QStringLiteral("attackerSentence"));
  m_sentence->setWordWrap(true);
  m_sentence->label()->setToolTip(
      tr("From the hypothesis-testing view of DP (Kairouz et al. 2015; Dong, Roth & Su 2022): "
         "TPR ≤ min(e^ε·FPR + δ, 1 − e^(−ε)(1 − δ − FPR))."));

  buildChart();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_epsilon);
  layout->addWidget(m_label);
  layout->addWidget(m_nominal);
  layout->addWidget(m_pca);
  layout->addWidget(m_sentence);
  layout->addWidget(m_chartView, 1);
}

void PrivacyReadout::buildChart() {
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->setBackgroundRoundness(0);
  chart->addSeries(m_curve);
  chart->addSeries(m_nominalCurve);
  chart->addAxis(m_x, Qt::AlignBottom);
  chart->addAxis(m_y, Qt::AlignLeft);
  for (QLineSeries* s : {m_curve, m_nominalCurve}) {
    s->attachAxis(m_x);
    s->attachAxis(m_y);
  }
  QPen nominalPen(QColor(150, 150, 150));
  nominalPen.setStyle(Qt::DashLine);
  nominalPen.setWidthF(1.5);
  m_nominalCurve->setPen(nominalPen);
  QPen curvePen(QColor(0, 114, 178));
  curvePen.setWidthF(2.5);
  m_curve->setPen(curvePen);
  m_x->setTitleText(tr("epoch"));
  m_y->setTitleText(tr("ε"));
  m_x->setLabelFormat(QStringLiteral("%.3g"));
  m_y->setLabelFormat(QStringLiteral("%.3g"));
  m_chartView->setChart(chart);
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->setMinimumHeight(150);
  m_chartView->setToolTip(
      tr("ε spent as training goes on: every step composes one more subsampled Gaussian "
         "mechanism (grey dashes: the tanh filter's nominal figure)."));
}

void PrivacyReadout::setPresentationMode(bool on) {
  QFont big = font();
  big.setPointSize(on ? 34 : 22);
  big.setBold(true);
  m_epsilon->label()->setFont(big);
}

QString PrivacyReadout::epsilonText() const {
  return m_epsilon->text();
}
QString PrivacyReadout::pcaText() const {
  return m_pca->text();
}

QString PrivacyReadout::subjectText() const {
  return m_subject;
}

void PrivacyReadout::setTargetEpsilon(std::optional<double> target) {
  if (target == m_target) return;
  m_target = target;
  if (m_preview.valid) showEpsilon();  // only the digits that tell its side may change
}

void PrivacyReadout::setInput(const PrivacyPreviewInput& input, const QString& runName) {
  // Short enough for the dock's title at 1024 pixels in presentation mode; the title's tooltip
  // says how to switch between the two.
  const QString subject =
      runName.isEmpty() ? tr("panel settings") : tr("run “%1”").arg(drawnText(runName));
  if (subject != m_subject) {
    m_subject = subject;
    Q_EMIT subjectChanged(m_subject);
  }
  // The panel's settings as last asked: that statement is shown or on its way. (A run's own
  // sizes are read from its data set, which may have changed: asked again.)
  if (m_asked && !input.sizesFromConfig && !m_asked->sizesFromConfig &&
      m_asked->config == input.config && m_asked->trainSize == input.trainSize &&
      m_asked->parameterCount == input.parameterCount)
    return;
  m_asked = input;
  if (previewIsInstant(input.config) && !input.sizesFromConfig) {
    m_request.cancel();  // an older, slower preview must not overwrite this one
    m_computingNote->stop();
    show(computePrivacyPreview(input));
    return;
  }
  m_computingNote->start();
  m_request.start<PrivacyPreview>(
      JobKind::Preview, this, [input] { return computePrivacyPreview(input); },
      [this](const PrivacyPreview& preview) { show(preview); });
}

void PrivacyReadout::show(const PrivacyPreview& p) {
  m_computingNote->stop();
  m_preview = p;
  if (!p.valid) {
    m_epsilon->setText(QStringLiteral("ε = ?"));
    m_label->setText(
        QStringLiteral("<span style='color:#c00'>%1</span>").arg(p.error.toHtmlEscaped()));
    m_nominal->clear();
    showPca(p);  // hides the line: an invalid preview has none
    m_sentence->clear();
    m_curve->clear();
    m_nominalCurve->clear();
    Q_EMIT previewUpdated();
    return;
  }
  showEpsilon();
  QString details = p.label();
  if (p.order) details += tr(" · order α = %1").arg(formatNumber(*p.order));
  details += tr("<br><small>q = %1, %2 steps, effective σ = %3 · %4</small>")
                 .arg(formatNumber(p.sampleRate), QString::number(p.steps),
                      formatNumber(p.effectiveNoiseMultiplier), p.status.toHtmlEscaped());
  if (!p.isGuarantee && std::isfinite(p.epsilon))
    details = QStringLiteral("<span style='color:#b35900'>") + details + QStringLiteral("</span>");
  m_label->setText(details);
  if (p.nominalEpsilon) {
    m_nominal->setText(tr("<span style='color:#b00'>Nominal ε = %1 — not a DP "
                          "guarantee</span><br><small>The paper "
                          "treats the tanh filter's sensitivity as c; its true L2 sensitivity is "
                          "c·√P, which gives the "
                          "honest ε above.</small>")
                           .arg(formatEpsilon(*p.nominalEpsilon)));
    m_nominal->show();
  } else {
    m_nominal->clear();
    m_nominal->hide();
  }
  showPca(p);
  m_sentence->setText(p.attackerSentence());
  showCurves(p);
  Q_EMIT previewUpdated();
}

void PrivacyReadout::showEpsilon() {
  m_epsilon->setText(QStringLiteral("ε = %1").arg(
      formatEpsilonAgainst(m_preview.epsilon, m_target.value_or(0.0))));
}

// The curves and their axes change only when a point does: replacing a series lays the chart
// out again even when every point is the same.
void PrivacyReadout::showCurves(const PrivacyPreview& p) {
  QList<QPointF> points, nominal;
  double xMax = 1, yMax = 0;
  for (const auto& [x, y] : p.curve) {
    if (!std::isfinite(y)) continue;
    points.append(QPointF(x, y));
    xMax = std::max(xMax, x);
    yMax = std::max(yMax, y);
  }
  for (const auto& [x, y] : p.nominalCurve) {
    if (!std::isfinite(y)) continue;
    nominal.append(QPointF(x, y));
    yMax = std::max(yMax, y);
  }
  if (points == m_curve->points() && nominal == m_nominalCurve->points()) return;
  m_curve->replace(points);
  m_nominalCurve->replace(nominal);
  // An axis keeps its range while the curves fit it and fill at least half of it: a new range
  // lays the whole chart out again, and a dragged "Fix ε" moves ε by a little at each preview.
  const auto fits = [](const QValueAxis* axis, double top) {
    return axis->min() == 0 && top <= axis->max() && top >= 0.5 * axis->max();
  };
  if (!fits(m_x, xMax)) {
    m_x->setRange(0, xMax);
    m_x->applyNiceNumbers();
  }
  if (!fits(m_y, yMax)) {
    m_y->setRange(0, yMax > 0 ? yMax * 1.05 : 1.0);
    m_y->applyNiceNumbers();
  }
}

void PrivacyReadout::showPca(const PrivacyPreview& p) {
  if (p.pcaLine.isEmpty()) {
    m_pca->clear();
    m_pca->hide();
    return;
  }
  QString text = p.pcaLine.toHtmlEscaped();
  if (p.pcaEpsilon)
    text += tr("<br><small>costs ε = %1 on its own (same δ and accountant); included in the ε "
               "above</small>")
                .arg(formatEpsilon(*p.pcaEpsilon));
  m_pca->setText(text);
  m_pca->show();
}

}  // namespace epsilon::ui
