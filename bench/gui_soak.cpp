// GUI soak (issue 13): the main window offscreen with live mode driven for N minutes — a
// slider release every 200 ms (each starts a live run that replaces the last), all runs
// cancelled every 7 s, the session saved and opened again every 20 s, a preset started
// every 45 s. A watchdog thread watches a 50 ms heartbeat of the GUI thread and records the
// longest stall; RSS is sampled every 10 s. Fails (exit 1) on a stall > 1 s, or if RSS at
// the end exceeds RSS after the first minute by more than 50 MB. Not a CTest test: run by
// scripts/soak gui [MINUTES].
#include <unistd.h>

#include <QAbstractSlider>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSlider>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "base/session/run_model.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon::ui;

namespace {

constexpr qint64 kMaxStallMs = 1000;
constexpr double kMaxGrowthMb = 50.0;

double residentMb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

// The GUI thread bumps `beat` every 50 ms; the watchdog measures the longest gap.
class Watchdog {
 public:
  explicit Watchdog(std::atomic<qint64>& beat) : m_beat(beat), m_thread([this] { watch(); }) {}
  ~Watchdog() { stop(); }
  void stop() {
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
  }
  qint64 longestStallMs() const { return m_longest.load(); }

 private:
  void watch() {
    while (!m_stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const qint64 gap = now() - m_beat.load();
      m_longest = std::max(m_longest.load(), gap);
    }
  }
  static qint64 now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  std::atomic<qint64>& m_beat;
  std::atomic<bool> m_stop{false};
  std::atomic<qint64> m_longest{0};
  std::thread m_thread;
};

qint64 steadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A release of the noise slider at a new position: what a lecturer dragging it does.
void releaseSlider(ParameterSlider* slider, int tick) {
  QSlider* s = slider->slider();
  const int span = std::max(1, s->maximum() - s->minimum());
  s->setSliderDown(true);
  s->setValue(s->minimum() + (tick * 37) % span);
  s->setSliderDown(false);  // emits sliderReleased: a committed change
}

struct Figures {
  std::vector<std::pair<int, double>> rss;  // (second, MB)
  int releases = 0, cancels = 0, saves = 0, opens = 0, presets = 0;
  QStringList errors;
};

void drive(MainWindow& w, QTemporaryDir& dir, Figures& f, int tick) {
  // tick: one per 200 ms.
  releaseSlider(w.experimentPanel()->noiseSlider(), tick);
  ++f.releases;
  if (tick % 35 == 34) {
    w.controller()->cancelAll();
    ++f.cancels;
  }
  if (tick % 100 == 99) {
    const QString path = dir.filePath(QStringLiteral("soak-session.json"));
    const QString saved = w.saveSessionTo(path);
    if (!saved.isEmpty()) f.errors << QStringLiteral("save: ") + saved;
    ++f.saves;
    const QString opened = w.openSessionFrom(path);
    if (!opened.isEmpty()) f.errors << QStringLiteral("open: ") + opened;
    ++f.opens;
  }
  if (tick % 225 == 224) {
    if (w.runPreset(QStringLiteral("report-fig6-epsilon-epochs")).isEmpty())
      f.errors << w.lastError();
    ++f.presets;
  }
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const double minutes =
      argc > 1 ? std::max(0.2, QString::fromLocal8Bit(argv[1]).toDouble()) : 10.0;
  const int totalTicks = static_cast<int>(minutes * 60 * 5);

  MainWindow::Options options;
  options.useSettings = false;
  options.offerLastSession = false;
  MainWindow w(options);
  w.resize(1280, 800);
  w.show();
  QComboBox* datasets = w.experimentPanel()->datasetCombo();
  datasets->setCurrentIndex(std::max(0, datasets->findText(QStringLiteral("circle"))));
  w.experimentPanel()->setLiveMode(true);

  QTemporaryDir dir;
  std::atomic<qint64> beat{steadyMs()};
  QTimer heartbeat;
  QObject::connect(&heartbeat, &QTimer::timeout, [&] { beat = steadyMs(); });
  heartbeat.start(50);
  Watchdog watchdog(beat);

  Figures figures;
  QElapsedTimer clock;
  clock.start();
  int tick = 0;
  QTimer driver;
  QObject::connect(&driver, &QTimer::timeout, [&] {
    drive(w, dir, figures, tick);
    if (++tick >= totalTicks) app.quit();
  });
  driver.start(200);
  QTimer sampler;
  QObject::connect(&sampler, &QTimer::timeout, [&] {
    figures.rss.emplace_back(static_cast<int>(clock.elapsed() / 1000), residentMb());
  });
  figures.rss.emplace_back(0, residentMb());
  sampler.start(10'000);
  app.exec();
  watchdog.stop();  // shutting down is not a stall
  w.controller()->cancelAll();
  figures.rss.emplace_back(static_cast<int>(clock.elapsed() / 1000), residentMb());

  std::printf(
      "gui soak: %.1f min, %d slider releases, %d cancels, %d saves, %d opens, %d presets, %d runs "
      "in the table\n",
      minutes, figures.releases, figures.cancels, figures.saves, figures.opens, figures.presets,
      w.runModel()->rowCount());
  std::printf("RSS curve (s: MB):");
  for (const auto& [second, mb] : figures.rss) std::printf(" %d: %.1f", second, mb);
  double afterMinute = figures.rss.front().second;
  for (const auto& [second, mb] : figures.rss) {
    if (second <= 60) afterMinute = mb;
  }
  const double end = figures.rss.back().second;
  std::printf(
      "\nRSS start %.1f MB, after 1 min %.1f MB, end %.1f MB (growth %.1f MB, limit %.0f)\n",
      figures.rss.front().second, afterMinute, end, end - afterMinute, kMaxGrowthMb);
  std::printf("longest GUI-thread stall: %lld ms (limit %lld)\n",
              static_cast<long long>(watchdog.longestStallMs()),
              static_cast<long long>(kMaxStallMs));
  for (const QString& e : figures.errors) std::printf("error: %s\n", qPrintable(e));
  const bool ok = watchdog.longestStallMs() <= kMaxStallMs && end - afterMinute <= kMaxGrowthMb &&
                  figures.errors.isEmpty();
  std::printf("gui soak: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
