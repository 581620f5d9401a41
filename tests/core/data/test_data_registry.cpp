// The data set registry: built-in names, fashion-mnist (installed by scripts/install-deps),
// EPSILONLAB_DATA folders, folder paths, and the errors for unknown names and bad options.
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include "core/common/errors.h"
#include "core/common/memory.h"
#include "core/data/registry.h"
#include "data_test_util.h"

using namespace epsilon::data;
using namespace epsilon::data::testing;

class TestDatasetRegistry : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() { qunsetenv(kDataPathVariable); }
  void cleanup() { qunsetenv(kDataPathVariable); }
  void listsBuiltinSets();
  void loadsEachBuiltinByName();
  void syntheticOptionsReachTheGenerator();
  void unknownNameListsKnownNames();
  void badOptionsAreConfigErrors();
  void findsFashionMnistWhenInstalled();
  void hugePageAdviceKeepsContents();
  void findsFoldersFromEnvironment();
  void environmentNameClashUsesThePath();
  void loadsAFolderByPath();
  void folderWithoutDataIsDataError();
  void listingRefusesWhatTrainRefuses();
};

namespace {

const DatasetInfo* findInfo(const std::vector<DatasetInfo>& infos, const std::string& name) {
  const auto it = std::find_if(infos.begin(), infos.end(),
                               [&](const DatasetInfo& info) { return info.name == name; });
  return it == infos.end() ? nullptr : &*it;
}

// A small MNIST-format folder: `train` images of 3×4, 2 test images.
void writeIdxFolder(const std::filesystem::path& folder, std::uint32_t train) {
  std::filesystem::create_directories(folder);
  std::vector<int> labels;
  for (std::uint32_t i = 0; i < train; ++i) labels.push_back(static_cast<int>(i % 10));
  writeFile(folder / "train-images-idx3-ubyte.gz", gzip(idxImages(train, 3, 4)));
  writeFile(folder / "train-labels-idx1-ubyte.gz", gzip(idxLabels(labels)));
  writeFile(folder / "t10k-images-idx3-ubyte", idxImages(2, 3, 4));
  writeFile(folder / "t10k-labels-idx1-ubyte", idxLabels({3, 4}));
}

// The VmFlags line of the mapping that holds `address` (/proc/self/smaps), or "" if none.
std::string vmFlagsAt(const void* address) {
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2)
      inside = begin <= target && target < end;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return {};
}

void writeCifarFolder(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  writeFile(folder / "data_batch_1.bin", cifarBatch({0, 1, 2, 3}));
  writeFile(folder / "test_batch.bin", cifarBatch({5}));
}

}  // namespace

void TestDatasetRegistry::listsBuiltinSets() {
  const auto infos = listDatasets();
  const DatasetInfo* mnist = findInfo(infos, "mnist-10k");
  QVERIFY(mnist != nullptr);
  QCOMPARE(mnist->trainSize, 8000L);
  QCOMPARE(mnist->testSize, 2000L);
  QVERIFY(mnist->shape == SampleShape::image(1, 28, 28));
  QCOMPARE(mnist->classCount, 10);
  QCOMPARE(mnist->location, std::string("embedded"));
  const DatasetInfo* digits = findInfo(infos, "uci-digits");
  QVERIFY(digits != nullptr);
  QCOMPARE(digits->trainSize + digits->testSize, 1797L);
  const DatasetInfo* cancer = findInfo(infos, "breast-cancer");
  QVERIFY(cancer != nullptr);
  QCOMPARE(cancer->trainSize + cancer->testSize, 569L);
  QCOMPARE(cancer->classCount, 2);
  QVERIFY(cancer->provenance.find("CC BY 4.0") != std::string::npos);
  for (const char* name : {"circle", "xor", "gauss", "spiral"}) {
    const DatasetInfo* info = findInfo(infos, name);
    QVERIFY2(info != nullptr, name);
    QVERIFY(info->synthetic);
    QCOMPARE(info->trainSize, 800L);
    QCOMPARE(info->testSize, 200L);
    QVERIFY(info->shape == SampleShape::features(2));
  }
}

void TestDatasetRegistry::loadsEachBuiltinByName() {
  QCOMPARE(loadDataset("mnist-10k").train.size(), 8000);
  QCOMPARE(loadDataset("uci-digits").test.size(), 359);
  QCOMPARE(loadDataset("breast-cancer").train.size(), 456);
  DatasetOptions options;
  options.maxTrain = 30;
  QCOMPARE(loadDataset("mnist-10k", options).train.size(), 30);
  QCOMPARE(loadDataset("spiral", options).train.size(), 30);
}

