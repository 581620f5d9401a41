// The one bounded way to read a file behind every JSON reader (sessions, run files, figures,
// lessons, experiments, presets): a FIFO, a device or a link to one is refused at once, naming
// the path (never opened: opening a FIFO blocks); a file over its kind's limit is refused
// before it is read.
#include <sys/stat.h>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

#include "base/io/experiment_json.h"
#include "base/io/figure_file.h"
#include "base/io/json_reader.h"
#include "base/io/lesson_file.h"
#include "base/io/preset_file.h"
#include "base/io/run_file.h"
#include "base/io/session_file.h"
#include "core/common/errors.h"

using namespace epsilon;
using namespace epsilon::ui;

namespace {

using Reader = std::function<void(const QString&)>;

// Every reader of a file, by name.
std::vector<std::pair<const char*, Reader>> readers() {
  return {
      {"session", [](const QString& p) { loadSession(p); }},
      {"run file", [](const QString& p) { readRunFile(p); }},
      {"session or run", [](const QString& p) { openSessionOrRuns(p); }},
      {"figure", [](const QString& p) { loadFigure(p); }},
      {"lesson", [](const QString& p) { readLessonFile(p); }},
      {"experiment", [](const QString& p) { readExperimentFile(p, {}); }},
      {"preset", [](const QString& p) { readPresetFile(p); }},
      {"json object", [](const QString& p) { readJsonObjectFile(p, 1 << 20, "file"); }},
  };
}

QString errorOf(const Reader& read, const QString& path) {
  try {
    read(path);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

void checkRefused(const QString& path, const QString& expected) {
  for (const auto& [name, read] : readers()) {
    QElapsedTimer timer;
    timer.start();
    const QString error = errorOf(read, path);
    QVERIFY2(error.contains(path), qPrintable(QString::fromUtf8(name) + ": " + error));
    QVERIFY2(error.contains(expected), qPrintable(QString::fromUtf8(name) + ": " + error));
    QVERIFY2(timer.elapsed() < 2000, name);
  }
}

}  // namespace

class TestBoundedRead : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void fifoIsRefusedWithoutOpening() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    checkRefused(fifo, QStringLiteral("expected a regular file"));
  }

  void linkToDeviceIsRefused() {
    QTemporaryDir dir;
    const QString link = dir.filePath(QStringLiteral("zero.json"));
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), link));
    checkRefused(link, QStringLiteral("expected a regular file"));
    checkRefused(QStringLiteral("/dev/null"), QStringLiteral("expected a regular file"));
  }

  void sizeLimitIsCheckedBeforeReading() {
    QTemporaryDir dir;
    const QString big = dir.filePath(QStringLiteral("big.json"));
    QFile file(big);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize((1 << 20) + 1));  // sparse: 1 MiB of zeros and one byte
    file.close();
    const QString error = errorOf(readers()[4].second, big);  // a lesson: 1 MiB at most
    QVERIFY2(error.contains(big) && error.contains(QStringLiteral("at most 1 MiB")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("1048577 bytes")), qPrintable(error));
  }

  void boundedReadReturnsTheBytes() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("small.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"a\": 1}");
    file.close();
    QCOMPARE(readBoundedFile(path, 8, QStringLiteral("file")), QByteArray("{\"a\": 1}"));
    QVERIFY(errorOf([](const QString& p) { readBoundedFile(p, 7, QStringLiteral("file")); }, path)
                .contains(QStringLiteral("at most")));
  }

  void missingFileNamesThePath() {
    const QString missing = QStringLiteral("/nonexistent/folder/x.json");
    for (const auto& [name, read] : readers())
      QVERIFY2(errorOf(read, missing).contains(missing), name);
  }
};

QTEST_APPLESS_MAIN(TestBoundedRead)
#include "test_bounded_read.moc"
