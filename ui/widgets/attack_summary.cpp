#include "ui/widgets/attack_summary.h"

#include <QCoreApplication>
#include <cmath>

#include "base/io/number_format.h"

namespace epsilon::ui {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("AttackSummary", text);
}

// The accountant's side, always with its δ, accountant and sampling (docs/ARCHITECTURE.md, "Privacy
// honesty").
QString accountantText(double epsilon, const QString& label) {
  if (!std::isfinite(epsilon)) return tr("accountant: no bound (the run adds no noise)");
  return tr("accountant ε ≤ %1 (%2)").arg(formatEpsilon(epsilon), label);
}

// TPRs at low FPR are often below 1%: two decimals.
QString ratePercent(double fraction) {
  return QString::number(100.0 * fraction, 'f', 2) + QLatin1Char('%');
}

}  // namespace

QString attackNumbersText(const AttackRecord& a) {
  return tr("AUC %1 · TPR %2 at FPR 1% · TPR %3 at FPR 0.1% · advantage %4")
      .arg(QString::number(a.auc, 'f', 3), ratePercent(a.tprAt1Percent),
           ratePercent(a.tprAt01Percent), QString::number(a.advantage, 'f', 3));
}

QString epsilonComparisonText(const RunRecord& run) {
  if (const auto& c = run.canaryAudit) {
    return tr("measured ε̂ ≥ %1 (%2% confidence; %3 %4 canaries, %5 of %6 guesses right) vs %7")
        .arg(QString::number(c->epsilonLowerBound, 'f', 2),
             QString::number(c->confidence * 100.0, 'g', 3))
        .arg(c->canaries)
        .arg(c->canaryKind)
        .arg(c->correct)
        .arg(c->guesses)
        .arg(accountantText(c->epsilonUpperBound, c->privacyLabel));
  }
  const EvalPoint* last = run.lastEval();
  return tr("measured ε̂: not audited yet · %1")
      .arg(accountantText(last ? last->epsilon : kNaN, run.privacyLabel));
}

QString attackSummaryHtml(const RunRecord& run, const QString& shownName, const QString& missing) {
  QString html = QStringLiteral("<p><b><span style=\"color:%1\">■</span> %2</b><br>")
                     .arg(run.color.isEmpty() ? QStringLiteral("#000000") : run.color,
                          shownName.toHtmlEscaped());
  if (run.attack) {
    html += attackNumbersText(*run.attack).toHtmlEscaped() +
            tr(" (n = %1 + %2)").arg(run.attack->members).arg(run.attack->nonMembers);
  } else {
    html +=
        QStringLiteral("<i>%1</i>").arg(tr("No attack result: %1").arg(missing).toHtmlEscaped());
  }
  html +=
      QStringLiteral("<br>") + epsilonComparisonText(run).toHtmlEscaped() + QStringLiteral("</p>");
  return html;
}

}  // namespace epsilon::ui
