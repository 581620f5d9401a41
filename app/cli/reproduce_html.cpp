#include "reproduce_html.h"

#include <algorithm>
#include <cmath>

#include "core/privacy/calibration.h"

namespace epsilon::cli {

namespace {

QString esc(const QString& text) {
  return text.toHtmlEscaped();
}

QString percent(double v) {
  return std::isfinite(v) ? QString::number(100.0 * v, 'f', 1) + QLatin1Char('%')
                          : QStringLiteral("–");
}

QString epsilonText(double v) {
  if (std::isnan(v)) return QStringLiteral("–");
  if (std::isinf(v)) return QStringLiteral("∞ (no privacy)");
  return QString::number(v, v < 100 ? 'f' : 'g', v < 100 ? 2 : 4);
}

QString anchorOf(const ui::Preset& p) {
  return QStringLiteral("preset-") + p.name;
}

QString duration(double seconds) {
  const int s = static_cast<int>(std::lround(seconds));
  return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                 : QStringLiteral("%1 s").arg(s);
}

const char* kStyle = R"(
body { font-family: sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.7em; } h2 { margin-top: 2.2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; border: 1px solid #ddd; margin: .5em 0; }
.same { color: #17672b; font-weight: bold; } .different { color: #a0241b; font-weight: bold; }
.says { background: #f6f6f0; border-left: 4px solid #c9c08a; padding: .5em 1em; }
.note { color: #666; font-size: .9em; }
.check { margin: .2em 0 .2em 1.2em; } .detail { color: #555; font-size: .9em; }
)";

void writeRunTable(QString& h, const PresetOutcome& o) {
  const bool tanh = std::any_of(o.measured.begin(), o.measured.end(), [](const MeasuredRun& m) {
    return std::isfinite(m.nominalEpsilon);
  });
  const bool accuracy = std::any_of(o.measured.begin(), o.measured.end(),
                                    [](const MeasuredRun& m) { return m.hasAccuracy; });
  h += "<table><tr><th>run</th>";
  if (accuracy) h += "<th>final accuracy</th><th>best accuracy</th>";
  h += "<th>ε (honest bound)</th>";
  if (tanh) h += "<th>nominal ε (not a DP guarantee)</th>";
  h += "<th>how ε was computed</th><th>status</th><th>time</th></tr>\n";
  for (std::size_t i = 0; i < o.measured.size(); ++i) {
    const MeasuredRun& m = o.measured[i];
    const train::RunResult& r = o.results[i];
    const train::ProgressEvent* last = r.history.empty() ? nullptr : &r.history.back();
    QString how =
        QStringLiteral("δ = %1 · %2")
            .arg(QString::number(r.config.privacy.delta, 'g', 3),
                 QString::fromLatin1(privacy::accountantKindName(r.config.privacy.accountant))
                     .toUpper());
    if (last)
      how += QStringLiteral(" · %1 · %2")
                 .arg(QString::fromUtf8(privacy::samplingWords(last->privacy.sampling)),
                      QString::fromUtf8(privacy::statusWords(last->privacy.status)));
    h += "<tr><td>" + esc(m.label) + "</td>";
    if (accuracy)
      h += "<td class=num>" + percent(m.finalAccuracy) + "</td><td class=num>" +
           percent(m.bestAccuracy) + "</td>";
    h += "<td class=num>" + esc(epsilonText(m.finalEpsilon)) + "</td>";
    if (tanh) h += "<td class=num>" + esc(epsilonText(m.nominalEpsilon)) + "</td>";
    h += "<td>" + esc(how) + "</td><td>" + esc(m.status);
    if (r.status != train::RunStatus::Done && !r.message.empty())
      h += ": " + esc(QString::fromStdString(r.message));
    h += "</td><td class=num>" + QString::number(r.elapsedSeconds, 'f', 1) + " s</td></tr>\n";
  }
  h += "</table>\n";
}

void writeVerdicts(QString& h, const PresetOutcome& o) {
  for (const FigureVerdict& f : o.verdicts) {
    const QString word = verdictText(f.same);
    h += QStringLiteral(
             "<div class=\"verdict\" data-preset=\"%1\" data-figure=\"%2\" data-verdict=\"%3\">\n")
             .arg(esc(o.preset.name), esc(f.figure), word);
    h += QStringLiteral("<p><b>%1:</b> <span class=\"%2\">%3</span></p>\n")
             .arg(esc(f.figure), f.same ? QStringLiteral("same") : QStringLiteral("different"),
                  word);
    for (const TrendVerdict& c : f.checks) {
      h += QStringLiteral(
               "<p class=check>%1 Document: %2.<br><span class=detail>EpsilonLab: %3</span></p>\n")
               .arg(c.same ? QStringLiteral("✔") : QStringLiteral("✘"), esc(c.statement),
                    esc(c.detail));
    }
    h += "</div>\n";
  }
}

void writeSection(QString& h, const PresetOutcome& o) {
  const ui::Preset& p = o.preset;
  h += QStringLiteral("<section id=\"%1\">\n<h2>%2</h2>\n").arg(anchorOf(p), esc(p.title));
  h += "<p class=note>Preset <code>" + esc(p.name) + "</code> (" + esc(ui::presetKindName(p.kind)) +
       ") · Source: " + esc(p.source) + "</p>\n";
  h += "<p><b>Reproduces:</b> " + esc(p.reproduces) + "</p>\n";
  h += "<p class=says><b>The document reports:</b> " + esc(p.documentSays) + "</p>\n";
  h += "<p><b>Data:</b> " + esc(o.dataset) +
       QStringLiteral(", %1 training examples").arg(o.trainSize);
  if (!o.datasetNote.isEmpty()) h += " — " + esc(o.datasetNote);
  h += "</p>\n";
  if (!o.error.isEmpty()) h += "<p class=different>Could not complete: " + esc(o.error) + "</p>\n";
  for (const QString& image : o.images)
    h += "<img src=\"" + esc(image) + "\" alt=\"" + esc(p.title) + "\">\n";
  h += "<h3>EpsilonLab's numbers</h3>\n";
  writeRunTable(h, o);
  if (!o.summaryFile.isEmpty())
    h += "<p class=note>As CSV: <a href=\"" + esc(o.summaryFile) + "\">" + esc(o.summaryFile) +
         "</a></p>\n";
  h += "<h3>Verdict</h3>\n";
  writeVerdicts(h, o);
  h += "</section>\n";
}

}  // namespace

QString verdictText(bool same) {
  return same ? QStringLiteral("same trend") : QStringLiteral("different trend");
}

QByteArray reportHtml(const std::vector<PresetOutcome>& outcomes, const ReportInfo& info) {
  QString h = QStringLiteral(
                  "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                  "<title>EpsilonLab — reproduction of the seed documents</title>\n<style>") +
              QString::fromLatin1(kStyle) + "</style></head><body>\n";
  h += "<h1>EpsilonLab re-runs the experiments of its seed documents</h1>\n";
  int runs = 0, same = 0, figures = 0;
  for (const auto& o : outcomes) {
    runs += static_cast<int>(o.results.size());
    for (const auto& f : o.verdicts) figures += 1, same += f.same ? 1 : 0;
  }
  const QString where =
      info.clusterJobs.isEmpty()
          ? QStringLiteral("on %1 cores (%2 at a time)")
                .arg(info.cores)
                .arg(info.jobs > 0 ? QStringLiteral("%1 runs").arg(info.jobs)
                                   : QStringLiteral("one run per core"))
          : QStringLiteral(
                "on a Slurm cluster (job %1), from the first submission to the last "
                "run file")
                .arg(esc(info.clusterJobs.join(QStringLiteral(", "))));
  h += QStringLiteral(
           "<p>%1 run: %2 presets, %3 trainings or accountant curves, finished %4. "
           "Wall time <b>%5</b> %6. EpsilonLab %7.</p>\n")
           .arg(info.quick ? QStringLiteral("A <b>quick</b>") : QStringLiteral("A <b>full</b>"))
           .arg(outcomes.size())
           .arg(runs)
           .arg(info.finished.toString(Qt::ISODate), duration(info.wallSeconds), where,
                esc(info.version));
  h += "<p class=note>Command: <code>" + esc(info.command) + "</code>. ";
  if (info.quick)
    h += "Quick mode trains on 4,000-example subsets for 2–3 epochs: it shows that every preset "
         "runs, not the "
         "documents' results; read the verdicts of the full run (docs/reproduction/). ";
  h += "A verdict compares the <i>trend</i> the document reports (an ordering, a best value, a "
       "direction) with "
       "EpsilonLab's measured numbers; absolute numbers differ because the data set sizes, epochs "
       "and "
       "architectures differ as each section says. Every ε is an (ε, δ) bound with its accountant "
       "and sampling "
       "assumption; the tanh filter's paper-style ε is shown separately as nominal, not a "
       "guarantee.</p>\n";
  h += QStringLiteral(
           "<h2>Verdicts: %1 of %2 figures show the same "
           "trend</h2>\n<table><tr><th>figure</th><th>preset</th><th>verdict</th></tr>\n")
           .arg(same)
           .arg(figures);
  for (const auto& o : outcomes)
    for (const auto& f : o.verdicts)
      h += QStringLiteral(
               "<tr><td>%1</td><td><a href=\"#%2\">%3</a><br><span class=note>%4</span></td><td "
               "class=\"%5\">%6</td></tr>\n")
               .arg(esc(f.figure), anchorOf(o.preset), esc(o.preset.title), esc(o.preset.source),
                    f.same ? QStringLiteral("same") : QStringLiteral("different"),
                    verdictText(f.same));
  h += "</table>\n";
  for (const auto& o : outcomes) writeSection(h, o);
  h += "</body></html>\n";
  return h.toUtf8();
}

}  // namespace epsilon::cli
