// The experiment schema (core/train/experiment_schema.h) is the one list of the experiment's
// fields: every field, moved away from its default by a value the table itself chooses, comes
// back the same through the experiment file, the CLI's flags (new and old spellings) and sweep
// parameters; and --help of train, audit and epsilon lists each flag once, with its JSON key.
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "base/io/experiment_json.h"
#include "cli_command.h"
#include "cli_runner.h"
#include "core/common/errors.h"
#include "core/train/config_compare.h"
#include "core/train/experiment_schema.h"
#include "core/train/sweep.h"
#include "tests/core/train/schema_test_values.h"
#include "train_flags.h"

using namespace epsilon;
using epsilon::test::runCli;
using test::everyFieldAway;
using test::otherValue;
using train::ExperimentConfig;
using train::ExperimentField;
using train::FieldType;
using train::FieldValue;

namespace {

// The defaults on pca-mlp: the PCA flags are refused on a network without the projection.
ExperimentConfig pcaDefaults() {
  ExperimentConfig c;
  c.model.preset = "pca-mlp";
  return c;
}

QString differing(const ExperimentConfig& a, const ExperimentConfig& b) {
  return QStringLiteral("differing: ") + QString::fromStdString(train::describeDifferences(a, b));
}

// The config the experiment flags in `arguments` make over `base`, parsed in process.
ExperimentConfig throughFlags(const QStringList& arguments, const ExperimentConfig& base) {
  QCommandLineParser parser;
  cli::addExperimentFlags(parser);
  if (!parser.parse(QStringList{QStringLiteral("train")} + arguments))
    throw std::runtime_error(parser.errorText().toStdString());
  ExperimentConfig c = base;
  cli::applyExperimentFlags(parser, c);
  return c;
}

// The flags that set every file field where `target` differs from `base` to its value there.
QStringList flagsFor(const ExperimentConfig& target, const ExperimentConfig& base) {
  QStringList arguments;
  for (const ExperimentField& f : train::experimentFields()) {
    if (!f.persisted || f.get(target) == f.get(base)) continue;
    const FieldValue v = f.get(target);
    const QString flag = QString::fromStdString(f.flag());
    if (f.type == FieldType::Boolean) {
      arguments << (std::get<bool>(v) ? QStringLiteral("--") : QStringLiteral("--no-")) + flag;
    } else {
      arguments << QStringLiteral("--") + flag << QString::fromStdString(train::fieldText(f, v));
    }
  }
  return arguments;
}

// --help split into entries: each option's lines (a wrapped description continues below it),
// whitespace folded, keyed by the option's long name.
std::multimap<QString, QString> helpEntries(const QString& help) {
  std::multimap<QString, QString> entries;
  // An option's line starts with two spaces; its wrapped description is indented further.
  static const QRegularExpression start(QStringLiteral("^  (?:-\\w, )?--([a-z0-9-]+)"));
  QString name, text;
  const auto flush = [&] {
    if (!name.isEmpty()) entries.emplace(name, text.simplified());
  };
  for (const QString& line : help.split(QLatin1Char('\n'))) {
    const auto match = start.match(line);
    if (match.hasMatch()) {
      flush();
      name = match.captured(1);
      text = line;
    } else if (!name.isEmpty() && line.startsWith(QLatin1Char(' '))) {
      text += QLatin1Char(' ') + line;
    } else {
      flush();
      name.clear();
    }
  }
  flush();
  return entries;
}

}  // namespace

