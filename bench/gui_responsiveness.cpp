// How the GUI thread fares while four runs train on full Fashion-MNIST: the gaps between
// ticks of a 16 ms timer (a smooth window needs them near 16 ms), and the time to resize and
// repaint the whole window. With --drag-fix-epsilon, the target-ε slider is dragged the whole
// time with "Fix ε" on and the tight (PLD) accountant, so every step of the drag asks for a
// calibration (about a second each on 2 cores), as a user exploring the budget does.
// Beside each gap, the GUI thread's own CPU time in it: a long gap with little CPU time was
// spent waiting: for a core (its time on a run queue is reported too) or for a lock.
// The measurement starts one second after the window is shown (its first paint and the runs'
// first steps are timed apart). Last come the causes: the events that kept the GUI thread busy
// for 4 ms or more, by receiver and event type; the paints by widget; and the longest gaps with
// the work done in each. Reports figures; never fails on a time.
//   bench_gui_responsiveness [SECONDS] [--drag-fix-epsilon]
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSlider>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <vector>

#include "base/session/run_model.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"

namespace {

double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// The time the GUI thread has waited on a run queue for a core (Linux's schedstat; 0 elsewhere).
double runQueueWaitMs() {
  std::FILE* file = std::fopen("/proc/thread-self/schedstat", "r");
  if (!file) return 0;
  unsigned long long running = 0, waiting = 0;
  const int read = std::fscanf(file, "%llu %llu", &running, &waiting);
  std::fclose(file);
  return read == 2 ? waiting / 1e6 : 0;
}

// Times every event the GUI thread dispatches from its loop (not the ones sent from inside
// another), and keeps the long ones by the receiver's class, its object name and the event type.
class TimedApplication : public QApplication {
 public:
  using QApplication::QApplication;
  struct Cost {
    int count = 0;
    double ms = 0;
  };
  std::map<QByteArray, Cost> longEvents;
  std::map<QByteArray, Cost> paints;  // every paint event, by the painted widget's class
  // Every event of 1 ms or more from the loop, and every paint of 1 ms or more: when it ended
  // (on `clock`), how long it took, what it was. The longest gaps are explained from it.
  struct Timed {
    double end = 0;
    double ms = 0;
    QByteArray what;
  };
  std::vector<Timed> timeline;
  QElapsedTimer clock;

  bool notify(QObject* receiver, QEvent* event) override {
    if (event->type() == QEvent::Paint) {  // paint events do not nest: a parent paints first
      QElapsedTimer timer;
      timer.start();
      ++m_depth;
      const bool done = QApplication::notify(receiver, event);
      --m_depth;
      QByteArray name;
      int level = 0;  // the widget and two of its parents, by class and object name
      for (QObject* o = receiver; o && level < 3; o = o->parent(), ++level) {
        if (level > 0) name += " < ";
        name += o->metaObject()->className();
        if (!o->objectName().isEmpty()) name += '#' + o->objectName().toUtf8();
      }
      Cost& cost = paints[name];
      const double ms = timer.nsecsElapsed() / 1e6;
      ++cost.count;
      cost.ms += ms;
      if (ms >= 1) timeline.push_back({clock.nsecsElapsed() / 1e6, ms, "  paint " + name});
      return done;
    }
    if (m_depth++ > 0) {
      const bool done = QApplication::notify(receiver, event);
      --m_depth;
      return done;
    }
    QByteArray key = QByteArray(receiver->metaObject()->className()) + ' ' +
                     receiver->objectName().toUtf8() + " event " +
                     QByteArray::number(int(event->type()));
    QElapsedTimer timer;
    timer.start();
    const bool done = QApplication::notify(receiver, event);
    --m_depth;
    const double ms = timer.nsecsElapsed() / 1e6;
    if (ms >= 1) timeline.push_back({clock.nsecsElapsed() / 1e6, ms, key});
    if (ms >= 4) {
      Cost& cost = longEvents[key];
      ++cost.count;
      cost.ms += ms;
    }
    return done;
  }

