// epsilonlab-cli: dispatches to the registered commands (see cli_command.h).
#include <QCoreApplication>
#include <QTextStream>
#ifdef QT_WIDGETS_LIB
#include <QApplication>
#endif

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

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

// Commands that draw the GUI's charts (--plot, reproduce) need a QApplication (Qt Charts
// renders through widgets' graphics scenes); every other command stays a QCoreApplication.
// A CLI never shows a window, so it draws on the offscreen platform unless told otherwise
// (this also works with a DISPLAY whose X server is unreachable).
std::unique_ptr<QCoreApplication> makeApplication(int& argc, char* argv[]) {
#ifdef QT_WIDGETS_LIB
  bool plots = argc > 1 && std::strcmp(argv[1], "reproduce") == 0;
  for (int i = 1; i < argc && !plots; ++i)
    plots = std::strcmp(argv[i], "--plot") == 0 || std::strncmp(argv[i], "--plot=", 7) == 0;
  if (plots) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QApplication>(argc, argv);
  }
#endif
  return std::make_unique<QCoreApplication>(argc, argv);
}

}  // namespace

int main(int argc, char* argv[]) {
  const auto app = makeApplication(argc, argv);
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
