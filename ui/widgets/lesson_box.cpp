#include "ui/widgets/lesson_box.h"

#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "base/io/lesson_file.h"

namespace epsilon::ui {

namespace {

QLabel* wrappedLabel(const QString& name) {
  auto* label = new QLabel;
  label->setObjectName(name);
  label->setWordWrap(true);
  label->setTextFormat(Qt::RichText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

// Lines of the paragraph that stay visible above the question however short the dock: while
// the answer is shown, one (the class has read it; the answer needs the height at 1024×768).
constexpr int kParagraphLines = 3;
constexpr int kParagraphLinesWithAnswer = 1;

}  // namespace

LessonBox::LessonBox(QWidget* parent)
    : QWidget(parent),
      m_text(new QTextBrowser),
      m_question(wrappedLabel(QStringLiteral("lessonQuestion"))),
      m_answer(wrappedLabel(QStringLiteral("lessonAnswerText"))),
      m_button(new QPushButton(tr("Show the answer"))) {
  m_text->setObjectName(QStringLiteral("lessonText"));
  m_button->setObjectName(QStringLiteral("lessonAnswer"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_text, 1);
  layout->addWidget(m_question);
  layout->addWidget(m_answer);
  layout->addWidget(m_button);
  m_answer->hide();
  connect(m_button, &QPushButton::clicked, this, [this] { showAnswer(!answerShown()); });
}

void LessonBox::setLesson(const Lesson& lesson) {
  m_text->setHtml(QStringLiteral("<h3>%1 <small>(%2)</small></h3><p>%3</p>")
                      .arg(lesson.title.toHtmlEscaped(), tr("%n min", nullptr, lesson.minutes),
                           lesson.text.toHtmlEscaped()));
  m_question->setText(
      QStringLiteral("<b>%1</b> %2").arg(tr("Question:"), lesson.question.toHtmlEscaped()));
  m_answer->setText(
      QStringLiteral("<b>%1</b> %2").arg(tr("Answer:"), lesson.answer.toHtmlEscaped()));
  showAnswer(false);
  fitLabels();
}

bool LessonBox::answerShown() const {
  return !m_answer->isHidden();
}

void LessonBox::showAnswer(bool shown) {
  // Only the answer's label appears: the paragraph above keeps its scroll position.
  m_answer->setVisible(shown);
  m_button->setText(shown ? tr("Hide the answer") : tr("Show the answer"));
  fitLabels();
}

void LessonBox::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // The question's and the answer's heights follow the width: a dock's layout does not ask
  // a label's height for its width, so each gets it as its minimum, and the box asks again.
  if (width() != m_fittedWidth) {
    m_fittedWidth = width();
    fitLabels();
  }
}

void LessonBox::fitLabels() {
  const QMargins margins = contentsMargins() + layout()->contentsMargins();
  const int width = std::max(1, this->width() - margins.left() - margins.right());
  // A label that never had a text answers -1 (no lesson yet): no minimum then.
  m_question->setMinimumHeight(std::max(0, m_question->heightForWidth(width)));
  m_answer->setMinimumHeight(std::max(0, m_answer->heightForWidth(width)));
  const int lines = answerShown() ? kParagraphLinesWithAnswer : kParagraphLines;
  m_text->setMinimumHeight(lines * m_text->fontMetrics().lineSpacing() + 2 * m_text->frameWidth() +
                           static_cast<int>(2 * m_text->document()->documentMargin()));
  updateGeometry();
}

void LessonBox::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) fitLabels();
}

}  // namespace epsilon::ui