 private:
  int m_depth = 0;
};

// One gap between two ticks: when it began and ended (on the application's clock), and the GUI
// thread's time working and waiting for a core in it (ms).
struct Span {
  double from = 0, to = 0, working = 0, waiting = 0;
};

// The `rows` costliest of `costs`, costliest first.
void printCosts(const char* title, const std::map<QByteArray, TimedApplication::Cost>& costs,
                std::size_t rows) {
  std::vector<std::pair<double, QByteArray>> costliest;
  for (const auto& [what, cost] : costs) costliest.emplace_back(cost.ms, what);
  std::sort(costliest.rbegin(), costliest.rend());
  std::printf("%s: count, ms in all\n", title);
  for (std::size_t i = 0; i < std::min(rows, costliest.size()); ++i)
    std::printf("  %-90s %5d %7.1f\n", costliest[i].second.constData(),
                costs.at(costliest[i].second).count, costliest[i].first);
}

// Where the GUI thread's time went: its long events, its paints by widget, and the longest
// gaps (`spans`, longest first) with the work done in each.
void reportCauses(const TimedApplication& app, const std::vector<Span>& spans) {
  printCosts("events of 4 ms or more (receiver, object, event type)", app.longEvents, 12);
  printCosts("paint events by widget", app.paints, 10);
  std::printf("the longest gaps and the GUI thread's work of 1 ms or more in them:\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(8, spans.size()); ++i) {
    const auto [from, to, working, waiting] = spans[i];
    std::printf("  %.1f ms gap at %.2f s: %.1f ms working, %.1f ms waiting for a core\n", to - from,
                to / 1000, working, waiting);
    for (const auto& t : app.timeline)
      if (t.end > from && t.end - t.ms < to)
        std::printf("    %5.1f ms  %s\n", t.ms, t.what.constData());
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen")
                                                                  : qgetenv("QT_QPA_PLATFORM"));
  TimedApplication app(argc, argv);
  const int seconds = argc > 1 ? std::max(5, atoi(argv[1])) : 20;
  const bool drag = argc > 2 && QByteArray(argv[2]) == "--drag-fix-epsilon";
  epsilon::ui::MainWindow::Options options;
  options.useSettings = false;
  epsilon::ui::MainWindow window(options);
  window.resize(1500, 950);
  window.show();
  QComboBox* datasets = window.experimentPanel()->datasetCombo();
  const int fashion = datasets->findText(QStringLiteral("fashion-mnist"));
  if (fashion < 0) {
    std::printf("fashion-mnist is not installed; nothing to measure\n");
    return 0;
  }
  datasets->setCurrentIndex(fashion);
  window.experimentPanel()->epochsSlider()->setValue(3);
  for (int i = 0; i < 4; ++i) window.startRun(false);
  epsilon::ui::ExperimentPanel* panel = window.experimentPanel();
  if (drag) {
    panel->accountantCombo()->setCurrentIndex(
        panel->accountantCombo()->findText(QStringLiteral("PLD"), Qt::MatchContains));
    panel->targetModeBox()->setChecked(true);
  }
  QSlider* target = panel->targetEpsilonSlider()->slider();
  int calibrations = 0;

  std::vector<double> gaps;
  std::vector<double> busy;    // the GUI thread's CPU time in each gap
  std::vector<double> queued;  // its time waiting on a run queue in each gap
  double lastQueued = 0;
  std::vector<double> repaints;
  // The first second after the window is shown — its first paint, the first chart of each run,
  // the runs' first steps — is not the drag: its longest gap is reported on its own.
  double firstSecondLongest = 0;
  {
    QElapsedTimer since;
    since.start();
    double previous = 0;
    QTimer warmTick;
    warmTick.setInterval(16);
    QEventLoop firstSecond;
    QObject::connect(&warmTick, &QTimer::timeout, [&] {
      const double now = since.nsecsElapsed() / 1e6;
      firstSecondLongest = std::max(firstSecondLongest, now - previous);
      previous = now;
      if (now > 1000) firstSecond.quit();
    });
    warmTick.start();
    firstSecond.exec();
  }
  double lastCpu = 0;
  QElapsedTimer& clock = app.clock;
  clock.start();
  app.timeline.clear();
  std::vector<Span> spans;
  double last = 0;
  QTimer tick;
  tick.setInterval(16);
  app.longEvents.clear();  // the first second is not in these
  app.paints.clear();
  const int redrawsBefore = window.chartPanel()->redrawCount();
  QObject::connect(&tick, &QTimer::timeout, [&] {
    const double now = clock.nsecsElapsed() / 1e6;
    const double cpu = threadCpuMs();
    const double wait = runQueueWaitMs();
    if (last > 0) {
      gaps.push_back(now - last);
      spans.push_back({last, now, cpu - lastCpu, wait - lastQueued});
      busy.push_back(cpu - lastCpu);
      queued.push_back(wait - lastQueued);
    }
    if (last > 0 && now - last > 100)
      std::printf("  a %.0f ms gap at %.1f s (%.0f ms working, %.0f ms waiting for a core)\n",
                  now - last, now / 1000, cpu - lastCpu, wait - lastQueued);
    last = now;
    lastCpu = cpu;
    lastQueued = wait;
    if (drag) {  // one slider position per tick, back and forth over the range
      const int span = target->maximum() - target->minimum();
      const int phase = static_cast<int>(gaps.size()) % (2 * span);
      target->setValue(target->minimum() + (phase < span ? phase : 2 * span - phase));
      ++calibrations;
    }
    if (!drag && gaps.size() % 30 == 0) {  // every ~half second: resize and repaint everything
      QElapsedTimer t;
      t.start();
      window.resize(window.width() == 1500 ? 1400 : 1500, 950);
      window.repaint();
      repaints.push_back(t.nsecsElapsed() / 1e6);
    }
    if (now > seconds * 1000.0) app.quit();
  });
  tick.start();
  app.exec();
  int running = 0;
  for (const auto& r : window.runModel()->runs())
    running += r.status == epsilon::ui::RunStatus::Running;
  double busyTotal = 0;
  for (double b : busy) busyTotal += b;
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.to - a.from > b.to - b.from; });
  std::sort(gaps.begin(), gaps.end());
  std::sort(busy.begin(), busy.end());
  std::sort(queued.begin(), queued.end());
  std::sort(repaints.begin(), repaints.end());
  auto pct = [](const std::vector<double>& v, double p) {
    return v.empty() ? 0.0 : v[std::min(v.size() - 1, size_t(p * v.size()))];
  };
  std::printf(
      "the first second after the window was shown (not measured below): longest gap "
      "%.1f ms\n",
      firstSecondLongest);
  std::printf("runs training at the end: %d of 4; the run charts were redrawn %d times\n", running,
              window.chartPanel()->redrawCount() - redrawsBefore);
  if (drag)
    std::printf("dragged the target-ε slider (Fix ε on, PLD): %d positions asked\n", calibrations);
  std::printf(
      "timer gaps (ms, 16 ms asked): median %.1f  p95 %.1f  p99 %.1f  max %.1f  (%zu ticks)\n",
      pct(gaps, 0.5), pct(gaps, 0.95), pct(gaps, 0.99), gaps.empty() ? 0.0 : gaps.back(),
      gaps.size());
  std::printf("GUI thread CPU per gap (ms): median %.1f  p99 %.1f  max %.1f  (%.0f ms in all)\n",
              pct(busy, 0.5), pct(busy, 0.99), busy.empty() ? 0.0 : busy.back(), busyTotal);
  std::printf("GUI thread waiting for a core per gap (ms): median %.1f  p99 %.1f  max %.1f\n",
              pct(queued, 0.5), pct(queued, 0.99), queued.empty() ? 0.0 : queued.back());
  std::printf("resize + full repaint (ms): median %.1f  p95 %.1f  max %.1f  (%zu times)\n",
              pct(repaints, 0.5), pct(repaints, 0.95), repaints.empty() ? 0.0 : repaints.back(),
              repaints.size());
  reportCauses(app, spans);
  window.close();
  return 0;
}
