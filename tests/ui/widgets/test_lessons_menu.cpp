// The Lessons menu: every built-in lesson is listed; choosing one sets the panel to its data
// set, starts one run per sweep point and shows its paragraph and question (the answer only
// after the button).
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include "base/io/lesson_file.h"
#include "base/session/run_model.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/lesson_box.h"
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
  // Without a lesson the question and answer are empty, and an empty label's height for a
  // width is -1: the box fitted them as minimum heights and Qt warned at every start.
  void emptyLessonBoxSizesWithoutWarnings() {
    QTest::failOnWarning(QRegularExpression(QStringLiteral("Negative sizes")));
    LessonBox box;
    box.resize(300, 400);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    auto* question = box.findChild<QLabel*>(QStringLiteral("lessonQuestion"));
    QVERIFY(question);
    QCOMPARE(question->minimumHeight(), 0);
  }

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
    auto* question = w.findChild<QLabel*>(QStringLiteral("lessonQuestion"));
    auto* answer = w.findChild<QLabel*>(QStringLiteral("lessonAnswerText"));
    QVERIFY(text && question && answer);
    QVERIFY(text->toPlainText().contains(lesson.text));
    QVERIFY(question->text().contains(lesson.question.toHtmlEscaped()));
    QVERIFY(answer->text().contains(lesson.answer.toHtmlEscaped()));
    QVERIFY(answer->isHidden());
    w.findChild<QPushButton*>(QStringLiteral("lessonAnswer"))->click();
    QVERIFY(!answer->isHidden());
    w.findChild<QPushButton*>(QStringLiteral("lessonAnswer"))->click();
    QVERIFY(answer->isHidden());
  }

  // Every lesson states its own time, at most 10 minutes (two class hours hold all seven), and
  // the menu says the total.
  void lessonsFitAClassHour() {
    MainWindow w(MainWindow::startupOptions(false, true));
    QMenu* menu = lessonsMenu(w);
    QVERIFY(menu);
    int total = 0;
    int count = 0;
    for (QAction* action : menu->actions()) {
      const QString text = action->text();
      const auto minutes = QRegularExpression(QStringLiteral("\\((\\d+) min\\)$")).match(text);
      if (!minutes.hasMatch()) continue;
      ++count;
      QVERIFY2(minutes.captured(1).toInt() <= 10, qPrintable(text));
      total += minutes.captured(1).toInt();
    }
    QCOMPARE(count, 7);
    QVERIFY2(total <= 70, qPrintable(QString::number(total)));
    const QString summary = QStringLiteral("All 7 lessons: %1 min").arg(total);
    bool shown = false;
    for (QAction* action : menu->actions()) shown |= action->text() == summary;
    QVERIFY2(shown, qPrintable(summary));
  }

  // A lesson whose sweep holds a bad value (a negative clip norm) is a message in the window:
  // nothing aborts, no run starts and the panel keeps its data set.
  void badValueInALessonIsAMessage() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    QFile builtin(QStringLiteral(":/lessons/01-what-clipping-does.json"));
    QVERIFY(builtin.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(builtin.readAll()).object();
    QJsonObject setup = json.value(QStringLiteral("setup")).toObject();
    setup.insert(QStringLiteral("sweep"),
                 QJsonArray{QJsonObject{{"parameter", "clip_norm"}, {"values", QJsonArray{-5}}}});
    setup.insert(QStringLiteral("experiment"),
                 QJsonObject{{"dataset", QJsonObject{{"name", "spiral"}}}});
    json.insert(QStringLiteral("setup"), setup);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("bad.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(json).toJson());
    out.close();

    const QString datasetBefore = w.experimentPanel()->datasetCombo()->currentText();
    const int runsBefore = w.runModel()->rowCount();
    QVERIFY(w.openLesson(file).isEmpty());
    QVERIFY2(w.lastError().contains(QStringLiteral("clip")), qPrintable(w.lastError()));
    QCOMPARE(w.runModel()->rowCount(), runsBefore);
    QCOMPARE(w.experimentPanel()->datasetCombo()->currentText(), datasetBefore);
  }
};

QTEST_MAIN(TestLessonsMenu)
#include "test_lessons_menu.moc"
