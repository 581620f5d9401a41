// CIFAR-10 binary batches: record layout round trip (C×H×W order), folder loading with
// several batches and a meta file, and each malformed case.
#include <QDebug>
#include <QTemporaryDir>
#include <QTest>

#include "core/data/cifar_loader.h"
#include "data_test_util.h"

using namespace epsilon::data;
using namespace epsilon::data::testing;

class TestCifarLoader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void batchRoundTrip();
  void folderWithBatchesAndMeta();
  void folderWithoutMetaUsesStandardNames();
  void maxTrainStopsInsideABatch();
  void malformedBatches_data();
  void malformedBatches();
  void malformedMeta();
  void incompleteFolder();
};

namespace {

std::filesystem::path writeFolder(const QTemporaryDir& dir, int trainBatches) {
  const std::filesystem::path root = dir.path().toStdString();
  for (int b = 1; b <= trainBatches; ++b) {
    writeFile(root / ("data_batch_" + std::to_string(b) + ".bin"),
              cifarBatch({b % 10, (b + 1) % 10, (b + 2) % 10}));
  }
  writeFile(root / "test_batch.bin", cifarBatch({9, 8}));
  return root;
}

}  // namespace

void TestCifarLoader::batchRoundTrip() {
  const Split split = parseCifarBatch(cifarBatch({3, 0, 9}), "batch.bin");
  QCOMPARE(split.size(), 3);
  QCOMPARE(split.features.cols(), 3072);
  QVERIFY((split.labels == std::vector<int>{3, 0, 9}));
  // Record 0 (label 3): pixel byte p = (3 + 5 p) mod 256; red plane first, then green, then blue.
  const auto expected = [](int label, int channel, int y, int x) {
    const int p = channel * 1024 + y * 32 + x;
    return static_cast<float>((label + 5 * p) % 256) / 255.0f;
  };
  QCOMPARE(split.features(0, 0), expected(3, 0, 0, 0));
  QCOMPARE(split.features(0, 1024 + 5 * 32 + 7), expected(3, 1, 5, 7));
  QCOMPARE(split.features(2, 2 * 1024 + 31 * 32 + 31), expected(9, 2, 31, 31));
}

void TestCifarLoader::folderWithBatchesAndMeta() {
  QTemporaryDir dir;
  const auto root = writeFolder(dir, 3);
  writeFile(root / "batches.meta.txt", textBytes("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n\n\n"));
  const Dataset dataset = loadCifarFolder(root);
  QCOMPARE(dataset.train.size(), 9);
  QCOMPARE(dataset.test.size(), 2);
  QVERIFY(dataset.shape == SampleShape::image(3, 32, 32));
  QCOMPARE(dataset.classNames.size(), std::size_t{10});
  QCOMPARE(dataset.classNames[9], std::string("j"));
  QVERIFY((dataset.train.labels == std::vector<int>{1, 2, 3, 2, 3, 4, 3, 4, 5}));
  QVERIFY((dataset.test.labels == std::vector<int>{9, 8}));
  const auto files = findCifarFiles(root);
  QVERIFY(files.has_value());
  QCOMPARE(probeCifarFolder(*files), (std::pair<long, long>{9, 2}));
}

void TestCifarLoader::folderWithoutMetaUsesStandardNames() {
  QTemporaryDir dir;
  const Dataset dataset = loadCifarFolder(writeFolder(dir, 1));
  QCOMPARE(dataset.classNames.front(), std::string("airplane"));
  QCOMPARE(dataset.classNames.back(), std::string("truck"));
  QCOMPARE(dataset.train.size(), 3);
}

void TestCifarLoader::maxTrainStopsInsideABatch() {
  QTemporaryDir dir;
  const Dataset dataset = loadCifarFolder(writeFolder(dir, 5), 4);
  QCOMPARE(dataset.train.size(), 4);
  QVERIFY((dataset.train.labels == std::vector<int>{1, 2, 3, 2}));
  QCOMPARE(dataset.train.features(3, 1), static_cast<float>((2 + 5) % 256) / 255.0f);
  QCOMPARE(dataset.test.size(), 2);
}

void TestCifarLoader::malformedBatches_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QStringList>("expected");
  Bytes truncated = cifarBatch({1, 2, 3});
  truncated.resize(truncated.size() - 100);
  Bytes badLabel = cifarBatch({1, 2, 3});
  badLabel[2 * 3073] = std::byte{10};
  QTest::newRow("empty") << QByteArray() << QStringList{"empty file", "3073"};
  QTest::newRow("truncated") << toQByteArray(truncated)
                             << QStringList{"truncated", "9119 bytes is not a multiple",
                                            "record 2 (offset 6146) has 2973"};
  QTest::newRow("one byte") << QByteArray(1, '\x01')
                            << QStringList{"record 0 (offset 0) has 1 of its 3073 bytes"};
  QTest::newRow("label out of range")
      << toQByteArray(badLabel)
      << QStringList{"label 10 of record 2 (offset 6146)", "expected 0 to 9"};
}

void TestCifarLoader::malformedBatches() {
  QFETCH(QByteArray, bytes);
  QFETCH(QStringList, expected);
  const QString message =
      dataErrorOf([&] { parseCifarBatch(fromQByteArray(bytes), "data_batch_1.bin"); });
  qInfo().noquote() << message;
  QVERIFY2(message.startsWith("data_batch_1.bin: "),
           qPrintable("no DataError naming the file, got: '" + message + "'"));
  for (const QString& part : expected)
    QVERIFY2(message.contains(part), qPrintable(message + "\n  lacks: " + part));
}

void TestCifarLoader::malformedMeta() {
  const QString message =
      dataErrorOf([] { parseCifarClassNames(textBytes("a\nb\nc\n"), "batches.meta.txt"); });
  QVERIFY2(message.contains("batches.meta.txt: expected 10 class names, one per line, found 3"),
           qPrintable(message));
  QTemporaryDir dir;
  const auto root = writeFolder(dir, 1);
  writeFile(root / "batches.meta.txt", textBytes("x\ny\n"));
  QVERIFY(dataErrorOf([&] { loadCifarFolder(root); }).contains("found 2"));
}

void TestCifarLoader::incompleteFolder() {
  QTemporaryDir dir;
  const auto root = writeFolder(dir, 2);
  Bytes truncated = cifarBatch({1, 2});
  truncated.pop_back();
  writeFile(root / "data_batch_2.bin", truncated);
  const QString message = dataErrorOf([&] { loadCifarFolder(root); });
  QVERIFY2(message.contains("data_batch_2.bin: truncated"), qPrintable(message));
  std::filesystem::remove(root / "test_batch.bin");
  QVERIFY(!findCifarFiles(root).has_value());
  QVERIFY(dataErrorOf([&] { loadCifarFolder(root); }).contains("expected CIFAR-10 binary batches"));
}

QTEST_APPLESS_MAIN(TestCifarLoader)
#include "test_data_cifar.moc"
