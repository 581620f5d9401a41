// epsilonlab: the desktop application's entry point.
#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QScreen>
#include <QTimer>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"

namespace {

// QGuiApplication takes "-session ID" / "--session ID" out of the arguments for X11 session
// management before our parser sees them, so "--session FILE" opened nothing: it is handed
// over as "--session=FILE", which Qt leaves alone.
std::vector<std::string> protectSessionOption(int argc, char* argv[]) {
  std::vector<std::string> args(argv, argv + argc);
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == "--session" || args[i] == "-session") {
      args[i] = "--session=" + args[i + 1];
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  }
  return args;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::vector<std::string> args = protectSessionOption(argc, argv);
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  int count = static_cast<int>(pointers.size());
  QApplication app(count, pointers.data());
  QApplication::setApplicationName(QStringLiteral("EpsilonLab"));
  QApplication::setOrganizationName(QStringLiteral("EpsilonLab"));
  QApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("EpsilonLab: the privacy-utility trade-off of DP-SGD, live."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption session(QStringLiteral("session"), QStringLiteral("Open this session file."),
                                   QStringLiteral("file"));
  const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Start the panel's experiment at once."));
  const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Run this built-in preset at once."),
                                  QStringLiteral("name"));
  const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                      QStringLiteral("Save a picture of the window to this file after --delay ms, then quit."),
                                      QStringLiteral("file"));
  const QCommandLineOption delay(QStringLiteral("delay"), QStringLiteral("Milliseconds before --screenshot (default 3000)."),
                                 QStringLiteral("ms"), QStringLiteral("3000"));
  const QCommandLineOption tab(QStringLiteral("tab"),
                               QStringLiteral("Show this central tab: charts or attack."),
                               QStringLiteral("name"));
  parser.addOptions({session, run, preset, screenshot, delay, tab});
  parser.process(app);

  epsilon::ui::MainWindow::Options options;
  options.offerLastSession = !parser.isSet(session) && !parser.isSet(screenshot);
  options.useSettings = !parser.isSet(screenshot);  // scripted pictures start from the defaults
  epsilon::ui::MainWindow window(options);
  // A screen smaller than the default size (a 1280×720 projector) gets the whole screen.
  if (const QScreen* screen = window.screen()) {
    const QSize available = screen->availableGeometry().size();
    if (window.width() > available.width() || window.height() > available.height())
      window.resize(window.size().boundedTo(available));
  }
  window.show();
  if (parser.isSet(session)) window.openSessionFrom(parser.value(session));
  if (parser.isSet(tab) && !window.showTab(parser.value(tab))) {
    std::fprintf(stderr, "--tab: expected charts or attack, got '%s'\n",
                 qPrintable(parser.value(tab)));
    return 2;
  }
  if (parser.isSet(run)) QTimer::singleShot(0, &window, [&window] { window.startRun(false); });
  if (parser.isSet(preset))
    QTimer::singleShot(0, &window, [&window, name = parser.value(preset)] { window.runPreset(name); });
  if (parser.isSet(screenshot)) {
    QTimer::singleShot(parser.value(delay).toInt(), &window, [&] {
      window.grab().save(parser.value(screenshot));
      QApplication::quit();
    });
  }
  return QApplication::exec();
}
