// epsilonlab-cli: dispatches to the registered commands (see cli_command.h).
#include <QCoreApplication>
#include <QTextStream>
#include <cstdio>
#include <exception>

#include "cli_command.h"
#include "core/common/errors.h"

namespace {

void printUsage(QTextStream& out) {
  out << "Usage: epsilonlab-cli <command> [options]\n"
         "       epsilonlab-cli <command> --help\n\n"
         "EpsilonLab explores the privacy-utility trade-off of differentially private\n"
         "deep learning (DP-SGD).\n\nCommands:\n";
  for (const auto& [name, command] : epsilon::cli::commandRegistry()) {
    out << "  " << name.leftJustified(12) << command.summary << "\n";
  }
  out << "\nOptions:\n  -h, --help     Show this help.\n  -v, --version  Show the version.\n";
}

}  // namespace

int main(int argc, char* argv[]) {
  // Qt Core only: charts are drawn by epsilonlab-plot (reproduce_plot.h).
  QCoreApplication app(argc, argv);
  QCoreApplication::setApplicationName(QStringLiteral("epsilonlab-cli"));
  QCoreApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));
  QTextStream out(stdout);
  QTextStream err(stderr);
  const QStringList arguments = QCoreApplication::arguments();
  if (arguments.size() < 2) {
    printUsage(err);
    return epsilon::cli::kExitUsage;
  }
  const QString first = arguments.at(1);
  if (first == QStringLiteral("-h") || first == QStringLiteral("--help") ||
      first == QStringLiteral("help")) {
    printUsage(out);
    return epsilon::cli::kExitOk;
  }
  if (first == QStringLiteral("-v") || first == QStringLiteral("--version")) {
    out << "epsilonlab-cli " << EPSILON_VERSION << "\n";
    return epsilon::cli::kExitOk;
  }
  const auto& registry = epsilon::cli::commandRegistry();
  const auto found = registry.find(first);
  if (found == registry.end()) {
    err << "epsilonlab-cli: unknown command or flag '" << first
        << "' (see epsilonlab-cli --help)\n";
    return epsilon::cli::kExitUsage;
  }
  QStringList commandArguments = arguments.mid(1);
  commandArguments[0] = QStringLiteral("epsilonlab-cli ") + first;
  try {
    return found->second.run(commandArguments);
  } catch (const epsilon::cli::UsageError& e) {
    err << "epsilonlab-cli " << first << ": " << e.what() << "\n";
    return epsilon::cli::kExitUsage;
  } catch (const epsilon::Error& e) {
    err << "epsilonlab-cli " << first << ": " << e.what() << "\n";
    return epsilon::cli::kExitUsage;
  } catch (const std::exception& e) {
    err << "epsilonlab-cli " << first << ": internal error: " << e.what() << "\n";
    return epsilon::cli::kExitFailure;
  }
}
