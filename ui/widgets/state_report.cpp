#include "ui/widgets/state_report.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QSaveFile>
#include <QScreen>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include "base/session/run_model.h"
#include "base/session/session.h"
#include "ui/charts/run_charts.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/focus_view.h"
#include "ui/widgets/font_size_control.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"

namespace epsilon::ui {

namespace {

constexpr int kIntervalMs = 500;

QJsonObject rectJson(const QRect& r) {
  return {{"x", r.x()}, {"y", r.y()}, {"width", r.width()}, {"height", r.height()}};
}

QJsonArray runsJson(MainWindow* w) {
  QJsonArray runs;
  for (const RunRecord& run : w->runModel()->runs()) {
    runs.append(QJsonObject{
        {"id", run.id},
        {"name", run.name},
        {"dataset", QString::fromStdString(run.config.dataset.name)},
        {"status", runStatusName(run.status)},
        {"visible", run.visible},
        {"evals", static_cast<int>(run.evals.size())},
        {"onCharts", w->chartPanel()->charts()->pointCount(ChartKind::AccuracyVsEpoch, run.id)}});
  }
  return runs;
}

// The central tab in front, and where the Charts tab's label is (a script clicks it).
QJsonObject tabsJson(MainWindow* w) {
  QTabWidget* tabs = w->centralTabs();
  QJsonObject json{{"current", tabs->tabText(tabs->currentIndex()).remove(QLatin1Char('&'))}};
  const int charts = tabs->indexOf(w->chartPanel());
  if (charts >= 0) {
    const QRect rect = tabs->tabBar()->tabRect(charts);
    json.insert("charts",
                rectJson(QRect(tabs->tabBar()->mapToGlobal(rect.topLeft()), rect.size())));
  }
  return json;
}

QJsonValue dialogJson() {
  auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
  if (!box) return QJsonValue::Null;
  return QJsonObject{{"title", box->windowTitle()}, {"text", box->text()}};
}

QJsonObject lessonJson(MainWindow* w) {
  auto* question = w->findChild<QLabel*>(QStringLiteral("lessonQuestion"));
  auto* answer = w->findChild<QLabel*>(QStringLiteral("lessonAnswerText"));
  if (!question || !answer) return {};
  QJsonObject json{{"question", question->isVisible() ? question->text() : QString()},
                   {"answer", answer->isVisible() ? answer->text() : QString()}};
  if (auto* button = w->findChild<QWidget*>(QStringLiteral("lessonAnswer"));
      button && button->isVisible())
    json.insert("answerButton", rectJson(QRect(button->mapToGlobal(QPoint(0, 0)), button->size())));
  return json;
}

}  // namespace

StateReport::StateReport(MainWindow* window, QString file)
    : QObject(window), m_window(window), m_file(std::move(file)), m_timer(new QTimer(this)) {
  m_timer->setInterval(kIntervalMs);
  connect(m_timer, &QTimer::timeout, this, &StateReport::write);
  m_timer->start();
}

QJsonObject StateReport::state() const {
  MainWindow* w = m_window;
  QJsonObject window = rectJson(w->frameGeometry());
  window.insert("fullScreen", w->isFullScreen());
  const QSize screen = w->screen() ? w->screen()->size() : QSize();
  QSlider* noise = w->experimentPanel()->noiseSlider()->slider();
  QJsonObject noiseJson = rectJson(QRect(noise->mapToGlobal(QPoint(0, 0)), noise->size()));
  noiseJson.insert("value", w->experimentPanel()->noiseSlider()->value());
  // Whole in the Experiment panel's scrolled view (else a script scrolls the panel first).
  noiseJson.insert("shown", noise->isVisible() && noise->visibleRegion() == QRegion(noise->rect()));
  QWidget* panel = w->experimentPanel()->parentWidget();  // the scroll area's viewport
  noiseJson.insert("panel", rectJson(QRect(panel->mapToGlobal(QPoint(0, 0)), panel->size())));
  return {{"window", window},
          {"screen", QJsonObject{{"width", screen.width()}, {"height", screen.height()}}},
          {"presentation", w->chartPanel()->charts()->presentationMode()},
          {"focusView", w->focusView()->isOn()},
          {"chartTextStep", w->fontSize()->step()},
          {"modified", w->session()->isModified()},
          {"setAside", w->session()->runsSetAside()},
          {"dialog", dialogJson()},
          {"noise", noiseJson},
          {"lesson", lessonJson(w)},
          {"tabs", tabsJson(w)},
          {"runs", runsJson(w)}};
}

void StateReport::write() const {
  // Atomic: a reader never sees half a file.
  QSaveFile file(m_file);
  if (!file.open(QIODevice::WriteOnly)) return;
  file.write(QJsonDocument(state()).toJson(QJsonDocument::Compact));
  file.commit();
}

}  // namespace epsilon::ui
