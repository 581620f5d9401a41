// Faults while saving and opening sessions and exports (issue 13): a full disk (/dev/full),
// a read-only folder, a folder that disappears, the process killed (SIGKILL) in the middle of
// a save, a 500 MB file of nested JSON, and a run history of 10⁶ points. Each failure must be
// a SessionError naming the file; the old file must stay intact and nothing half-written may
// remain beside it.
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <thread>

#include "base/io/session_file.h"

using namespace epsilon::ui;

namespace {

std::vector<RunRecord> sessionOf(int runs, int points) {
  std::vector<RunRecord> out;
  for (int r = 0; r < runs; ++r) {
    RunRecord run;
    run.id = r + 1;
    run.name = QStringLiteral("run %1").arg(r + 1);
    run.color = QString::asprintf("#%02x64c8", 10 * r);
    run.status = RunStatus::Done;
    run.evals.reserve(static_cast<std::size_t>(points));
    for (int i = 0; i < points; ++i) {
      EvalPoint e;
      e.step = i;
      e.epoch = i / 100.0;
      e.testAccuracy = 0.5 + 0.4 * i / std::max(1, points);
      e.epsilon = 0.01 * i;
      run.evals.push_back(e);
    }
    out.push_back(std::move(run));
  }
  return out;
}

// Equal bit for bit, NaN included (== would call two NaNs different).
bool sameBits(const EvalPoint& a, const EvalPoint& b) {
  const auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return a.step == b.step && same(a.epoch, b.epoch) && same(a.trainLoss, b.trainLoss) &&
         same(a.testAccuracy, b.testAccuracy) && same(a.testLoss, b.testLoss) &&
         same(a.epsilon, b.epsilon) && same(a.nominalEpsilon, b.nominalEpsilon) &&
         same(a.sigma, b.sigma) && same(a.clipNorm, b.clipNorm) &&
         same(a.fractionClipped, b.fractionClipped) && same(a.gradientNorm, b.gradientNorm) &&
         same(a.elapsedSeconds, b.elapsedSeconds);
}

QString sessionErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const SessionError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

QByteArray contentOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The files of `dir` other than `keep`: what a failed or killed save left behind.
QStringList leftovers(const QString& dir, const QString& keep) {
  QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
  names.removeAll(keep);
  return names;
}

// Makes a folder read-only for everyone, root included: mode 0555, and as root (who ignores
// modes) the immutable attribute as well (chattr +i; FS_IOC_SETFLAGS, ioctl_iflags(2)).
bool setReadOnly(const QString& dir, bool on) {
  const QByteArray path = dir.toLocal8Bit();
  if (::geteuid() == 0) {
    // The immutable flag first on, last off: chmod fails on an immutable folder.
    const int fd = ::open(path.constData(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return false;
    int flags = 0;
    bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
    if (!on) ok = ok && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    ok = ok && ::chmod(path.constData(), on ? 0555 : 0755) == 0;
    if (on) ok = ok && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    ::close(fd);
    return ok;
  }
  return ::chmod(path.constData(), on ? 0555 : 0755) == 0;
}

}  // namespace

class TestSessionFaults : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fullDiskIsReported() {
    const auto runs = sessionOf(2, 50);
    for (const auto& save : std::vector<std::function<void()>>{
             [&] { saveSession(QStringLiteral("/dev/full"), runs); },
             [&] { exportHistoryCsv(QStringLiteral("/dev/full"), runs); },
             [&] { exportHistoryJson(QStringLiteral("/dev/full"), runs); }}) {
      const QString message = sessionErrorOf(save);
      QVERIFY2(message.contains(QStringLiteral("/dev/full")), qPrintable(message));
    }
  }

  void readOnlyFolderKeepsTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.json"));
    saveSession(path, sessionOf(1, 10));
    const QByteArray before = contentOf(path);
    QVERIFY(setReadOnly(dir.path(), true));
    const QString message = sessionErrorOf([&] { saveSession(path, sessionOf(3, 20)); });
    const QString exportMessage = sessionErrorOf(
        [&] { exportHistoryCsv(dir.filePath(QStringLiteral("h.csv")), sessionOf(1, 5)); });
    QVERIFY(setReadOnly(dir.path(), false));
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(exportMessage.contains(QStringLiteral("h.csv")), qPrintable(exportMessage));
    QCOMPARE(contentOf(path), before);
    QCOMPARE(leftovers(dir.path(), QStringLiteral("lecture.json")), QStringList());
  }

