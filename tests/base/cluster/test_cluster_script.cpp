// The job script a sweep is sent to Slurm with: its #SBATCH lines say the user's settings,
// and bash, given a stand-in CLI that prints its arguments, passes every sweep argument back
// unchanged (spaces, quotes and $ included) with the task's shard and summary file; settings
// Slurm would refuse or that cannot sit on an #SBATCH line are refused naming the setting and
// quoting at most 80 characters.
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include "base/cluster/sbatch_script.h"
#include "core/common/errors.h"

using namespace epsilon::cluster;

class TestClusterScript : public QObject {
  Q_OBJECT

  static SweepScript example() {
    SweepScript s;
    s.dir = QStringLiteral("/data/sweeps/fig4");
    s.cli = QStringLiteral("/opt/epsilon lab/bin/epsilonlab-cli");
    s.sweepArgs = {QStringLiteral("--preset"), QStringLiteral("report-fig4-noise"),
                   QStringLiteral("--param"),  QStringLiteral("noise_multiplier=0.5,1"),
                   QStringLiteral("--config"), QStringLiteral("/home/ann/it's $HOME `x`.json")};
    s.tasks = 3;
    s.settings.partition = QStringLiteral("gpu");
    s.settings.time = QStringLiteral("01:30:00");
    s.settings.cpusPerTask = 4;
    s.settings.mem = QStringLiteral("2G");
    s.settings.maxParallel = 2;
    s.settings.sbatchArgs = {QStringLiteral("--account=lab")};
    return s;
  }

  // Runs `text` with bash as Slurm would for array task `task`; returns its standard output.
  static QString runAsTask(const QString& text, int task) {
    QProcess bash;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QString::number(task));
    env.insert(QStringLiteral("SLURM_ARRAY_JOB_ID"), QStringLiteral("77"));
    bash.setProcessEnvironment(env);
    bash.start(QStringLiteral("bash"), {QStringLiteral("-c"), text});
    bash.waitForFinished(10000);
    return QString::fromUtf8(bash.readAllStandardOutput());
  }

 private Q_SLOTS:
  void headerSaysTheSettings() {
    const QString text = sbatchScript(example());
    QVERIFY(text.startsWith(QStringLiteral("#!/bin/bash\n")));
    for (const char* line :
         {"#SBATCH --job-name=epsilonlab-sweep", "#SBATCH --array=1-3%2",
          "#SBATCH --output=/data/sweeps/fig4/logs/task-%a-%A.log", "#SBATCH --partition=gpu",
          "#SBATCH --time=01:30:00", "#SBATCH --cpus-per-task=4", "#SBATCH --mem=2G",
          "#SBATCH --account=lab"})
      QVERIFY2(text.contains(QLatin1String(line) + QLatin1Char('\n')), line);
    // Settings left empty are not written (Slurm's defaults apply).
    SweepScript plain = example();
    plain.settings = {};
    const QString bare = sbatchScript(plain);
    QVERIFY(bare.contains(QStringLiteral("#SBATCH --array=1-3\n")));
    QVERIFY(!bare.contains(QStringLiteral("--partition")));
    QVERIFY(!bare.contains(QStringLiteral("--mem")));
  }

  void bashPassesEveryArgumentBack() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A stand-in CLI that prints one argument a line.
    const QString cli = dir.filePath(QStringLiteral("fake cli"));
    QFile file(cli);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    file.close();
    file.setPermissions(file.permissions() | QFile::ExeOwner);
    SweepScript s = example();
    s.cli = cli;
    const QStringList lines = runAsTask(sbatchScript(s), 2).split(QLatin1Char('\n'));
    QVERIFY2(lines.value(0).startsWith(QStringLiteral("epsilonlab: task 2/3 of job 77 on ")),
             qPrintable(lines.value(0)));
    const QStringList expected =
        QStringList{QStringLiteral("sweep")} + s.sweepArgs +
        QStringList{
            QStringLiteral("--shard"),   QStringLiteral("2/3"),
            QStringLiteral("--out"),     s.dir,
            QStringLiteral("--summary"), s.dir + QStringLiteral("/logs/summary-task-2.csv")};
    QCOMPARE(lines.mid(1, expected.size()), expected);
  }

  void shellQuoting() {
    QCOMPARE(shellQuoted(QStringLiteral("noise_multiplier=0.5,1")),
             QStringLiteral("noise_multiplier=0.5,1"));
    QCOMPARE(shellQuoted(QStringLiteral("a b")), QStringLiteral("'a b'"));
    QCOMPARE(shellQuoted(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
    QCOMPARE(shellQuoted(QString()), QStringLiteral("''"));
    QCOMPARE(shellQuoted(QStringLiteral("$HOME")), QStringLiteral("'$HOME'"));
  }

  void arraySpecs() {
    QCOMPARE(arraySpec({5, 2, 2, 3}, std::nullopt), QStringLiteral("2,3,5"));
    QCOMPARE(arraySpec({3, 1, 2}, 2), QStringLiteral("1-3%2"));
    QCOMPARE(arraySpec({4}, std::nullopt), QStringLiteral("4"));
  }

  void badSettingsAreNamed_data() {
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QString>("value");
    QTest::newRow("time") << "time"
                          << "1 hour";
    QTest::newRow("time-letters") << "time"
                                  << "01:xx:00";
    QTest::newRow("mem") << "mem"
                         << "lots";
    QTest::newRow("mem-zero") << "mem"
                              << "0G";
    QTest::newRow("partition") << "partition"
                               << "gpu; rm -rf /";
    QTest::newRow("sbatch-arg-newline") << "sbatch-arg"
                                        << "--account=a\n#SBATCH --x";
    QTest::newRow("sbatch-arg-word") << "sbatch-arg"
                                     << "account";
    QTest::newRow("long") << "partition" << QString(5000, QLatin1Char('%'));
  }

  void badSettingsAreNamed() {
    QFETCH(QString, setting);
    QFETCH(QString, value);
    SlurmSettings s;
    if (setting == QLatin1String("time")) s.time = value;
    if (setting == QLatin1String("mem")) s.mem = value;
    if (setting == QLatin1String("partition")) s.partition = value;
    if (setting == QLatin1String("sbatch-arg")) s.sbatchArgs = {value};
    try {
      checkSettings(s);
      QFAIL("accepted");
    } catch (const epsilon::ConfigError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.startsWith(setting + QStringLiteral(": expected")), e.what());
      QVERIFY2(message.size() < 300, e.what());
    }
  }

  void goodSettingsPass() {
    for (const char* time : {"30", "10:00", "01:30:00", "2-00:00:00", "1-12"}) {
      SlurmSettings s;
      s.time = QLatin1String(time);
      s.mem = QStringLiteral("500M");
      s.partition = QStringLiteral("gpu-a100");
      s.cpusPerTask = 8;
      checkSettings(s);
    }
  }

  void folderMustFitAnSbatchLine() {
    checkJobFolder(QStringLiteral("/scratch/ann/fig4_run-2"));
    for (const char* bad : {"relative/dir", "/with space", "/quote'd", "/per%cent", "/dollar$x"}) {
      try {
        checkJobFolder(QLatin1String(bad));
        QFAIL(bad);
      } catch (const epsilon::ConfigError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("out: expected")), e.what());
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestClusterScript)
#include "test_cluster_script.moc"
