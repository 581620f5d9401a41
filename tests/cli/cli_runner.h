// Runs the built epsilonlab-cli (EPSILON_CLI_PATH) as a user would, for the CLI suites:
// exit status, standard output and error. One helper instead of a copy per suite; also the
// small circle experiment the sweep suites run.
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace epsilon::test {

struct CliOutcome {
  int exitCode = -1;  // -1: it crashed or did not finish in time
  QString out;
  QString err;

  // Every line of standard output that is a JSON object (commands print one per event).
  QList<QJsonObject> jsonLines() const {
    QList<QJsonObject> lines;
    for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
      lines << QJsonDocument::fromJson(line.toUtf8()).object();
    return lines;
  }
};

// Runs the CLI with `environment` (e.g. another PATH).
inline CliOutcome runCliWith(const QProcessEnvironment& environment, const QStringList& arguments,
                             int timeoutMs = 300000) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(EPSILON_CLI_PATH), arguments);
  CliOutcome o;
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    process.waitForFinished();
    return o;
  }
  o.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  o.out = QString::fromUtf8(process.readAllStandardOutput());
  o.err = QString::fromUtf8(process.readAllStandardError());
  return o;
}

inline CliOutcome runCli(const QStringList& arguments, int timeoutMs = 300000) {
  return runCliWith(QProcessEnvironment::systemEnvironment(), arguments, timeoutMs);
}

// DIR/NAME holding `json` (an experiment file a suite writes). Returns its path.
inline QString writeTestFile(const QString& dir, const QByteArray& json,
                             const QString& name = QStringLiteral("exp.json")) {
  const QString path = QDir(dir).filePath(name);
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(json);
  return path;
}

// DIR/exp.json: a two-class circle of 400 points, an MLP 2-8-2, 20 DP-SGD steps evaluated
// every 10 (well under a second; `steps` and `evalEvery` make a longer run). Returns its path.
inline QString writeCircleExperiment(const QString& dir, int steps = 20, int evalEvery = 10) {
  return writeTestFile(dir, QString::fromLatin1(R"({"format": "epsilonlab-experiment", "version": 1,
    "dataset": {"name": "circle", "size": 400},
    "model": {"preset": "mlp", "hidden": [8]},
    "privacy": {"noise_multiplier": 1.0, "clip_norm": 1.0},
    "optimizer": {"name": "momentum", "learning_rate": 0.1},
    "training": {"lot_size": 32, "steps": %1, "eval_every_steps": %2, "eval_every_epoch": false, "seed": 3}})")
                                .arg(steps)
                                .arg(evalEvery)
                                .toLatin1());
}

}  // namespace epsilon::test
