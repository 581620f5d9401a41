#include "ui/widgets/font_size_control.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <algorithm>

namespace epsilon::ui {

namespace {
const char* const kSettingsKey = "chartFontStep";
}  // namespace

FontSizeControl::FontSizeControl(bool remember, QObject* parent)
    : QObject(parent), m_remember(remember) {
  if (m_remember)
    m_step = std::clamp(QSettings().value(kSettingsKey, 0).toInt(), kSmallest, kLargest);
}

void FontSizeControl::setStep(int step) {
  step = std::clamp(step, kSmallest, kLargest);
  if (step == m_step) return;
  m_step = step;
  if (m_remember) QSettings().setValue(kSettingsKey, m_step);
  updateActions();
  Q_EMIT stepChanged(m_step);
}

QMenu* FontSizeControl::menu(QWidget* parent) {
  auto* menu = new QMenu(tr("Chart &text size"), parent);
  m_larger = menu->addAction(tr("&Larger"), this, [this] { setStep(m_step + 1); });
  // Ctrl++ is typed as Ctrl+= on most keyboards: both.
  m_larger->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
  m_smaller = menu->addAction(tr("&Smaller"), this, [this] { setStep(m_step - 1); });
  m_smaller->setShortcuts(QKeySequence::ZoomOut);
  m_reset = menu->addAction(tr("&Reset"), this, [this] { setStep(0); });
  m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  if (QWidget* window = parent->window()) window->addActions({m_larger, m_smaller, m_reset});
  updateActions();
  return menu;
}

void FontSizeControl::updateActions() {
  if (!m_larger) return;
  m_larger->setEnabled(m_step < kLargest);
  m_smaller->setEnabled(m_step > kSmallest);
  m_reset->setEnabled(m_step != 0);
  m_reset->setText(m_step == 0 ? tr("&Reset")
                               : tr("&Reset (now %1%2 pt)")
                                     .arg(m_step > 0 ? QStringLiteral("+") : QString())
                                     .arg(m_step));
}

}  // namespace epsilon::ui
