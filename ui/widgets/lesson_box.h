// The Lesson dock's contents: the lesson's title and paragraph (scrolling when long), then its
// question and, behind a button, its answer, which never scroll: the box asks for the height
// they need at its width (as the labels' minimum heights), so at 1024×768, in normal and
// presentation mode, both are on screen, and showing the answer keeps the paragraph where it was.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace epsilon::ui {

struct Lesson;

class LessonBox : public QWidget {
  Q_OBJECT
 public:
  explicit LessonBox(QWidget* parent = nullptr);

  void setLesson(const Lesson& lesson);  // the answer hidden
  void showAnswer(bool shown);
  bool answerShown() const;

  QTextBrowser* text() const { return m_text; }
  QLabel* question() const { return m_question; }
  QLabel* answer() const { return m_answer; }
  QPushButton* answerButton() const { return m_button; }

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void fitLabels();

  QTextBrowser* m_text;
  QLabel* m_question;
  QLabel* m_answer;
  QPushButton* m_button;
  int m_fittedWidth = -1;
};

}  // namespace epsilon::ui
