// Run files and File › Open session (base/io/run_file.h): every session and run JSON checked into
// the repo (tests/, docs/, resources/) opens with the io readers and through
// openSessionOrRuns, the function the GUI's Open session calls, with the same runs (a fuzz
// finding kept as input is refused, naming the file and the key); the CLI's `train --out` file
// opens as a one-run session and its `sweep --out` folder as one run per file; a run file reads
// back exactly what recordFromResult makes of the result; older run files (ε null for ∞,
// elapsed_s, mean_grad_norm) still open; bad files are refused naming the file and key path.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "base/io/experiment_json.h"
#include "base/io/run_conversion.h"
#include "base/io/run_file.h"
#include "base/io/run_verification.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

QString source(const QString& relative) {
  return QStringLiteral(EPSILON_SOURCE_DIR "/") + relative;
}

// Repo inputs refused on purpose (fuzz findings kept as regression inputs): what the refusal names.
const QHash<QString, QString>& refusedOnPurpose() {
  static const QHash<QString, QString> files{
      {QStringLiteral("tests/base/io/data/fuzz-session-huge-loss-step.json"),
       QStringLiteral("runs[0].losses[")}};
  return files;
}

struct RepoFile {
  QString relative;
  QString kind;  // "epsilonlab-session", "epsilonlab-run", or "session run" (a run object alone)
};

// Every JSON object under tests/, docs/ and resources/ that is a session, a run file, or one
// run as a session holds it (the fuzz corpus of runFromJson), whatever its file name.
std::vector<RepoFile> repoSessionAndRunFiles() {
  std::vector<RepoFile> found;
  for (const char* top : {"tests", "docs", "resources"}) {
    QDirIterator it(source(QLatin1String(top)), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next();
      QFile file(path);
      if (file.size() > (4 << 20) || !file.open(QIODevice::ReadOnly)) continue;
      const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
      const QString format = json.value(QLatin1String("format")).toString();
      QString kind;
      if (format == QLatin1String("epsilonlab-session") ||
          format == QLatin1String("epsilonlab-run"))
        kind = format;
      else if (json.contains(QLatin1String("evals")) && json.contains(QLatin1String("config")))
        kind = QStringLiteral("session run");
      if (!kind.isEmpty()) found.push_back({QDir(source({})).relativeFilePath(path), kind});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const RepoFile& a, const RepoFile& b) { return a.relative < b.relative; });
  return found;
}

