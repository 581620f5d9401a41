// epsilonlab: the desktop application's entry point.
#include <QApplication>

#include "ui/main_window.h"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("EpsilonLab"));
  QApplication::setOrganizationName(QStringLiteral("EpsilonLab"));
  QApplication::setApplicationVersion(QStringLiteral(EPSILON_VERSION));
  epsilon::ui::MainWindow window;
  window.show();
  return QApplication::exec();
}
