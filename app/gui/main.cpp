// epsilonlab: the desktop application's entry point.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QPixmap>
#include <QTimer>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/state_report.h"

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

// The command line: what to open or run at start, and scripted pictures.
struct Flags {
  QCommandLineOption session{QStringList{QStringLiteral("session"), QStringLiteral("open-session")},
                             QStringLiteral("Open this session file."), QStringLiteral("file")};
  QCommandLineOption run{QStringLiteral("run"),
                         QStringLiteral("Start the panel's experiment at once.")};
  QCommandLineOption preset{QStringLiteral("preset"),
                            QStringLiteral("Run this built-in preset at once."),
                            QStringLiteral("name")};
  QCommandLineOption lesson{
      QStringLiteral("lesson"),
      QStringLiteral("Open this lesson (a name such as noise-and-epsilon, or a file)."),
      QStringLiteral("name")};
  QCommandLineOption presentation{
      QStringLiteral("presentation"),
      QStringLiteral("Start in presentation mode (large fonts, thick lines).")};
  QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x720."),
                          QStringLiteral("WxH")};
  QCommandLineOption view{
      QStringLiteral("view"),
      QStringLiteral("Bring a view to the front: gradient-norms, model, help, lesson."),
      QStringLiteral("name")};
  QCommandLineOption tab{QStringLiteral("tab"),
                         QStringLiteral("Show this central tab: charts, attack or \"sweep map\"."),
                         QStringLiteral("name")};
  QCommandLineOption screenshot{
      QStringLiteral("screenshot"),
      QStringLiteral("Save a picture of the window to this file after --delay ms, then quit."),
      QStringLiteral("file")};
  QCommandLineOption stateFile{
      QStringLiteral("state-file"),
      QStringLiteral("Write the window's state as JSON to this file twice a second, for scripted "
                     "walkthroughs (scripts/walkthrough; keys in ui/widgets/state_report.h)."),
      QStringLiteral("file")};
  QCommandLineOption delay{QStringLiteral("delay"),
                           QStringLiteral("Milliseconds before --screenshot (default 3000)."),
                           QStringLiteral("ms"), QStringLiteral("3000")};
};

// The session or run file to open at start, empty for none: --session's, or the one file
// argument (a file manager and the desktop entry, Exec=epsilonlab %f, pass the file alone).
// nullopt, with a message, for more than one file.
std::optional<QString> sessionFileFrom(const QCommandLineParser& parser, const Flags& flags) {
  if (parser.isSet(flags.session)) return parser.value(flags.session);
  const QStringList files = parser.positionalArguments();
  if (files.size() > 1) {
    std::fprintf(stderr, "epsilonlab: expected at most one file to open, got %lld\n",
                 static_cast<long long>(files.size()));
    return std::nullopt;
  }
  return files.value(0);
}

// --help and --version print and quit before any window: with either, Qt starts offscreen
// (unless told otherwise), so that they also work on a text console or over ssh.
void printWithoutDisplay(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg(argv[i]);
    const bool prints =
        arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version";
    if (prints && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
      qputenv("QT_QPA_PLATFORM", "offscreen");
  }
}

// Name, version (the CMake project's), desktop entry and icon (installed in the hicolor theme).
void describeApplication() {
  QApplication::setApplicationName(QStringLiteral("EpsilonLab"));
  QApplication::setOrganizationName(QStringLiteral("EpsilonLab"));
  QApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));
  // Wayland and the desktop's window matching name the app by its desktop entry.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.epsilonlab.EpsilonLab"));
  QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.epsilonlab.EpsilonLab")));
}

// --lesson: as for a session, a bad file is the window's box and stderr's message, and a
// scripted run exits 2.
void openLesson(epsilon::ui::MainWindow& window, const QString& lesson, bool scripted) {
  const QString before = window.lastError();
  window.openLesson(lesson);
  if (window.lastError() == before) return;
  std::fprintf(stderr, "epsilonlab: cannot open the lesson: %s\n", qPrintable(window.lastError()));
  if (scripted) QApplication::exit(2);
}

}  // namespace

int main(int argc, char* argv[]) {
  printWithoutDisplay(argc, argv);
  std::string renamed;
  std::vector<char*> args = renameSessionArgument(argc, argv, renamed);
  QApplication app(argc, args.data());
  describeApplication();

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("EpsilonLab: the privacy-utility trade-off of DP-SGD, live."));
  parser.addHelpOption();
  parser.addVersionOption();
  const Flags flags;
  parser.addOptions({flags.session, flags.run, flags.preset, flags.lesson, flags.presentation,
                     flags.size, flags.view, flags.tab, flags.screenshot, flags.stateFile,
                     flags.delay});
  parser.addPositionalArgument(QStringLiteral("file"),
                               QStringLiteral("A session or run file to open, as --session."),
                               QStringLiteral("[file]"));
  parser.process(app);
  const auto sessionFile = sessionFileFrom(parser, flags);
  if (!sessionFile) return 2;

  const bool scripted = parser.isSet(flags.screenshot);
  epsilon::ui::MainWindow window(
      epsilon::ui::MainWindow::startupOptions(!sessionFile->isEmpty(), scripted));
  const QStringList size = parser.value(flags.size).split(QLatin1Char('x'));
  if (size.size() == 2) window.resize(size[0].toInt(), size[1].toInt());
  window.show();
  if (parser.isSet(flags.stateFile))
    new epsilon::ui::StateReport(&window, parser.value(flags.stateFile));
  if (parser.isSet(flags.presentation)) window.setPresentationMode(true);
  if (!sessionFile->isEmpty()) {
    // The window shows the message in a box; stderr carries it for desktop shortcuts and scripts.
    const QString error = window.openSessionFrom(*sessionFile);
    if (!error.isEmpty()) {
      std::fprintf(stderr, "epsilonlab: cannot open the session: %s\n", qPrintable(error));
      if (scripted) return 2;
    }
  }
  if (parser.isSet(flags.tab) && !window.showTab(parser.value(flags.tab))) {
    std::fprintf(stderr, "epsilonlab: --tab: expected charts, attack or \"sweep map\", got '%s'\n",
                 qPrintable(parser.value(flags.tab)));
    return 2;
  }
  QTimer::singleShot(0, &window, [&] {
    if (parser.isSet(flags.run)) window.startRun(false);
    if (parser.isSet(flags.preset)) window.runPreset(parser.value(flags.preset));
    if (parser.isSet(flags.lesson)) openLesson(window, parser.value(flags.lesson), scripted);
    if (parser.isSet(flags.view)) window.raiseView(parser.value(flags.view));
  });
  if (scripted) {
    QTimer::singleShot(parser.value(flags.delay).toInt(), &window, [&] {
      window.grab().save(parser.value(flags.screenshot));
      QApplication::quit();
    });
  }
  return QApplication::exec();
}
