// `epsilonlab-cli datasets`: lists every data set the registry finds, as a table or JSON.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>
#include <cstdio>

#include "cli_options.h"
#include "core/data/registry.h"

namespace epsilon::cli {

namespace {

QString shapeText(const data::SampleShape& shape) {
  if (shape.isImage)
    return QStringLiteral("%1x%2x%3").arg(shape.channels).arg(shape.height).arg(shape.width);
  return QStringLiteral("%1 features").arg(shape.featureCount());
}

QJsonObject toJson(const data::DatasetInfo& info) {
  const QJsonObject shape{{QStringLiteral("channels"), info.shape.channels},
                          {QStringLiteral("height"), info.shape.height},
                          {QStringLiteral("width"), info.shape.width},
                          {QStringLiteral("isImage"), info.shape.isImage}};
  return QJsonObject{{QStringLiteral("name"), QString::fromStdString(info.name)},
                     {QStringLiteral("description"), QString::fromStdString(info.description)},
                     {QStringLiteral("provenance"), QString::fromStdString(info.provenance)},
                     {QStringLiteral("location"), QString::fromStdString(info.location)},
                     {QStringLiteral("trainSize"), static_cast<qint64>(info.trainSize)},
                     {QStringLiteral("testSize"), static_cast<qint64>(info.testSize)},
                     {QStringLiteral("shape"), shape},
                     {QStringLiteral("featureCount"), info.shape.featureCount()},
                     {QStringLiteral("classCount"), info.classCount},
                     {QStringLiteral("synthetic"), info.synthetic}};
}

void printTable(const std::vector<data::DatasetInfo>& infos) {
  int nameWidth = 4;
  for (const auto& info : infos)
    nameWidth = std::max(nameWidth, static_cast<int>(info.name.size()));
  QTextStream out(stdout);
  const auto line = [&](const QString& name, const QString& train, const QString& test,
                        const QString& shape, const QString& classes, const QString& provenance) {
    out << name.leftJustified(nameWidth + 2) << train.rightJustified(7) << test.rightJustified(7)
        << "  " << shape.leftJustified(13) << classes.rightJustified(7) << "  " << provenance
        << "\n";
  };
  line(QStringLiteral("NAME"), QStringLiteral("TRAIN"), QStringLiteral("TEST"),
       QStringLiteral("SHAPE"), QStringLiteral("CLASSES"), QStringLiteral("PROVENANCE"));
  for (const auto& info : infos) {
    line(QString::fromStdString(info.name), QString::number(info.trainSize),
         QString::number(info.testSize), shapeText(info.shape), QString::number(info.classCount),
         QString::fromStdString(info.provenance));
  }
}

int runDatasets(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Lists every data set found: embedded, synthetic, Fashion-MNIST if installed, and the\n"
      "folders named in EPSILONLAB_DATA (':'-separated; each folder, or its subfolders,\n"
      "holding MNIST-format IDX files or CIFAR-10 batches). Synthetic sizes are for the\n"
      "default options (1000 points, 80 % train)."));
  const QCommandLineOption json(QStringLiteral("json"),
                                QStringLiteral("Print a JSON array instead of a table."));
  parser.addOption(json);
  if (const auto exit = parseOrExplain(parser, arguments, QStringLiteral("datasets"))) return *exit;

  std::vector<std::string> problems;
  const auto infos = data::listDatasets(problems);
  for (const auto& problem : problems) std::fprintf(stderr, "warning: %s\n", problem.c_str());
  if (parser.isSet(json)) {
    QJsonArray array;
    for (const auto& info : infos) array.append(toJson(info));
    const QByteArray text = QJsonDocument(array).toJson(QJsonDocument::Compact);
    std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
    std::fputc('\n', stdout);
  } else {
    printTable(infos);
  }
  return kExitOk;
}

}  // namespace

EPSILON_CLI_COMMAND("datasets",
                    "List the data sets found (embedded, synthetic, installed, EPSILONLAB_DATA).",
                    runDatasets);

}  // namespace epsilon::cli