void TestDatasetRegistry::syntheticOptionsReachTheGenerator() {
  DatasetOptions options;
  options.size = 200;
  options.trainFraction = 0.6;
  options.seed = 77;
  const Dataset a = loadDataset("xor", options);
  QCOMPARE(a.train.size(), 120);
  QCOMPARE(a.test.size(), 80);
  QCOMPARE(a.name, std::string("xor"));
  options.seed = 78;
  QVERIFY(loadDataset("xor", options).train.features != a.train.features);
}

void TestDatasetRegistry::unknownNameListsKnownNames() {
  const QString message = dataErrorOf([] { loadDataset("mnist-1k"); });
  QVERIFY2(message.contains("unknown data set 'mnist-1k'"), qPrintable(message));
  for (const char* name : {"mnist-10k", "uci-digits", "breast-cancer", "circle", "xor", "gauss",
                           "spiral", "fashion-mnist"}) {
    QVERIFY2(message.contains(name), qPrintable(message));
  }
}

void TestDatasetRegistry::badOptionsAreConfigErrors() {
  DatasetOptions options;
  options.maxTrain = -1;
  QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, loadDataset("mnist-10k", options));
  options = {};
  options.noise = 2;
  QVERIFY_THROWS_EXCEPTION(epsilon::ConfigError, loadDataset("circle", options));
}

void TestDatasetRegistry::findsFashionMnistWhenInstalled() {
  // scripts/install-deps installs it; its absence is a set-up error, not a reason to skip.
  QVERIFY2(std::filesystem::is_directory(kFashionMnistDirectory),
           "Fashion-MNIST is not installed: Debian package dataset-fashion-mnist is missing");
  const auto infos = listDatasets();
  const DatasetInfo* info = findInfo(infos, "fashion-mnist");
  QVERIFY(info != nullptr);
  QCOMPARE(info->trainSize, 60000L);
  QCOMPARE(info->testSize, 10000L);
  QVERIFY(info->shape == SampleShape::image(1, 28, 28));
  QVERIFY(info->provenance.find("Zalando") != std::string::npos);
  const Dataset fashion = loadDataset("fashion-mnist");
  QCOMPARE(fashion.train.size(), 60000);
  QCOMPARE(fashion.test.size(), 10000);
  QCOMPARE(fashion.classNames.at(9), std::string("Ankle boot"));
  // Fashion-MNIST is exactly balanced: 6,000 train and 1,000 test images per class.
  std::vector<int> train(10, 0), test(10, 0);
  for (const int label : fashion.train.labels) ++train[static_cast<std::size_t>(label)];
  for (const int label : fashion.test.labels) ++test[static_cast<std::size_t>(label)];
  QVERIFY(train == std::vector<int>(10, 6000));
  QVERIFY(test == std::vector<int>(10, 1000));
  // A lot reads the training rows at random: their pages are advised huge ("hg"), whatever
  // the system's transparent huge page mode then makes of the advice.
  const std::string flags =
      vmFlagsAt(fashion.train.features.data() + fashion.train.features.size() / 2);
  QVERIFY2(flags.find(" hg") != std::string::npos, flags.c_str());
}

void TestDatasetRegistry::hugePageAdviceKeepsContents() {
  std::vector<float> values(std::size_t{3} << 20);  // 12 MiB: whole 2 MiB pages, ragged ends
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 9973);
  epsilon::adviseHugePages(values.data() + 1, (values.size() - 1) * sizeof(float));
  epsilon::adviseHugePages(values.data(), 100);  // no whole huge page inside: nothing to do
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != static_cast<float>(i % 9973))
      QFAIL(qPrintable(QString("value %1 changed").arg(i)));
  QVERIFY(vmFlagsAt(values.data() + values.size() / 2).find(" hg") != std::string::npos);
}

void TestDatasetRegistry::findsFoldersFromEnvironment() {
  QTemporaryDir parent;
  QTemporaryDir direct;
  const std::filesystem::path root = parent.path().toStdString();
  writeIdxFolder(root / "tiny-mnist", 12);
  writeCifarFolder(root / "tiny-cifar");
  std::filesystem::create_directories(root / "not-data");
  writeIdxFolder(direct.path().toStdString(), 5);
  const QByteArray list =
      parent.path().toUtf8() + ":" + direct.path().toUtf8() + "/:/no/such/folder";
  qputenv(kDataPathVariable, list);

  std::vector<std::string> problems;
  const auto infos = listDatasets(problems);
  const DatasetInfo* mnist = findInfo(infos, "tiny-mnist");
  QVERIFY(mnist != nullptr);
  QCOMPARE(mnist->trainSize, 12L);
  QCOMPARE(mnist->testSize, 2L);
  QVERIFY(mnist->shape == SampleShape::image(1, 3, 4));
  QCOMPARE(mnist->location, (root / "tiny-mnist").string());
  const DatasetInfo* cifar = findInfo(infos, "tiny-cifar");
  QVERIFY(cifar != nullptr);
  QCOMPARE(cifar->trainSize, 4L);
  QVERIFY(cifar->shape == SampleShape::image(3, 32, 32));
  QVERIFY(findInfo(infos, "not-data") == nullptr);
  const std::string directName =
      std::filesystem::path(direct.path().toStdString()).filename().string();
  QVERIFY(findInfo(infos, directName) != nullptr);
  QCOMPARE(problems.size(), std::size_t{1});
  QVERIFY(problems[0].find("/no/such/folder") != std::string::npos);

  const Dataset tiny = loadDataset("tiny-mnist");
  QCOMPARE(tiny.name, std::string("tiny-mnist"));
  QCOMPARE(tiny.train.size(), 12);
  QCOMPARE(tiny.train.labels[11], 1);
  QCOMPARE(loadDataset("tiny-cifar").test.labels.front(), 5);
  QCOMPARE(loadDataset(directName).train.size(), 5);
}

