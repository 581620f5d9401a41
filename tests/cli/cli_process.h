// Runs the built epsilonlab-cli (EPSILON_CLI_PATH) as a user would and keeps its exit status,
// stdout and stderr, for the CLI suites.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace epsilon::testing {

struct CliRun {
  int exitCode = -1;  // -1 when the process crashed or timed out
  QByteArray out;
  QString err;
};

inline CliRun runCli(const QStringList& arguments, int timeoutMs = 120000) {
  QProcess process;
  process.start(QStringLiteral(EPSILON_CLI_PATH), arguments);
  CliRun run;
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    process.waitForFinished();
    return run;
  }
  run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  run.out = process.readAllStandardOutput();
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

}  // namespace epsilon::testing
