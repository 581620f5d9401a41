// How the GUI thread fares while four runs train on full Fashion-MNIST: the gaps between
// ticks of a 16 ms timer (a smooth window needs them near 16 ms), and the time to resize and
// repaint the whole window. With --drag-fix-epsilon, the target-ε slider is dragged the whole
// time with "Fix ε" on and the tight (PLD) accountant, so every step of the drag asks for a
// calibration (about a second each on 2 cores), as a user exploring the budget does.
// Beside each gap, the GUI thread's own CPU time in it: a long gap with little CPU time was
// spent waiting: for a core (its time on a run queue is reported too) or for a lock.
// Reports figures; never fails on a time.
//   bench_gui_responsiveness [SECONDS] [--drag-fix-epsilon]
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSlider>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "base/session/run_model.h"
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

}  // namespace

int main(int argc, char* argv[]) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen")
                                                                  : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
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
  double lastCpu = 0;
  QElapsedTimer clock;
  clock.start();
  double last = 0;
  QTimer tick;
  tick.setInterval(16);
  QObject::connect(&tick, &QTimer::timeout, [&] {
    const double now = clock.nsecsElapsed() / 1e6;
    const double cpu = threadCpuMs();
    const double wait = runQueueWaitMs();
    if (last > 0) {
      gaps.push_back(now - last);
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
  std::sort(gaps.begin(), gaps.end());
  std::sort(busy.begin(), busy.end());
  std::sort(queued.begin(), queued.end());
  std::sort(repaints.begin(), repaints.end());
  auto pct = [](const std::vector<double>& v, double p) {
    return v.empty() ? 0.0 : v[std::min(v.size() - 1, size_t(p * v.size()))];
  };
  std::printf("runs training at the end: %d of 4\n", running);
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
  window.close();
  return 0;
}
