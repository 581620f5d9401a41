// Scattering features of a data set: computed once, then served from memory and from the
// disk cache (keyed by content, not name); a truncated or corrupted cache file is detected,
// recomputed and rewritten, and so is one from another version of the transform; a read from
// disk reports progress and can be stopped; and a scattering preset trains on the features end
// to end.
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "core/common/errors.h"
#include "core/train/feature_cache.h"
#include "core/train/trainer.h"

using namespace epsilon;
using namespace epsilon::train;
namespace fs = std::filesystem;

namespace {

// Two classes of 12×12 images: a bright horizontal or vertical bar at a varying place.
data::Dataset bars(int trainSize, int testSize) {
  data::Dataset d;
  d.name = "bars";
  d.shape = data::SampleShape::image(1, 12, 12);
  d.classNames = {"horizontal", "vertical"};
  auto fill = [](data::Split& s, int n, int offset) {
    s.features = data::FeatureMatrix::Zero(n, 144);
    for (int i = 0; i < n; ++i) {
      const int label = (i + offset) % 2, at = 2 + (i * 7 + offset) % 8;
      for (int k = 1; k < 11; ++k) s.features(i, label ? k * 12 + at : at * 12 + k) = 1.0f;
      s.labels.push_back(label);
    }
  };
  fill(d.train, trainSize, 0);
  fill(d.test, testSize, 1);
  return d;
}

}  // namespace

