// `epsilonlab-cli presets`: lists the built-in presets (what each reproduces, from which
// document), as a table or as JSON; --show prints one preset's runs without running them.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>

#include "cli_options.h"
#include "core/data/registry.h"
#include "experiment_json.h"
#include "base/io/preset_file.h"

namespace epsilon::cli {

namespace {

QJsonObject presetToJson(const ui::Preset& p) {
  QJsonArray figures;
  for (const auto& t : p.trends)
    if (!figures.contains(t.figure)) figures.append(t.figure);
  return QJsonObject{{"name", p.name},
                     {"title", p.title},
                     {"source", p.source},
                     {"kind", ui::presetKindName(p.kind)},
                     {"reproduces", p.reproduces},
                     {"dataset_preference", QJsonArray::fromStringList(p.datasetPreference)},
                     {"figures", figures},
                     {"file", p.file}};
}

// One line per run of the preset: its index, label and resolved experiment.
int showPreset(const QString& name, bool quick) {
  const ui::Preset preset = ui::findPreset(name);
  QString note;
  const QString dataset = ui::chooseDataset(preset, &note);
  const ui::PresetPlan plan = ui::planPreset(preset, dataset, quick);  // as the GUI runs it
  QJsonObject head = presetToJson(preset);
  if (!note.isEmpty()) head.insert("dataset_note", note);
  printJsonLine(head);
  for (const auto& point : plan.points)
    printJsonLine(QJsonObject{{"index", point.index},
                              {"label", QString::fromStdString(point.label)},
                              {"experiment", experimentToJson(point.config)}});
  return kExitOk;
}

int runPresets(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Lists the built-in presets: experiments from the seed documents (the report's figures,\n"
      "Abadi et al.'s privacy levels, Amian's tanh filter, MindArmour's LeNet-5) and teaching\n"
      "presets. Run one with `epsilonlab-cli sweep --preset NAME`, all with `reproduce`."));
  parser.addOptions({
      {QStringLiteral("json"), QStringLiteral("Print one JSON object per preset.")},
      {QStringLiteral("show"),
       QStringLiteral("Print the runs of one preset (name or file) as JSON lines."),
       QStringLiteral("NAME")},
      {QStringLiteral("quick"), QStringLiteral("With --show: the runs of --quick.")},
  });
  if (const auto exit = parseOrExplain(parser, arguments, QStringLiteral("presets"))) return *exit;
  if (parser.isSet(QStringLiteral("show")))
    return showPreset(parser.value(QStringLiteral("show")), parser.isSet(QStringLiteral("quick")));
  if (parser.isSet(QStringLiteral("quick"))) throw UsageError("--quick: only with --show");

  const auto& presets = ui::builtinPresets();
  if (parser.isSet(QStringLiteral("json"))) {
    for (const auto& p : presets) printJsonLine(presetToJson(p));
    return kExitOk;
  }
  int width = 4;
  for (const auto& p : presets) width = std::max(width, static_cast<int>(p.name.size()));
  QTextStream out(stdout);
  out << QStringLiteral("NAME").leftJustified(width + 2) << QStringLiteral("KIND").leftJustified(12)
      << "TITLE\n";
  for (const auto& p : presets) {
    out << p.name.leftJustified(width + 2) << ui::presetKindName(p.kind).leftJustified(12)
        << p.title << "\n"
        << QString(width + 14, QLatin1Char(' ')) << "source: " << p.source << "\n";
  }
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("presets", "List the presets that reproduce the seed documents' experiments.",
                    runPresets);

}  // namespace epsilon::cli
