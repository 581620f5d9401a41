// IDX loader: raw and gzip round trips, folder loading, and one test row per malformed
// input (each must throw DataError naming the file and what was wrong).
#include <QDebug>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

#include "core/data/byte_source.h"
#include "core/data/idx_loader.h"
#include "data_test_util.h"

using namespace epsilon::data;
using namespace epsilon::data::testing;

class TestIdxLoader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void rawRoundTrip();
  void gzipRoundTripMatchesRaw();
  void maxCountKeepsFirstImages();
  void labelsRoundTrip();
  void malformedImages_data();
  void malformedImages();
  void malformedLabels_data();
  void malformedLabels();
  void imageLabelCountMismatch();
  void folderWithMixedRawAndGzipFiles();
  void folderLabelBeyondClassesFile();
  void probeReadsHeaderOnly();
  void forgedGzipTrailerCaughtBeforeAllocating();
};

void TestIdxLoader::rawRoundTrip() {
  const Bytes bytes = idxImages(3, 2, 5);
  const IdxImages images = parseIdxImages(bytes, "raw.idx");
  QCOMPARE(images.pixels.rows(), 3);
  QCOMPARE(images.pixels.cols(), 10);
  QCOMPARE(images.height, 2);
  QCOMPARE(images.width, 5);
  QCOMPARE(images.declaredCount, 3L);
  for (int i = 0; i < 3; ++i) {
    for (int p = 0; p < 10; ++p) {
      QCOMPARE(images.pixels(i, p), static_cast<float>(patternPixel(i, p)) / 255.0f);
    }
  }
}

void TestIdxLoader::gzipRoundTripMatchesRaw() {
  const Bytes raw = idxImages(40, 28, 28);
  const Bytes packed = gzip(raw);
  QVERIFY(packed.size() < raw.size());
  const IdxImages fromRaw = parseIdxImages(raw, "images.idx");
  const IdxImages fromGzip = parseIdxImages(packed, "images.idx.gz");
  QCOMPARE(fromGzip.pixels.rows(), 40);
  QCOMPARE(fromGzip.pixels.cols(), 784);
  QVERIFY(fromGzip.pixels == fromRaw.pixels);
  QCOMPARE(fromGzip.pixels(39, 783), static_cast<float>(patternPixel(39, 783)) / 255.0f);
  const float* first = fromGzip.pixels.data();
  const float* last = first + fromGzip.pixels.size();
  QCOMPARE(*std::max_element(first, last), 1.0f);  // byte 255
  QCOMPARE(*std::min_element(first, last), 0.0f);
}

void TestIdxLoader::maxCountKeepsFirstImages() {
  const Bytes packed = gzip(idxImages(6, 3, 3));
  const IdxImages images = parseIdxImages(packed, "images.gz", 2);
  QCOMPARE(images.pixels.rows(), 2);
  QCOMPARE(images.declaredCount, 6L);
  QCOMPARE(images.pixels(1, 4), static_cast<float>(patternPixel(1, 4)) / 255.0f);
  // The skipped tail is still read: a corrupt tail still fails.
  Bytes shortened = idxImages(6, 3, 3);
  shortened.resize(shortened.size() - 1);
  QVERIFY(!dataErrorOf([&] { parseIdxImages(shortened, "short.idx", 2); }).isEmpty());
}

void TestIdxLoader::labelsRoundTrip() {
  const std::vector<int> values = {0, 9, 3, 3, 7};
  for (const bool packed : {false, true}) {
    const Bytes bytes = packed ? gzip(idxLabels(values)) : idxLabels(values);
    const IdxLabels labels = parseIdxLabels(bytes, packed ? "labels.gz" : "labels", 10);
    QCOMPARE(labels.declaredCount, 5L);
    QVERIFY(labels.labels == values);
  }
  QCOMPARE(parseIdxLabels(idxLabels(values), "labels", 10, 3).labels.size(), std::size_t{3});
}

