// How epsilonlab-cli commands are declared: each command_*.cpp defines a function taking
// the command's own arguments and registers it with EPSILON_CLI_COMMAND; main() dispatches.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace epsilon::cli {

// Exit statuses: 0 success, 1 a failure while working, 2 bad usage or bad input.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Thrown for a bad flag or value; main() prints it on stderr and exits with kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  QString summary;
  // Receives argv with the command name in place of the program name ("epsilonlab-cli epsilon").
  std::function<int(const QStringList& arguments)> run;
};

std::map<QString, Command>& commandRegistry();

struct CommandRegistrar {
  CommandRegistrar(const char* name, const char* summary,
                   std::function<int(const QStringList&)> run) {
    commandRegistry()[QString::fromUtf8(name)] =
        Command{QString::fromUtf8(summary), std::move(run)};
  }
};

}  // namespace epsilon::cli

#define EPSILON_CLI_CONCAT_INNER(a, b) a##b
#define EPSILON_CLI_CONCAT(a, b) EPSILON_CLI_CONCAT_INNER(a, b)
// Registers `function` (int(const QStringList&)) as the command `name`.
#define EPSILON_CLI_COMMAND(name, summary, function)                \
  static const ::epsilon::cli::CommandRegistrar EPSILON_CLI_CONCAT( \
      epsilonCliRegistrar_, __COUNTER__)(name, summary, function)
