// ExperimentPanel: the check before a run (train::checkConfig) shown at the controls — the
// control a problem concerns gets a red (impossible) or amber (warning) frame and the plain
// message, the messages are listed above Run, and Run is disabled while any is impossible.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "core/train/config_check.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/parameter_slider.h"

namespace epsilon::ui {

QWidget* ExperimentPanel::controlFor(const std::string& field) const {
  for (const auto& [name, control] : boundControls()) {
    if (field != name) continue;
    if (auto* slider = qobject_cast<ParameterSlider*>(control)) return slider->spinBox();
    return control;
  }
  const std::pair<const char*, QWidget*> others[] = {
      {"privacy.noise_multiplier", m_sigma->spinBox()}, {"privacy.clip_norm", m_clip->spinBox()}};
  for (const auto& [name, widget] : others)
    if (field == name) return widget;
  return nullptr;
}

void ExperimentPanel::refreshIssues() {
  for (QWidget* w : m_flaggedControls) w->setStyleSheet({});
  m_flaggedControls.clear();
  const auto issues = train::checkConfig(config(), trainSize());
  QStringList lines;
  for (const auto& issue : issues) {
    const bool impossible = issue.severity == train::IssueSeverity::Impossible;
    const QString colour = impossible ? QStringLiteral("#c00") : QStringLiteral("#b36b00");
    const QString message = QString::fromStdString(issue.message);
    lines << QStringLiteral("<span style='color:%1'>%2 %3</span>")
                 .arg(colour, impossible ? QStringLiteral("✖") : QStringLiteral("⚠"),
                      message.toHtmlEscaped());
    if (QWidget* control = controlFor(issue.field)) {
      control->setStyleSheet(QStringLiteral("border: 2px solid %1;").arg(colour));
      m_flaggedControls << control;
    }
  }
  m_issues->setText(lines.join(QStringLiteral("<br>")));
  m_issues->setVisible(!lines.isEmpty());
  m_run->setEnabled(m_modelProblem.isEmpty() && !train::hasImpossible(issues));
}

}  // namespace epsilon::ui
