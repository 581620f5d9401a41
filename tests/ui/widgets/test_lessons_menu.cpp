// The Lessons menu: every built-in lesson is listed; choosing one sets the panel to its data
// set, starts one run per sweep point and shows its paragraph and question (the answer only
// after the button).
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTest>
#include <QTextBrowser>

#include "ui/charts/run_model.h"
#include "ui/io/lesson_file.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon::ui;

namespace {
QMenu* lessonsMenu(MainWindow& w) {
  for (QAction* a : w.menuBar()->actions())
    if (a->menu() && a->text().remove(QLatin1Char('&')) == QStringLiteral("Lessons"))
      return a->menu();
  return nullptr;
}
}  // namespace

class TestLessonsMenu : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void menuListsTheLessonsAndOpensOne() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    QMenu* menu = lessonsMenu(w);
    QVERIFY(menu);
    QVERIFY(menu->actions().size() >= 5);

    const QString file = QStringLiteral(":/lessons/01-what-clipping-does.json");
    const Lesson lesson = readLessonFile(file);
    const QList<int> ids = w.openLesson(file);
    w.controller()->cancelAll();
    QCOMPARE(static_cast<std::size_t>(ids.size()), lessonPoints(lesson).size());
    QCOMPARE(w.experimentPanel()->datasetCombo()->currentText(), lesson.dataset);
    auto* text = w.findChild<QTextBrowser*>(QStringLiteral("lessonText"));
    QVERIFY(text);
    QVERIFY(text->toPlainText().contains(lesson.question));
    QVERIFY(!text->toPlainText().contains(lesson.answer));
    w.findChild<QPushButton*>(QStringLiteral("lessonAnswer"))->click();
    QVERIFY(text->toPlainText().contains(lesson.answer));
  }
};

QTEST_MAIN(TestLessonsMenu)
#include "test_lessons_menu.moc"