void TestDatasetRegistry::environmentNameClashUsesThePath() {
  QTemporaryDir parent;
  const std::filesystem::path folder =
      std::filesystem::path(parent.path().toStdString()) / "mnist-10k";
  writeIdxFolder(folder, 3);
  qputenv(kDataPathVariable, parent.path().toUtf8());
  const auto infos = listDatasets();
  QCOMPARE(findInfo(infos, "mnist-10k")->trainSize, 8000L);
  const DatasetInfo* clash = findInfo(infos, folder.string());
  QVERIFY(clash != nullptr);
  QCOMPARE(clash->trainSize, 3L);
  QCOMPARE(loadDataset(folder.string()).train.size(), 3);
}

void TestDatasetRegistry::loadsAFolderByPath() {
  QTemporaryDir dir;
  writeCifarFolder(dir.path().toStdString());
  const Dataset dataset = loadDataset(dir.path().toStdString());
  QCOMPARE(dataset.name, dir.path().toStdString());
  QCOMPARE(dataset.train.size(), 4);
  QCOMPARE(dataset.classCount(), 10);
}

void TestDatasetRegistry::folderWithoutDataIsDataError() {
  QTemporaryDir dir;
  const QString message = dataErrorOf([&] { loadDataset(dir.path().toStdString()); });
  QVERIFY2(message.contains("holds no data set") && message.contains("train-images-idx3-ubyte"),
           qPrintable(message));
  // A folder with a malformed file names that file.
  writeIdxFolder(dir.path().toStdString(), 4);
  writeFile(std::filesystem::path(dir.path().toStdString()) / "t10k-labels-idx1-ubyte",
            idxLabels({1, 2, 3}));
  const QString mismatch = dataErrorOf([&] { loadDataset(dir.path().toStdString()); });
  QVERIFY2(mismatch.contains("t10k-images-idx3-ubyte holds 2 images but") &&
               mismatch.contains("holds 3 labels"),
           qPrintable(mismatch));
}

// `datasets` lists a folder only with sizes `train` would load (issue 27): headers claiming
// 10^9 images, or more bytes than a raw file holds, are problems, not entries.
void TestDatasetRegistry::listingRefusesWhatTrainRefuses() {
  QTemporaryDir parent;
  const std::filesystem::path root = parent.path().toStdString();
  writeIdxFolder(root / "claims-a-billion", 4);
  std::vector<std::byte> billion = idxImages(2, 3, 4);
  billion[4] = std::byte{0x3b}, billion[5] = std::byte{0x9a}, billion[6] = std::byte{0xca},
  billion[7] = std::byte{0x00};  // 1,000,000,000 images
  writeFile(root / "claims-a-billion" / "t10k-images-idx3-ubyte", billion);
  writeIdxFolder(root / "short-labels", 4);
  writeFile(root / "short-labels" / "t10k-labels-idx1-ubyte", idxLabels({3}));
  qputenv(kDataPathVariable, parent.path().toUtf8());

  std::vector<std::string> problems;
  const auto infos = listDatasets(problems);
  QVERIFY(findInfo(infos, "claims-a-billion") == nullptr);
  QVERIFY(findInfo(infos, "short-labels") == nullptr);
  QCOMPARE(problems.size(), std::size_t{2});
  const std::string all = problems[0] + "\n" + problems[1];
  QVERIFY2(
      all.find("header declares 1000000000 images; expected 1 to 10000000") != std::string::npos,
      all.c_str());
  QVERIFY2(all.find("expected one label per image") != std::string::npos, all.c_str());
  QVERIFY_THROWS_EXCEPTION(epsilon::DataError, loadDataset("claims-a-billion"));
}

QTEST_APPLESS_MAIN(TestDatasetRegistry)
#include "test_data_registry.moc"
