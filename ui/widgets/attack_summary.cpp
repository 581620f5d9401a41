#include "ui/widgets/attack_summary.h"

#include <QCoreApplication>
#include <cmath>

#include "base/io/lira_record.h"
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

namespace {

const QString kBlock = QStringLiteral("<p style=\"margin-top:1px; margin-bottom:0\">%1</p>");

QString swatchAndName(const AttackSummaryRow& row) {
  return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
      .arg(row.run->color.isEmpty() ? QStringLiteral("#000000") : row.run->color,
           row.name.toHtmlEscaped());
}

// The accountant's ε of a run: the audit's when it has one, else the last evaluation's.
std::pair<double, QString> accountantEpsilon(const RunRecord& run) {
  if (run.canaryAudit) return {run.canaryAudit->epsilonUpperBound, run.canaryAudit->privacyLabel};
  const EvalPoint* last = run.lastEval();
  return {last ? last->epsilon : kNaN, run.privacyLabel};
}

}  // namespace

namespace {

// LiRA's AUC and TPR rows (none when no shown run has LiRA's result), and per run that has it,
// what the stronger attack found, appended to `notes`.
QStringList liraLines(const std::vector<AttackSummaryRow>& rows, QString* notes) {
  const QString cell = QStringLiteral("<td align=\"right\" style=\"padding-left:8px\">%1</td>");
  const QString rowStart = QStringLiteral("<tr><td style=\"white-space:nowrap\">%1</td>");
  QStringList lines{rowStart.arg(tr("LiRA AUC")), rowStart.arg(tr("LiRA TPR at FPR 1%")),
                    rowStart.arg(tr("LiRA TPR at FPR 0.1%"))};
  bool any = false;
  for (const AttackSummaryRow& row : rows) {
    const std::optional<LiraRecord>& lira = row.run->lira;
    any = any || lira;
    lines[0] += cell.arg(lira ? QString::number(lira->attack.auc, 'f', 3) : QStringLiteral("–"));
    lines[1] += cell.arg(lira ? ratePercent(lira->attack.tprAt1Percent) : QStringLiteral("–"));
    lines[2] += cell.arg(lira ? ratePercent(lira->attack.tprAt01Percent) : QStringLiteral("–"));
    if (!lira) continue;
    const AttackRecord* loss = row.run->attack ? &*row.run->attack : nullptr;
    *notes += kBlock.arg(
        QStringLiteral("<b>%1</b>: %2")
            .arg(row.name.toHtmlEscaped(), liraFindingText(*lira, loss).toHtmlEscaped()));
  }
  return any ? lines : QStringList();
}

}  // namespace

QString attackSummaryHtml(const std::vector<AttackSummaryRow>& rows) {
  // A column a run, a row a measure: two runs read whole under the chart of a 1024×768 window,
  // where a paragraph a run took 12 lines and had to be scrolled.
  const QString cell = QStringLiteral("<td align=\"right\" style=\"padding-left:8px\">%1</td>");
  const QString none = QStringLiteral("<td align=\"right\" style=\"padding-left:8px\">–</td>");
  // A measure's name on one line (no-wrap): the runs' columns wrap their names instead.
  const QString rowStart = QStringLiteral("<tr><td style=\"white-space:nowrap\">%1</td>");
  QString names = QStringLiteral("<tr><th></th>");
  QString auc = rowStart.arg(tr("AUC"));
  QString tpr1 = rowStart.arg(tr("TPR at FPR 1%"));
  QString tpr01 = rowStart.arg(tr("TPR at FPR 0.1%"));
  QString advantage = rowStart.arg(tr("advantage"));
  QString measured = rowStart.arg(tr("measured ε̂ ≥"));
  QString promised = rowStart.arg(tr("accountant ε ≤"));
  QStringList labels;  // the accountants' δ, accountant and sampling, each once
  QString notes;       // why a run has no attack result; each canary audit's counts
  for (const AttackSummaryRow& row : rows) {
    const RunRecord& run = *row.run;
    names += QStringLiteral("<th align=\"right\" style=\"padding-left:8px\">%1</th>")
                 .arg(swatchAndName(row));
    if (run.attack) {
      const AttackRecord& a = *run.attack;
      auc += cell.arg(QString::number(a.auc, 'f', 3));
      tpr1 += cell.arg(ratePercent(a.tprAt1Percent));
      tpr01 += cell.arg(ratePercent(a.tprAt01Percent));
      advantage += cell.arg(QString::number(a.advantage, 'f', 3));
    } else {
      for (QString* line : {&auc, &tpr1, &tpr01, &advantage}) *line += none;
      notes += kBlock.arg(QStringLiteral("<b>%1</b>: <i>%2</i>")
                              .arg(row.name.toHtmlEscaped(),
                                   tr("No attack result: %1").arg(row.missing).toHtmlEscaped()));
    }
    measured +=
        cell.arg(run.canaryAudit ? QString::number(run.canaryAudit->epsilonLowerBound, 'f', 2)
                                 : tr("not audited"));
    const auto [epsilon, label] = accountantEpsilon(run);
    if (std::isfinite(epsilon)) {
      if (!labels.contains(label)) labels << label;
      const qsizetype mark = labels.indexOf(label) + 1;
      promised += cell.arg(formatEpsilon(epsilon) + QStringLiteral("*").repeated(mark));
    } else {
      promised += cell.arg(tr("no bound"));  // no noise: nothing is promised
    }
    if (run.canaryAudit)
      notes += kBlock.arg(
          QStringLiteral("<b>%1</b>: %2")
              .arg(row.name.toHtmlEscaped(), epsilonComparisonText(run).toHtmlEscaped()));
  }
  QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\">");
  QStringList lines{names, auc, tpr1, tpr01, advantage};
  lines << liraLines(rows, &notes) << measured << promised;
  for (const QString& line : lines) html += line + QStringLiteral("</tr>");
  html += QStringLiteral("</table>");
  // Every accountant ε says its δ, accountant and sampling (docs/ARCHITECTURE.md, "Privacy
  // honesty"): one mark a label.
  for (qsizetype i = 0; i < labels.size(); ++i)
    html += kBlock.arg(QStringLiteral("<small>%1 %2</small>")
                           .arg(QStringLiteral("*").repeated(i + 1), labels[i].toHtmlEscaped()));
  return html + notes;
}

}  // namespace epsilon::ui
