// A data folder whose files change while it loads (issue 13, faults): a writer thread keeps
// truncating, rewriting with other counts, deleting, gzipping and garbling the four IDX
// files and classes.txt while the loader loads the folder again and again. Every load must
// either return a consistent data set or throw a DataError naming a file — never crash,
// never throw anything else, never return images without their labels.
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "core/data/idx_loader.h"
#include "data_test_util.h"

using namespace epsilon;
using namespace epsilon::data;
using namespace epsilon::data::testing;

namespace {

void writeValidFolder(const std::filesystem::path& root) {
  writeFile(root / "train-images-idx3-ubyte", idxImages(60, 8, 8));
  writeFile(root / "train-labels-idx1-ubyte", idxLabels(std::vector<int>(60, 3)));
  writeFile(root / "t10k-images-idx3-ubyte", idxImages(20, 8, 8));
  writeFile(root / "t10k-labels-idx1-ubyte", idxLabels(std::vector<int>(20, 1)));
}

// One change of the folder, chosen by `round`: each leaves the folder in a state a user could
// produce by copying files into it while the app reads it.
void changeFolder(const std::filesystem::path& root, int round) {
  const auto images = root / "train-images-idx3-ubyte";
  std::error_code ignored;
  switch (round % 7) {
    case 0: {
      const Bytes full = idxImages(60, 8, 8);
      writeFile(images, Bytes(full.begin(), full.begin() + 2000));  // truncated mid-image
      break;
    }
    case 1:
      writeFile(images, idxImages(61, 8, 8));
      break;  // one image more than labels
    case 2:
      std::filesystem::remove(images, ignored);
      break;
    case 3:
      writeFile(root / "train-images-idx3-ubyte.gz", gzip(idxImages(60, 8, 8)));
      break;
    case 4:
      writeFile(images, textBytes("not an idx file at all"));
      break;
    case 5:
      writeFile(root / "classes.txt", textBytes(round % 2 ? "a\nb\nc\nd\n" : ""));
      break;
    default:
      std::filesystem::remove(root / "classes.txt", ignored);
      std::filesystem::remove(root / "train-images-idx3-ubyte.gz", ignored);
      writeValidFolder(root);
      break;
  }
}

// Empty if `d` is consistent, else what is wrong with it.
QString inconsistency(const Dataset& d) {
  if (d.train.features.rows() != static_cast<Eigen::Index>(d.train.labels.size()))
    return "train rows != labels";
  if (d.test.features.rows() != static_cast<Eigen::Index>(d.test.labels.size()))
    return "test rows != labels";
  if (d.train.size() == 0 || d.test.size() == 0) return "an empty split";
  if ((d.train.features.array() < 0).any() || (d.train.features.array() > 1).any())
    return "pixel outside [0, 1]";
  for (const int label : d.train.labels) {
    if (label < 0 || label >= static_cast<int>(d.classNames.size()))
      return "label outside the classes";
  }
  return {};
}

}  // namespace

class TestDataChangingFiles : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void idxFolderChangingWhileLoading() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path root = dir.path().toStdString();
    writeValidFolder(root);

    std::atomic<bool> stop{false};
    std::atomic<int> changes{0};
    std::thread writer([&] {
      for (int round = 0; !stop.load(); ++round) {
        changeFolder(root, round);
        changes.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });

    int loaded = 0, rejected = 0;
    QString failure;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    while (std::chrono::steady_clock::now() < until && failure.isEmpty()) {
      try {
        const Dataset d = loadIdxFolder(root);
        failure = inconsistency(d);
        ++loaded;
      } catch (const DataError& e) {
        const QString message = QString::fromStdString(e.what());
        if (!message.contains(QString::fromStdString(root.string())))
          failure = "a DataError without the path: " + message;
        ++rejected;
      } catch (const std::exception& e) {
        failure = QStringLiteral("not a DataError: ") + e.what();
      }
    }
    stop = true;
    writer.join();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(changes.load() > 0);
    QVERIFY(loaded + rejected > 0);
    qInfo("%d loads, %d rejected, %d changes of the folder", loaded, rejected, changes.load());

    // Once the files stop changing, the folder loads in full again.
    changeFolder(root, 6);
    const Dataset d = loadIdxFolder(root);
    QCOMPARE(d.train.size(), Eigen::Index{60});
    QCOMPARE(d.test.size(), Eigen::Index{20});
    QVERIFY(inconsistency(d).isEmpty());
  }
};

QTEST_APPLESS_MAIN(TestDataChangingFiles)
#include "test_data_changing_files.moc"
