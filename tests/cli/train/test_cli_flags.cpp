// Flag errors quote at most 80 characters of what was given: a 128 KiB argument, as a flag's
// value, an unknown option or a stray positional, comes back as a short message naming the
// flag, with exit status 2.
#include <QTest>

#include "cli_runner.h"

using epsilon::test::runCli;

class TestCliFlags : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void hugeArgumentsAreClipped_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    // 128 KiB less a few bytes: Linux refuses one argument of 128 KiB or more (MAX_ARG_STRLEN).
    const QString huge(128 * 1024 - 8, QLatin1Char('7'));
    QTest::newRow("value") << QStringList{"train", "--epochs", huge} << "--epochs";
    QTest::newRow("option") << QStringList{"train", "--" + huge} << "Unknown option";
    QTest::newRow("positional") << QStringList{"train", huge} << "unexpected argument";
  }

  void hugeArgumentsAreClipped() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const auto outcome = runCli(arguments, 60000);
    QCOMPARE(outcome.exitCode, 2);
    QVERIFY2(outcome.err.toUtf8().size() < 2048, qPrintable(outcome.err.left(300)));
    QVERIFY2(outcome.err.contains(named), qPrintable(outcome.err));
    QVERIFY2(outcome.err.contains(QStringLiteral("bytes)")), qPrintable(outcome.err));
  }
};

QTEST_APPLESS_MAIN(TestCliFlags)
#include "test_cli_flags.moc"