QJsonObject sessionJson(std::vector<RunRecord> runs) {
  for (RunRecord& r : runs) r.id = 1;  // ids are numbering, not content
  return sessionToJson(runs);
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

// The message of the SessionError `open` throws ("" when it does not).
template <class Open>
QString refusal(Open open) {
  try {
    open();
  } catch (const SessionError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

// An evaluation as the trainer reports it, with a privacy statement.
train::ProgressEvent evaluation(long long step, double epsilon, double accuracy) {
  train::ProgressEvent e;
  e.kind = train::EventKind::Evaluation;
  e.step = step;
  e.totalSteps = 40;
  e.epoch = step / 20.0;
  e.trainLoss = step == 0 ? train::kNotMeasured : 2.0 / static_cast<double>(step);
  e.testAccuracy = accuracy;
  e.testLoss = 0.75;
  e.sigma = 1.1;
  e.clipNorm = 1.0;
  e.fractionClipped = 0.25;
  e.meanGradientNorm = 3.5;
  e.elapsedSeconds = 0.125 * static_cast<double>(step);
  e.privacy.epsilon = epsilon;
  e.privacy.status = std::isfinite(epsilon) ? privacy::GuaranteeStatus::Guarantee
                                            : privacy::GuaranteeStatus::NoPrivacy;
  e.privacy.delta = 1e-5;
  e.privacy.accountant = privacy::AccountantKind::Rdp;
  e.privacy.sampling = privacy::SamplingKind::Poisson;
  return e;
}

}  // namespace

class TestRunFile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everySessionAndRunFileInTheRepoOpens() {
    const std::vector<RepoFile> files = repoSessionAndRunFiles();
    QStringList names;
    for (const RepoFile& f : files) names << f.relative;
    // The search finds what is known to be there (so this test cannot pass on nothing).
    for (const char* known : {"tests/base/io/data/fuzz-session-huge-loss-step.json",
                              "tests/base/io/data/cli-train-run.json",
                              "tests/base/io/data/cli-sweep/run-00-noise_multiplier=0.5.json",
                              "tests/base/io/data/cli-sweep/run-01-noise_multiplier=2.json",
                              "tests/base/io/data/old-run-null-epsilon.json"})
      QVERIFY2(names.contains(QLatin1String(known)), known);
    QVERIFY2(files.size() >= 8, qPrintable(names.join(", ")));
    for (const RepoFile& f : files) {
      const QString path = source(f.relative);
      if (refusedOnPurpose().contains(f.relative)) {
        const QString error = refusal([&] { openSessionOrRuns(path); });
        QVERIFY2(error.contains(f.relative) && error.contains(refusedOnPurpose()[f.relative]),
                 qPrintable(f.relative + ": " + error));
        QCOMPARE(refusal([&] { loadSession(path); }), error);
        continue;
      }
      try {
        if (f.kind == QLatin1String("session run")) {  // not a file of its own: its reader
          const RunRecord run = runFromJson(readJson(path), QStringLiteral("runs[0]"));
          QVERIFY(!run.evals.empty());
          continue;
        }
        const std::vector<RunRecord> opened = openSessionOrRuns(path);
        std::vector<RunRecord> read = f.kind == QLatin1String("epsilonlab-session")
                                          ? loadSession(path)
                                          : std::vector<RunRecord>{readRunFile(path)};
        verifyStatedEpsilons(read);  // what Open does after reading (run_verification.h)
        QVERIFY2(sessionJson(opened) == sessionJson(read), qPrintable(f.relative));
        if (f.kind == QLatin1String("epsilonlab-run")) QCOMPARE(opened.size(), std::size_t{1});
      } catch (const std::exception& e) {
        QFAIL(qPrintable(f.relative + QStringLiteral(": ") + QString::fromUtf8(e.what())));
      }
    }
  }

  // `epsilonlab-cli train --out` (checked in as written): one run, named after the file, with
  // every evaluation, its ε, δ, accountant and sampling; saved as a session it reopens the same.
  void aCliRunFileOpensAsAOneRunSession() {
    const QString path = source(QStringLiteral("tests/base/io/data/cli-train-run.json"));
    const QJsonObject file = readJson(path);
    const std::vector<RunRecord> runs = openSessionOrRuns(path);
    QCOMPARE(runs.size(), std::size_t{1});
    const RunRecord& run = runs.front();
    QCOMPARE(run.id, 1);
    QCOMPARE(run.name, QStringLiteral("cli-train-run"));
    QCOMPARE(run.status, RunStatus::Done);
    QCOMPARE(run.progress, 1.0);
    QCOMPARE(experimentToJson(run.config),
             experimentToJson(experimentFromJson(file["experiment"].toObject())));
    const QJsonArray history = file["history"].toArray();
    QCOMPARE(run.evals.size(), static_cast<std::size_t>(history.size()));
    QVERIFY(history.size() >= 2);
    const QJsonObject last = history.last().toObject();
    QCOMPARE(run.evals.back().step, last["step"].toInteger());
    QCOMPARE(run.evals.back().epsilon, last["epsilon"].toDouble());
    QCOMPARE(run.evals.back().testAccuracy, last["test_accuracy"].toDouble());
    QVERIFY(run.evals.back().epsilon > 0 && std::isfinite(run.evals.back().epsilon));
    QVERIFY2(run.privacyLabel.startsWith(QStringLiteral("δ = 1e-5 · RDP · Poisson sampling")),
             qPrintable(run.privacyLabel));
    QCOMPARE(run.elapsedSeconds, file["elapsed_seconds"].toDouble());

    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("session.json"));
    saveSession(session, runs);
    QCOMPARE(sessionJson(openSessionOrRuns(session)), sessionJson(runs));
  }

  // After opening a run file or a run folder, Save session proposes a new session file beside
  // it, never the run file itself nor a name inside the folder; a session proposes itself.
  void savingAfterOpeningNeverProposesTheRunFile() {
    const QString run = source(QStringLiteral("tests/base/io/data/cli-train-run.json"));
    const QString folder = source(QStringLiteral("tests/base/io/data/cli-sweep"));
    const QString data = source(QStringLiteral("tests/base/io/data"));
    QCOMPARE(QFileInfo(saveSuggestionAfterOpening(run)).absoluteFilePath(),
             QDir(data).absoluteFilePath(QStringLiteral("cli-train-run-session.json")));
    QCOMPARE(QFileInfo(saveSuggestionAfterOpening(folder)).absoluteFilePath(),
             QDir(data).absoluteFilePath(QStringLiteral("cli-sweep-session.json")));
    QCOMPARE(QFileInfo(saveSuggestionAfterOpening(folder + QStringLiteral("/"))).absoluteFilePath(),
             QDir(data).absoluteFilePath(QStringLiteral("cli-sweep-session.json")));
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("mine.json"));
    saveSession(session, openSessionOrRuns(run));
    QCOMPARE(saveSuggestionAfterOpening(session), session);
  }

  // `epsilonlab-cli sweep --out DIR`: the folder opens as its run files in name order (the
  // summary.csv beside them is not a run), each named after its sweep point, ids 1, 2, …
  void aSweepFolderOpensAsOneRunPerFile() {
    const std::vector<RunRecord> runs =
        openSessionOrRuns(source(QStringLiteral("tests/base/io/data/cli-sweep")));
    QCOMPARE(runs.size(), std::size_t{2});
    QCOMPARE(runs[0].name, QStringLiteral("noise_multiplier=0.5"));
    QCOMPARE(runs[1].name, QStringLiteral("noise_multiplier=2"));
    QCOMPARE(runs[0].id, 1);
    QCOMPARE(runs[1].id, 2);
    QCOMPARE(runs[0].config.privacy.noise.initial, 0.5);
    QCOMPARE(runs[1].config.privacy.noise.initial, 2.0);
    // More noise, less privacy spent: the files' own numbers came through.
    QVERIFY(runs[1].evals.back().epsilon < runs[0].evals.back().epsilon);
  }

  // The reader gives exactly what the GUI's controller makes of the same result in memory.
  void aRunFileReadsBackAsRecordFromResult() {
    train::RunResult result;
    result.status = train::RunStatus::Done;
    result.config.training.lotSize = 20;
    result.config.privacy.noise.initial = 1.1;
    result.elapsedSeconds = 5.5;
    result.history = {evaluation(0, 0.0, 0.5), evaluation(20, 0.75, 0.8),
                      evaluation(40, 1.25, 0.875)};
    result.history[1].privacy.nominalEpsilon = 0.5;  // the tanh filter's nominal figure
    const RunRecord expected = recordFromResult(result, QStringLiteral("mine"));
    const RunRecord read = runRecordFromRunFile(runToJson(result), QStringLiteral("mine.json"),
                                                QStringLiteral("mine"));
    QCOMPARE(sessionJson({read}), sessionJson({expected}));
    QCOMPARE(read.losses.size(), std::size_t{2});  // step 0 has no training loss
  }

  // Older run files wrote ∞ as null and used elapsed_s / mean_grad_norm (eval_point_json.h).
  // old-run-null-epsilon.json is a non-private `train --out` file converted by hand to those
  // names (no older run file is checked in).
  void olderRunFilesStillOpen() {
    const QString path = source(QStringLiteral("tests/base/io/data/old-run-null-epsilon.json"));
    const QJsonArray history = readJson(path)["history"].toArray();
    const std::vector<RunRecord> runs = openSessionOrRuns(path);
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].evals.size(), static_cast<std::size_t>(history.size()));
    QVERIFY(history.size() >= 2);
    for (std::size_t i = 0; i < runs[0].evals.size(); ++i) {
      const EvalPoint& e = runs[0].evals[i];
      const QJsonObject old = history[static_cast<qsizetype>(i)].toObject();
      QVERIFY(old.contains(QStringLiteral("mean_grad_norm")));
      if (old["epsilon"].isNull())
        QVERIFY(std::isinf(e.epsilon) && e.epsilon > 0);  // after step 0: no bound, ∞
      else
        QCOMPARE(e.epsilon, old["epsilon"].toDouble());  // step 0 has spent nothing
      QCOMPARE(e.elapsedSeconds, old["elapsed_s"].toDouble());
      QCOMPARE(e.testAccuracy, old["test_accuracy"].toDouble());
    }
    QVERIFY(runs[0].evals.back().elapsedSeconds > 0);
    QVERIFY(std::isinf(runs[0].evals.back().epsilon));
    QVERIFY2(runs[0].privacyLabel.contains(QStringLiteral("no privacy")),
             qPrintable(runs[0].privacyLabel));
  }

  void badFilesAreRefusedNamingFileAndKey() {
    QTemporaryDir dir;
    const auto write = [&](const QString& name, const QJsonObject& json) {
      QFile file(dir.filePath(name));
      file.open(QIODevice::WriteOnly);
      file.write(QJsonDocument(json).toJson());
      return file.fileName();
    };
    QJsonObject run = readJson(source(QStringLiteral("tests/base/io/data/cli-train-run.json")));
    QJsonArray history = run["history"].toArray();
    QJsonObject point = history[1].toObject();
    point["colour"] = "blue";
    history[1] = point;
    run["history"] = history;
    const QString typo = write(QStringLiteral("typo.json"), run);
    QVERIFY(refusal([&] {
              openSessionOrRuns(typo);
            }).startsWith(typo + QStringLiteral(": history[1].colour: unknown key")));

    const QString preset =
        write(QStringLiteral("preset.json"), QJsonObject{{"format", "epsilonlab-preset"}});
    QVERIFY(refusal([&] {
              openSessionOrRuns(preset);
            }).startsWith(preset + QStringLiteral(": not an EpsilonLab session or run file")));

    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("empty")));
    const QString empty = dir.filePath(QStringLiteral("empty"));
    QVERIFY(refusal([&] {
              openSessionOrRuns(empty);
            }).startsWith(empty + QStringLiteral(": expected a folder holding run files")));

    // One bad file in a folder refuses the folder, naming that file.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sweep")));
    QFile::copy(typo, dir.filePath(QStringLiteral("sweep/run-01.json")));
    QVERIFY(refusal([&] {
              openSessionOrRuns(dir.filePath(QStringLiteral("sweep")));
            }).contains(QStringLiteral("sweep/run-01.json: history[1].colour")));
  }
};

QTEST_APPLESS_MAIN(TestRunFile)
#include "test_run_file.moc"