void TestIdxLoader::malformedImages_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QString>("source");
  QTest::addColumn<QStringList>("expected");

  const Bytes valid = idxImages(3, 2, 3);  // 16 + 18 = 34 bytes
  Bytes truncated = valid;
  truncated.resize(30);
  Bytes extra = valid;
  extra.insert(extra.end(), 5, std::byte{1});
  Bytes corrupt = gzip(idxImages(60, 28, 28));
  for (std::size_t i = 40; i < 80; ++i) corrupt[i] ^= std::byte{0x5a};
  Bytes lyingTrailer = gzip(valid);
  lyingTrailer[lyingTrailer.size() - 4] = std::byte{33};  // ISIZE 33 instead of 34
  Bytes halfGzip = gzip(idxImages(60, 28, 28));
  halfGzip.resize(halfGzip.size() / 2);
  // Cut in half, then given back the true size in its trailer: only inflating finds the cut.
  Bytes plausibleHalf = halfGzip;
  const std::size_t fullSize = idxImages(60, 28, 28).size();
  for (int i = 0; i < 4; ++i)
    plausibleHalf[plausibleHalf.size() - 4 + i] = std::byte((fullSize >> (8 * i)) & 0xff);
  Bytes header = valid;
  header.resize(10);

  const auto row = [](const char* name, const Bytes& bytes, const char* source,
                      QStringList expected) {
    QTest::newRow(name) << toQByteArray(bytes) << QString::fromUtf8(source) << expected;
  };
  row("wrong magic", idxImages(3, 2, 3, 0x00000804), "bad.idx",
      {"wrong magic", "expected 0x00000803", "found 0x00000804"});
  row("label file given as images", idxLabels({1, 2}), "labels.idx",
      {"wrong magic", "found 0x00000801 (IDX labels)"});
  row("empty file", {}, "empty.idx",
      {"truncated", "IDX magic number at offset 0", "found 0 bytes"});
  row("truncated header", header, "head.idx",
      {"truncated", "IDX dimension 1 at offset 8", "found 2 bytes"});
  row("truncated body", truncated, "cut.idx",
      {"header declares 3 images of 2x3", "34 bytes", "holds 30 bytes", "truncated"});
  row("extra data", extra, "long.idx", {"34 bytes", "holds 39 bytes", "extra data"});
  row("zero images", idxImages(0, 2, 3), "zero.idx",
      {"declares 0 images", "expected 1 to 10000000"});
  row("absurd count", idxImageHeader(0xffffffffu, 28, 28), "huge.idx",
      {"declares 4294967295 images"});
  row("absurd rows", idxImageHeader(1, 100000, 2), "rows.idx",
      {"declares 100000 rows per image", "expected 1 to 4096"});
  row("zero columns", idxImageHeader(1, 5, 0), "cols.idx", {"declares 0 columns per image"});
  row("header beyond the size cap", idxImageHeader(10000000, 4096, 4096), "cap.idx",
      {"10000000 images of 4096x4096", "more than the 1073741824 bytes"});
  row("header larger than the file", idxImageHeader(60000, 28, 28), "short.idx",
      {"header declares 60000 images of 28x28", "47040016 bytes", "holds 16 bytes", "truncated"});
  row("gz name but not gzip", valid, "plain.idx.gz",
      {"bad gzip", "expected the magic bytes 1f 8b", "found 00 00"});
  row("truncated gzip", halfGzip, "half.idx.gz", {"bad gzip", "truncated"});
  row("truncated gzip with a plausible trailer", plausibleHalf, "cut.idx.gz",
      {"bad gzip: truncated, the compressed data ends after"});
  row("corrupt deflate data", corrupt, "corrupt.idx.gz", {"bad gzip"});
  row("gzip trailer lies about the size", lyingTrailer, "liar.idx.gz",
      {"bad gzip", "incorrect length check"});
  row("gzip of a truncated body", gzip(truncated), "cut.idx.gz",
      {"34 bytes", "holds 30 bytes", "truncated"});
  row("gzip of extra data", gzip(extra), "long.idx.gz", {"holds 39 bytes", "extra data"});
}

void TestIdxLoader::malformedImages() {
  QFETCH(QByteArray, bytes);
  QFETCH(QString, source);
  QFETCH(QStringList, expected);
  const QString message =
      dataErrorOf([&] { parseIdxImages(fromQByteArray(bytes), source.toStdString()); });
  QVERIFY2(message.startsWith(source),
           qPrintable("no DataError naming the file, got: '" + message + "'"));
  qInfo().noquote() << message;
  for (const QString& part : expected)
    QVERIFY2(message.contains(part), qPrintable(message + "\n  lacks: " + part));
}

void TestIdxLoader::malformedLabels_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QString>("source");
  QTest::addColumn<QStringList>("expected");
  Bytes truncated = idxLabels({1, 2, 3, 4, 5});
  truncated.resize(11);
  QTest::newRow("wrong magic") << toQByteArray(idxImages(1, 1, 1)) << "l.idx"
                               << QStringList{"wrong magic", "expected 0x00000801",
                                              "found 0x00000803"};
  QTest::newRow("truncated") << toQByteArray(truncated) << "l.idx"
                             << QStringList{"declares 5 labels", "13 bytes", "holds 11 bytes",
                                            "truncated"};
  QTest::newRow("label out of range")
      << toQByteArray(idxLabels({1, 2, 10})) << "l.idx"
      << QStringList{"label 10 of example 2 (offset 10)", "expected 0 to 9"};
  QTest::newRow("gzip label out of range") << toQByteArray(gzip(idxLabels({255, 1}))) << "l.gz"
                                           << QStringList{"label 255 of example 0 (offset 8)"};
  QTest::newRow("zero labels") << toQByteArray(idxLabels({})) << "l.idx"
                               << QStringList{"declares 0 labels"};
}

void TestIdxLoader::malformedLabels() {
  QFETCH(QByteArray, bytes);
  QFETCH(QString, source);
  QFETCH(QStringList, expected);
  const QString message =
      dataErrorOf([&] { parseIdxLabels(fromQByteArray(bytes), source.toStdString(), 10); });
  QVERIFY2(message.startsWith(source),
           qPrintable("no DataError naming the file, got: '" + message + "'"));
  qInfo().noquote() << message;
  for (const QString& part : expected)
    QVERIFY2(message.contains(part), qPrintable(message + "\n  lacks: " + part));
}

