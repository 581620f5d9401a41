// Runs the built epsilonlab-cli (EPSILON_CLI_PATH) as a user would, for the CLI suites:
// exit status, standard output and error. One helper instead of a copy per suite.
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
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

inline CliOutcome runCli(const QStringList& arguments, int timeoutMs = 300000) {
  QProcess process;
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

}  // namespace epsilon::test
