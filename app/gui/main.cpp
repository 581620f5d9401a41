// epsilonlab: the desktop application's entry point.
#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QTimer>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"

namespace {

// QGuiApplication takes "-session ID" / "--session ID" for X11 session management and removes
// it from argv, so our --session FILE would never reach the parser: it is renamed before Qt
// sees it (the parser knows both names).
std::vector<char*> renameSessionArgument(int argc, char* argv[], std::string& renamed) {
  static const std::string kSessionPrefix = "--session=";
  std::vector<char*> args(argv, argv + argc);
  for (char*& arg : args) {
    const std::string text(arg);
    if (text == "--session" || text == "-session") {
      arg = const_cast<char*>("--open-session");
    } else if (text.rfind(kSessionPrefix, 0) == 0) {
      renamed = "--open-session=" + text.substr(kSessionPrefix.size());
      arg = renamed.data();
    }
  }
  args.push_back(nullptr);
  return args;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string renamed;
  std::vector<char*> args = renameSessionArgument(argc, argv, renamed);
  QApplication app(argc, args.data());
  QApplication::setApplicationName(QStringLiteral("EpsilonLab"));
  QApplication::setOrganizationName(QStringLiteral("EpsilonLab"));
  QApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("EpsilonLab: the privacy-utility trade-off of DP-SGD, live."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption session(
      QStringList{QStringLiteral("session"), QStringLiteral("open-session")},
      QStringLiteral("Open this session file."), QStringLiteral("file"));
  const QCommandLineOption run(QStringLiteral("run"),
                               QStringLiteral("Start the panel's experiment at once."));
  const QCommandLineOption preset(QStringLiteral("preset"),
                                  QStringLiteral("Run this built-in preset at once."),
                                  QStringLiteral("name"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Save a picture of the window to this file after --delay ms, then quit."),
      QStringLiteral("file"));
  const QCommandLineOption delay(QStringLiteral("delay"),
                                 QStringLiteral("Milliseconds before --screenshot (default 3000)."),
                                 QStringLiteral("ms"), QStringLiteral("3000"));
  parser.addOptions({session, run, preset, screenshot, delay});
  parser.process(app);

  const bool scripted = parser.isSet(screenshot);
  epsilon::ui::MainWindow window(
      epsilon::ui::MainWindow::startupOptions(parser.isSet(session), scripted));
  window.show();
  if (parser.isSet(session)) {
    // The window shows the message in a box; stderr carries it for desktop shortcuts and scripts.
    const QString error = window.openSessionFrom(parser.value(session));
    if (!error.isEmpty()) {
      std::fprintf(stderr, "epsilonlab: cannot open the session: %s\n", qPrintable(error));
      if (scripted) return 2;
    }
  }
  if (parser.isSet(run)) QTimer::singleShot(0, &window, [&window] { window.startRun(false); });
  if (parser.isSet(preset))
    QTimer::singleShot(0, &window,
                       [&window, name = parser.value(preset)] { window.runPreset(name); });
  if (parser.isSet(screenshot)) {
    QTimer::singleShot(parser.value(delay).toInt(), &window, [&] {
      window.grab().save(parser.value(screenshot));
      QApplication::quit();
    });
  }
  return QApplication::exec();
}