class TestFeatureCache : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  FeatureCacheOptions options() const { return {fs::path(m_dir.path().toStdString()), true, true}; }

 private Q_SLOTS:
  void init() { clearFeatureMemoryCache(); }

  void computedThenMemoryThenDisk() {
    const data::Dataset raw = bars(40, 10);
    FeatureSource source{};
    long long lastDone = 0;
    const auto first = scatteringFeatures(
        raw, {}, options(),
        [&](long long done, long long total) {
          QCOMPARE(total, 50LL);
          lastDone = std::max(lastDone, done);
        },
        &source);
    QCOMPARE(int(source), int(FeatureSource::Computed));
    QCOMPARE(lastDone, 50LL);
    QCOMPARE(first->shape, data::SampleShape::image(81, 3, 3));
    QCOMPARE(first->train.labels, raw.train.labels);
    QCOMPARE(first->test.size(), Eigen::Index{10});

    const auto again = scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Memory));
    QCOMPARE(again.get(), first.get());

    clearFeatureMemoryCache();
    data::Dataset renamed = raw;  // same content under another name: same cache entry
    renamed.name = "/some/folder";
    const auto fromDisk = scatteringFeatures(renamed, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Disk));
    QVERIFY(fromDisk->train.features == first->train.features);
    QVERIFY(fromDisk->test.features == first->test.features);
  }

  void contentChangesTheKey() {
    const data::Dataset a = bars(40, 10);
    data::Dataset b = a;
    QCOMPARE(datasetContentHash(a), datasetContentHash(b));
    b.train.features(3, 5) += 1e-6f;
    QVERIFY(datasetContentHash(a) != datasetContentHash(b));
    data::Dataset c = a;
    c.train.labels[0] = 1 - c.train.labels[0];
    QVERIFY(datasetContentHash(a) != datasetContentHash(c));
  }

  void corruptOrTruncatedFilesAreRecomputed_data() {
    QTest::addColumn<bool>("truncate");
    QTest::newRow("truncated") << true;
    QTest::newRow("one byte flipped") << false;
  }
  void corruptOrTruncatedFilesAreRecomputed() {
    QFETCH(bool, truncate);
    const data::Dataset raw = bars(30, 6);
    FeatureSource source{};
    const auto reference = scatteringFeatures(raw, {}, options(), {}, &source);
    fs::path file;
    for (const auto& entry : fs::directory_iterator(options().directory))
      if (entry.path().filename().string().find([&] {
            char hex[17];
            std::snprintf(hex, sizeof hex, "%016llx",
                          static_cast<unsigned long long>(datasetContentHash(raw)));
            return std::string(hex);
          }()) != std::string::npos)
        file = entry.path();
    QVERIFY(!file.empty());
    const auto size = fs::file_size(file);
    if (truncate) {
      fs::resize_file(file, size - 100);
    } else {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(std::streamoff(size / 2));
      char byte = 0;
      f.read(&byte, 1);
      byte = char(byte ^ 0x10);
      f.seekp(std::streamoff(size / 2));
      f.write(&byte, 1);
    }
    clearFeatureMemoryCache();
    const auto recomputed = scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Computed));
    QVERIFY(recomputed->train.features == reference->train.features);
    QCOMPARE(fs::file_size(file), size);  // rewritten whole
    clearFeatureMemoryCache();
    scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Disk));
  }

  // Features from another implementation of the transform are never reused: its version is
  // in the file's name and in its header, and a header naming another version is recomputed.
  void anotherImplementationVersionIsRecomputed() {
    const data::Dataset raw = bars(20, 4);
    FeatureSource source{};
    const auto reference = scatteringFeatures(raw, {}, options(), {}, &source);
    char name[96];
    std::snprintf(name, sizeof name, "scattering-v%d-J2-L8-%016llx.bin",
                  nn::kScatteringImplementation,
                  static_cast<unsigned long long>(datasetContentHash(raw)));
    const fs::path file = options().directory / name;
    QVERIFY2(fs::exists(file), name);
    {
      // The header: 8 bytes of magic, the 64-bit content hash, then the version (int32).
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      const std::int32_t older = nn::kScatteringImplementation - 1;
      f.seekp(16);
      f.write(reinterpret_cast<const char*>(&older), sizeof older);
    }
    clearFeatureMemoryCache();
    const auto recomputed = scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Computed));
    QVERIFY(recomputed->train.features == reference->train.features);
    clearFeatureMemoryCache();
    scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Disk));  // rewritten with the current version
  }

  void refusesFlatVectors() {
    data::Dataset flat = bars(4, 2);
    flat.shape = data::SampleShape::features(144);
    QVERIFY_THROWS_EXCEPTION(ModelError, scatteringFeatures(flat, {}, options()));
  }

  // A run cancelled while its features are computed stops there (the GUI cancels runs that
  // are replaced or removed), without caching a partial result.
  void cancelStopsFeatureComputation() {
    qputenv("XDG_CACHE_HOME", m_dir.path().toUtf8());
    auto raw = std::make_shared<const data::Dataset>(bars(640, 64));
    ExperimentConfig config;
    config.model.preset = "scatter-linear";
    config.training.lotSize = 32;
    const std::atomic<bool> cancel{true};
    const RunResult result = Trainer(config, raw).run({}, &cancel);
    QCOMPARE(int(result.status), int(RunStatus::Cancelled));
    QVERIFY2(result.message.find("features") != std::string::npos, result.message.c_str());
    FeatureSource source{};
    scatteringFeatures(*raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Computed));
  }

  // Features read back from disk report the rows read, and a callback that throws (a run
  // cancelled meanwhile) stops the read: nothing is kept, the file stays for the next run.
  void aDiskReadReportsProgressAndCanBeStopped() {
    const data::Dataset raw = bars(40, 10);
    scatteringFeatures(raw, {}, options());
    clearFeatureMemoryCache();
    FeatureSource source{};
    long long lastDone = 0;
    scatteringFeatures(
        raw, {}, options(),
        [&](long long done, long long total) {
          QCOMPARE(total, 50LL);
          QVERIFY(done >= lastDone);
          lastDone = done;
        },
        &source);
    QCOMPARE(int(source), int(FeatureSource::Disk));
    QCOMPARE(lastDone, 50LL);

    clearFeatureMemoryCache();
    struct Stop {};
    QVERIFY_THROWS_EXCEPTION(
        Stop, scatteringFeatures(raw, {}, options(), [](long long, long long) { throw Stop{}; }));
    scatteringFeatures(raw, {}, options(), {}, &source);
    QCOMPARE(int(source), int(FeatureSource::Disk));
  }

  // scatter-linear through the Trainer: features are prepared (status events say so), the
  // model sees 81×3×3 inputs, and a short private run separates the two bar directions.
  void scatterLinearTrainsOnFeatures() {
    qputenv("XDG_CACHE_HOME", m_dir.path().toUtf8());
    auto raw = std::make_shared<const data::Dataset>(bars(400, 100));
    ExperimentConfig config;
    config.model.preset = "scatter-linear";
    config.privacy.privatizer.clipNorm = 1.0;
    config.privacy.noise.initial = 1.0;
    config.optimizer.learningRate = 1.0;
    config.training.lotSize = 50;
    config.training.epochs = 5;
    int featureEvents = 0;
    const RunResult result = Trainer(config, raw).run([&](const ProgressEvent& e) {
      if (e.message.find("scattering features") != std::string::npos) ++featureEvents;
    });
    QVERIFY2(result.status == RunStatus::Done, result.message.c_str());
    QVERIFY(featureEvents >= 1);
    QCOMPARE(result.model->inputShape(), data::SampleShape::image(81, 3, 3));
    QVERIFY2(result.history.back().testAccuracy >= 0.9,
             qPrintable(QString::number(result.history.back().testAccuracy)));
  }
};

QTEST_APPLESS_MAIN(TestFeatureCache)
#include "test_feature_cache.moc"