void TestIdxLoader::imageLabelCountMismatch() {
  const QString message = dataErrorOf([] {
    makeIdxSplit(parseIdxImages(idxImages(3, 2, 2), "imgs"),
                 parseIdxLabels(idxLabels({1, 2, 3, 4}), "labs", 10), "imgs", "labs");
  });
  QVERIFY2(message.contains("imgs holds 3 images but labs holds 4 labels"), qPrintable(message));
  const Split split = makeIdxSplit(parseIdxImages(idxImages(3, 2, 2), "i"),
                                   parseIdxLabels(idxLabels({4, 5, 6}), "l", 10), "i", "l");
  QCOMPARE(split.size(), 3);
  QVERIFY((split.labels == std::vector<int>{4, 5, 6}));
}

void TestIdxLoader::folderWithMixedRawAndGzipFiles() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::filesystem::path root = dir.path().toStdString();
  writeFile(root / "train-images-idx3-ubyte", idxImages(7, 4, 3));
  writeFile(root / "train-labels-idx1-ubyte.gz", gzip(idxLabels({0, 1, 2, 0, 1, 2, 0})));
  writeFile(root / "t10k-images-idx3-ubyte.gz", gzip(idxImages(2, 4, 3)));
  writeFile(root / "t10k-labels-idx1-ubyte", idxLabels({2, 1}));
  writeFile(root / "classes.txt", textBytes("red\ngreen\r\n\nblue\n"));
  QVERIFY(findIdxFiles(root).has_value());
  const Dataset dataset = loadIdxFolder(root, 5);
  QCOMPARE(dataset.train.size(), 5);
  QCOMPARE(dataset.test.size(), 2);
  QVERIFY(dataset.shape == SampleShape::image(1, 4, 3));
  QVERIFY((dataset.classNames == std::vector<std::string>{"red", "green", "blue"}));
  QVERIFY((dataset.train.labels == std::vector<int>{0, 1, 2, 0, 1}));
  QCOMPARE(dataset.test.features(1, 11), static_cast<float>(patternPixel(1, 11)) / 255.0f);
}

void TestIdxLoader::folderLabelBeyondClassesFile() {
  QTemporaryDir dir;
  const std::filesystem::path root = dir.path().toStdString();
  writeFile(root / "train-images-idx3-ubyte", idxImages(2, 2, 2));
  writeFile(root / "train-labels-idx1-ubyte", idxLabels({0, 2}));
  writeFile(root / "t10k-images-idx3-ubyte", idxImages(1, 2, 2));
  writeFile(root / "t10k-labels-idx1-ubyte", idxLabels({0}));
  writeFile(root / "classes.txt", textBytes("yes\nno\n"));
  const QString message = dataErrorOf([&] { loadIdxFolder(root); });
  QVERIFY2(message.contains("train-labels-idx1-ubyte: label 2 of example 1") &&
               message.contains("expected 0 to 1"),
           qPrintable(message));
  std::filesystem::remove(root / "t10k-labels-idx1-ubyte");
  QVERIFY(!findIdxFiles(root).has_value());
  QVERIFY(dataErrorOf([&] { loadIdxFolder(root); }).contains("expected the MNIST-format files"));
}

void TestIdxLoader::probeReadsHeaderOnly() {
  QTemporaryDir dir;
  const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "x.gz";
  writeFile(file, gzip(idxImages(300, 20, 10)));
  const IdxHeader header = probeIdxFile(file);
  QCOMPARE(header.magic, kIdxImagesMagic);
  QCOMPARE(header.count, 300L);
  QCOMPARE(header.height, 20);
  QCOMPARE(header.width, 10);
  const IdxHeader labels = probeIdxHeader(idxLabels({1, 2, 3}), "labels");
  QCOMPARE(labels.magic, kIdxLabelsMagic);
  QCOMPARE(labels.count, 3L);
}

void TestIdxLoader::forgedGzipTrailerCaughtBeforeAllocating() {
  // 80 MiB of zeros deflate to ~80 KiB (about 1000:1, which no real image file reaches):
  // DataInput inflates such a stream once to learn its true size before anyone allocates.
  const std::size_t big = std::size_t{80} << 20;
  Bytes zeros(big, std::byte{0});
  const Bytes packed = gzip(zeros);
  zeros = {};
  QVERIFY(packed.size() * 64 < big);
  QCOMPARE(DataInput(packed, "zeros.gz").size(), big);
  // The same stream with a trailer claiming one byte more fails at construction.
  Bytes forged = packed;
  forged[forged.size() - 4] = std::byte{1};
  const QString message = dataErrorOf([&] { DataInput input(forged, "forged.gz"); });
  QVERIFY2(message.contains("forged.gz: bad gzip: incorrect length check"), qPrintable(message));
}

QTEST_APPLESS_MAIN(TestIdxLoader)
#include "test_data_idx.moc"