class TestCliSchema : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void theTableMovesEveryField() {
    const ExperimentConfig all = everyFieldAway();
    std::vector<std::string> persisted;
    for (const ExperimentField& f : train::experimentFields())
      if (f.persisted) persisted.push_back(f.name);
    QCOMPARE(train::differingFields(all, ExperimentConfig{}), persisted);
    // The comparison covers the whole table, and the table covers every key the file writes.
    QCOMPARE(train::comparedFieldCount(), static_cast<int>(train::experimentFields().size()));
    const QJsonObject json = ui::experimentToJson(all);
    int keys = 0;
    for (auto it = json.begin(); it != json.end(); ++it)
      if (it.value().isObject()) keys += static_cast<int>(it.value().toObject().size());
    QCOMPARE(keys, static_cast<int>(persisted.size()));
  }

  void everyFieldThroughJson() {
    for (const ExperimentConfig& c : {everyFieldAway(), ExperimentConfig{}}) {
      const ExperimentConfig back = ui::experimentFromJson(ui::experimentToJson(c), {});
      QVERIFY2(back == c, qPrintable(differing(back, c)));
    }
    // Over a base that differs everywhere: the file sets every field.
    const ExperimentConfig back =
        ui::experimentFromJson(ui::experimentToJson(ExperimentConfig{}), everyFieldAway());
    QVERIFY2(back == ExperimentConfig{}, qPrintable(differing(back, {})));
  }

  void everyFieldThroughFlags() {
    const ExperimentConfig all = everyFieldAway();
    const QStringList forward = flagsFor(all, ExperimentConfig{});
    QVERIFY(forward.size() >= 80);  // every field's flag, most with a value
    const ExperimentConfig there = throughFlags(forward, ExperimentConfig{});
    QVERIFY2(there == all, qPrintable(differing(there, all)));
    const ExperimentConfig back = throughFlags(flagsFor(pcaDefaults(), all), all);
    QVERIFY2(back == pcaDefaults(), qPrintable(differing(back, pcaDefaults())));
    // One field at a time: the flag sets its field and nothing else.
    for (const ExperimentField& f : train::experimentFields()) {
      if (!f.persisted) continue;
      ExperimentConfig one = pcaDefaults();
      train::setField(one, f, otherValue(f, pcaDefaults()));
      const QStringList flags = flagsFor(one, pcaDefaults());
      QVERIFY2(flags.size() == (f.type == FieldType::Boolean ? 1 : 2), qPrintable(flags.join(' ')));
      const ExperimentConfig c = throughFlags(flags, pcaDefaults());
      QVERIFY2(c == one, qPrintable(QString::fromStdString(f.name) + ": " + differing(c, one)));
    }
  }

  void oldSpellingsStillRead() {
    const ExperimentConfig all = everyFieldAway();
    int checked = 0;
    for (const ExperimentField& f : train::experimentFields()) {
      for (const train::OldSpelling& old : f.old) {
        const QString flag = QStringLiteral("--") + QString::fromStdString(train::flagOf(old.word));
        ExperimentConfig expected;
        QStringList arguments{flag};
        if (old.value.empty()) {
          train::setField(expected, f, f.get(all));
          arguments << QString::fromStdString(train::fieldText(f, f.get(all)));
          // And as a sweep parameter.
          ExperimentConfig swept;
          train::applySweepValue(swept, old.word, train::fieldText(f, f.get(all)));
          QVERIFY2(swept == expected, qPrintable(differing(swept, expected)));
        } else {
          train::setField(expected, f, train::parseFieldText(f, old.value, old.word));
        }
        const ExperimentConfig c = throughFlags(arguments, ExperimentConfig{});
        QVERIFY2(c == expected, qPrintable(flag + ": " + differing(c, expected)));
        QVERIFY2(!(c == ExperimentConfig{}), qPrintable(flag));
        ++checked;
      }
    }
    QVERIFY(checked >= 6);  // batch_size, train_size, lr, clip_lr, noise_decay, eval_every, ...
    // The names the issue found disagreeing now agree: --batch-size and --lot-size set the lot,
    // train_size and max_train the training set's size.
    const ExperimentConfig oldLot = throughFlags({"--batch-size", "64"}, {});
    QCOMPARE(oldLot.training.lotSize, 64);
    ExperimentConfig swept;
    train::applySweepValue(swept, "train_size", "1000");
    QCOMPARE(swept.dataset.options.maxTrain, 1000L);
    // Two spellings of one field are refused rather than one silently winning.
    const QStringList both{"--lot-size", "8", "--batch-size", "9"};
    bool refused = false;
    try {
      throughFlags(both, {});
    } catch (const cli::UsageError& e) {
      refused = std::string(e.what()).find("--lot-size") != std::string::npos;
    }
    QVERIFY(refused);
  }

  void everyFieldThroughSweepParameters() {
    const ExperimentConfig all = everyFieldAway();
    ExperimentConfig there, back = all;
    for (const ExperimentField& f : train::experimentFields()) {
      if (!f.persisted) continue;
      QVERIFY(train::isSweepParameter(f.word));
      train::applySweepValue(there, f.word, train::fieldText(f, f.get(all)));
      train::applySweepValue(back, f.word, train::fieldText(f, f.get(ExperimentConfig{})));
    }
    QVERIFY2(there == all, qPrintable(differing(there, all)));
    QVERIFY2(back == ExperimentConfig{}, qPrintable(differing(back, {})));
    // A list inside a sweep's comma-separated values: 24/8.
    ExperimentConfig hidden;
    train::applySweepValue(hidden, "hidden", "24/8");
    QCOMPARE(hidden.model.hiddenWidths, (std::vector<int>{24, 8}));
  }

  void badValuesNameTheFieldAndClipTheValue() {
    const std::string huge(100000, '9');
    try {
      throughFlags({"--lot-size", QString::fromStdString(huge) + "x"}, {});
      QFAIL("accepted");
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      QVERIFY2(what.rfind("--lot-size: expected an integer", 0) == 0, what.c_str());
      QVERIFY2(what.size() < 300, what.c_str());
    }
    try {
      ExperimentConfig c;
      train::applySweepValue(c, "lot_size", "0");
      QFAIL("accepted");
    } catch (const ConfigError& e) {
      QVERIFY2(std::string(e.what()).rfind("sweep.lot_size: expected an integer in [1,", 0) == 0,
               e.what());
    }
  }

  void helpListsEachFlagOnceWithItsKey_data() {
    QTest::addColumn<QString>("command");
    QTest::newRow("train") << "train";
    QTest::newRow("audit") << "audit";
  }
  void helpListsEachFlagOnceWithItsKey() {
    QFETCH(QString, command);
    const auto outcome = runCli({command, "--help"}, 60000);
    QCOMPARE(outcome.exitCode, 0);
    const auto entries = helpEntries(outcome.out);
    for (const auto& [name, text] : entries)
      QVERIFY2(entries.count(name) == 1, qPrintable(name + " listed twice"));
    int fields = 0;
    for (const ExperimentField& f : train::experimentFields()) {
      if (!f.persisted) continue;
      const QString key = QString::fromStdString(f.name);
      const auto it = entries.find(QString::fromStdString(f.flag()));
      QVERIFY2(it != entries.end(), qPrintable(key + " has no flag"));
      QVERIFY2(it->second.contains(QLatin1Char('[') + key), qPrintable(it->second));
      for (const auto& old : f.old) {
        const auto o = entries.find(QString::fromStdString(train::flagOf(old.word)));
        QVERIFY2(o != entries.end(), qPrintable(key + ": old spelling not listed"));
        QVERIFY2(
            o->second.contains(QStringLiteral("Old spelling of --")) && o->second.contains(key),
            qPrintable(o->second));
      }
      ++fields;
    }
    QVERIFY(fields >= 48);  // the fields files hold today
  }

  void epsilonHelpNamesItsFieldsOnce() {
    const auto outcome = runCli({"epsilon", "--help"}, 60000);
    QCOMPARE(outcome.exitCode, 0);
    const auto entries = helpEntries(outcome.out);
    for (const auto& [name, text] : entries)
      QVERIFY2(entries.count(name) == 1, qPrintable(name + " listed twice"));
    for (const char* field :
         {"training.steps", "training.epochs", "training.lot_size", "privacy.delta",
          "privacy.accountant", "model.pca_noise", "model.pca_sample", "model.pca_dims"}) {
      const auto it = entries.find(QString::fromStdString(train::fieldNamed(field)->flag()));
      QVERIFY2(it != entries.end(), field);
      QVERIFY2(it->second.contains(QLatin1String(field)), qPrintable(it->second));
    }
    QVERIFY(entries.find(QStringLiteral("batch-size"))->second.contains("Old spelling"));
    // The old spelling still works and gives what the new one gives.
    const QStringList run{"epsilon", "--epochs", "2", "--dataset-size", "1000", "--delta", "1e-5"};
    const auto a = runCli(run + QStringList{"--batch-size", "100", "--noise-multiplier", "1"});
    const auto b = runCli(run + QStringList{"--lot-size", "100", "--noise-multiplier", "1"});
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.out, b.out);
  }

  void anExperimentFileWithoutADataSetIsRefused() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no-dataset.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "epsilonlab-experiment", "version": 1,
        "model": {"preset": "mlp", "hidden": [4]}, "training": {"lot_size": 16, "epochs": 1}})");
    file.close();
    const auto refused = runCli({"train", "--config", path, "--print-config"}, 60000);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QStringLiteral("dataset.name: missing")),
             qPrintable(refused.err));
    // Naming the data set on the command line is enough.
    const auto named =
        runCli({"train", "--config", path, "--dataset", "xor", "--print-config"}, 60000);
    QCOMPARE(named.exitCode, 0);
    QCOMPARE(named.jsonLines().value(0)["dataset"].toObject()["name"].toString(),
             QStringLiteral("xor"));
  }
};

QTEST_APPLESS_MAIN(TestCliSchema)
#include "test_cli_schema.moc"