  void disappearingFolderIsReported() {
    auto dir = std::make_unique<QTemporaryDir>();
    const QString path = dir->filePath(QStringLiteral("gone/session.json"));
    QVERIFY(QDir(dir->path()).mkdir(QStringLiteral("gone")));
    QVERIFY(QDir(dir->filePath(QStringLiteral("gone"))).removeRecursively());
    const QString message = sessionErrorOf([&] { saveSession(path, sessionOf(1, 10)); });
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY(!QFile::exists(path));
  }

  void killedInTheMiddleOfASaveLeavesTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    saveSession(path, sessionOf(1, 10));
    const QByteArray before = contentOf(path);
    const auto big = sessionOf(4, 60'000);  // a save that takes a while
    for (int attempt = 0; attempt < 3; ++attempt) {
      const pid_t child = ::fork();
      QVERIFY(child >= 0);
      if (child == 0) {
        saveSession(path, big);
        ::_exit(0);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50 + 60 * attempt));
      ::kill(child, SIGKILL);
      int status = 0;
      ::waitpid(child, &status, 0);
      const QByteArray after = contentOf(path);
      // Either the old file or the whole new one (if the save won the race); never a mix.
      if (after != before) QCOMPARE(loadSession(path).size(), big.size());
      QCOMPARE(leftovers(dir.path(), QStringLiteral("session.json")), QStringList());
    }
  }

  void deeplyNestedHugeFileFailsFast() {
    // 500 MB of '[' (JSON nested 500 million deep): refused by its size or by the parser's
    // depth limit, quickly and without holding the document.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("nested.json"));
    {
      std::ofstream out(path.toStdString(), std::ios::binary);
      const std::string chunk(1 << 20, '[');
      for (int i = 0; i < 500; ++i)
        out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
    QElapsedTimer clock;
    clock.start();
    const QString message = sessionErrorOf([&] { loadSession(path); });
    const qint64 ms = clock.elapsed();
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(ms < 10'000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    qInfo("500 MB nested JSON refused in %lld ms: %s", static_cast<long long>(ms),
          qPrintable(message));
  }

  void millionPointHistorySavesAndReopens() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("million.json"));
    const auto runs = sessionOf(1, 1'000'000);
    QElapsedTimer clock;
    clock.start();
    saveSession(path, runs);
    const qint64 saveMs = clock.restart();
    const auto back = loadSession(path);
    const qint64 loadMs = clock.elapsed();
    QCOMPARE(back.size(), std::size_t{1});
    QCOMPARE(back[0].evals.size(), std::size_t{1'000'000});
    // Every stored value reads back to the same bits (the compact file drops only whitespace).
    qsizetype mismatches = 0;
    for (std::size_t i = 0; i < runs[0].evals.size(); ++i)
      if (!sameBits(back[0].evals[i], runs[0].evals[i])) ++mismatches;
    QCOMPARE(mismatches, qsizetype{0});
    // The file stays well inside loadSession's 512 MiB cap (it was 529 MB when indented).
    const qint64 bytes = QFileInfo(path).size();
    QVERIFY2(bytes < (256LL << 20), qPrintable(QStringLiteral("%1 bytes").arg(bytes)));
    qInfo("10^6 points: %lld bytes, saved in %lld ms, reopened in %lld ms",
          static_cast<long long>(bytes), static_cast<long long>(saveMs),
          static_cast<long long>(loadMs));
  }
};

QTEST_MAIN(TestSessionFaults)
#include "test_session_faults.moc"
