// CSV loader for the UCI sets: plain and gzip round trips, the headered form, and each
// malformed case naming file, line and column.
#include <QDebug>
#include <QTest>

#include "core/data/csv_loader.h"
#include "data_test_util.h"

using namespace epsilon::data;
using namespace epsilon::data::testing;

class TestCsvLoader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void digitsPlainAndGzip();
  void headeredRoundTrip();
  void malformedDigits_data();
  void malformedDigits();
  void malformedHeadered_data();
  void malformedHeadered();
};

namespace {

// A digits row: pixel p = (row + p) mod 17, then the label.
std::string digitsRow(int row, const std::string& label) {
  std::string line;
  for (int p = 0; p < 64; ++p) line += std::to_string((row + p) % 17) + ",";
  return line + label + "\n";
}

std::string digitsText(int rows) {
  std::string text;
  for (int r = 0; r < rows; ++r) text += digitsRow(r, std::to_string(r % 10));
  return text;
}

// Replaces field `field` (0-based) of 1-based line `line` in `text`.
std::string withField(std::string text, int line, int field, const std::string& value) {
  std::size_t start = 0;
  for (int l = 1; l < line; ++l) start = text.find('\n', start) + 1;
  for (int f = 0; f < field; ++f) start = text.find(',', start) + 1;
  const std::size_t end = text.find_first_of(",\n", start);
  return text.replace(start, end - start, value);
}

const char* const kHeadered = "3,2,low,high\n1.5,-2e3,0\n 4 , 5 ,1\r\n0,0.25,1\n";

}  // namespace

void TestCsvLoader::digitsPlainAndGzip() {
  const std::string text = digitsText(12);
  const LabelledTable plain = parseDigitsCsv(textBytes(text), "digits.csv");
  const LabelledTable packed = parseDigitsCsv(gzip(textBytes(text)), "digits.csv.gz");
  QCOMPARE(plain.features.rows(), 12);
  QCOMPARE(plain.features.cols(), 64);
  QCOMPARE(plain.features(11, 63), static_cast<float>((11 + 63) % 17));
  QCOMPARE(plain.labels[11], 1);
  QCOMPARE(plain.classNames.size(), std::size_t{10});
  QVERIFY(plain.features == packed.features);
  QVERIFY(plain.labels == packed.labels);
}

void TestCsvLoader::headeredRoundTrip() {
  const LabelledTable table = parseHeaderedCsv(textBytes(kHeadered), "table.csv");
  QCOMPARE(table.features.rows(), 3);
  QCOMPARE(table.features.cols(), 2);
  QCOMPARE(table.features(0, 1), -2000.0f);
  QCOMPARE(table.features(1, 0), 4.0f);
  QCOMPARE(table.features(2, 1), 0.25f);
  QVERIFY((table.labels == std::vector<int>{0, 1, 1}));
  QVERIFY((table.classNames == std::vector<std::string>{"low", "high"}));
}

void TestCsvLoader::malformedDigits_data() {
  QTest::addColumn<QByteArray>("bytes");
  QTest::addColumn<QString>("source");
  QTest::addColumn<QStringList>("expected");
  const std::string text = digitsText(5);
  const auto row = [](const char* name, const Bytes& bytes, const char* source,
                      QStringList expected) {
    QTest::newRow(name) << toQByteArray(bytes) << QString::fromUtf8(source) << expected;
  };
  row("non-numeric cell", textBytes(withField(text, 3, 4, "x7")), "d.csv",
      {"line 3, column 5", "expected a finite number, found 'x7'"});
  row("empty cell", textBytes(withField(text, 2, 0, "")), "d.csv",
      {"line 2, column 1", "found ''"});
  row("nan cell", textBytes(withField(text, 1, 10, "nan")), "d.csv",
      {"line 1, column 11", "found 'nan'"});
  row("ragged row", textBytes(text + "1,2,3\n"), "d.csv", {"line 6: expected 65 fields, found 3"});
  row("label out of range", textBytes(withField(text, 4, 64, "10")), "d.csv",
      {"line 4, column 65", "label 10 is out of range", "0 to 9"});
  row("fractional label", textBytes(withField(text, 2, 64, "1.5")), "d.csv",
      {"label 1.5 is out of range"});
  row("pixel out of range", textBytes(withField(text, 5, 0, "17")), "d.csv",
      {"line 5, column 1", "pixel value 17 is out of range", "0 to 16"});
  row("empty file", textBytes("\n\n"), "d.csv", {"no data rows"});
  row("bad gzip", textBytes(text), "d.csv.gz", {"bad gzip", "1f 8b"});
  Bytes truncated = gzip(textBytes(digitsText(200)));
  truncated.resize(truncated.size() / 2);
  row("truncated gzip", truncated, "d.csv.gz", {"bad gzip", "truncated"});
}

void TestCsvLoader::malformedDigits() {
  QFETCH(QByteArray, bytes);
  QFETCH(QString, source);
  QFETCH(QStringList, expected);
  const QString message =
      dataErrorOf([&] { parseDigitsCsv(fromQByteArray(bytes), source.toStdString()); });
  qInfo().noquote() << message;
  QVERIFY2(message.startsWith(source),
           qPrintable("no DataError naming the file, got: '" + message + "'"));
  for (const QString& part : expected)
    QVERIFY2(message.contains(part), qPrintable(message + "\n  lacks: " + part));
}

void TestCsvLoader::malformedHeadered_data() {
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QStringList>("expected");
  QTest::newRow("row count mismatch") << QByteArray("4,2,a,b\n1,2,0\n3,4,1\n5,6,0\n")
                                      << QStringList{"header declares 4 rows, found 3 data rows"};
  QTest::newRow("header too short")
      << QByteArray("3,2,a\n1,2,0\n") << QStringList{"line 1", "at least 4 fields, found 3"};
  QTest::newRow("non-numeric row count")
      << QByteArray("many,2,a,b\n1,2,0\n") << QStringList{"line 1, column 1", "found 'many'"};
  QTest::newRow("absurd row count")
      << QByteArray("1e12,2,a,b\n1,2,0\n")
      << QStringList{"line 1, column 1", "expected a row count 1 to 10000000"};
  QTest::newRow("zero features") << QByteArray("1,0,a,b\n0\n")
                                 << QStringList{"expected a feature count 1 to 100000"};
  QTest::newRow("ragged row") << QByteArray("2,2,a,b\n1,2,0\n3,1\n")
                              << QStringList{"line 3: expected 3 fields, found 2"};
  QTest::newRow("label out of range")
      << QByteArray("2,2,a,b\n1,2,0\n3,4,2\n")
      << QStringList{"line 3, column 3", "label 2 is out of range", "0 to 1"};
  QTest::newRow("negative label") << QByteArray("1,2,a,b\n1,2,-1\n")
                                  << QStringList{"label -1 is out of range"};
  QTest::newRow("non-numeric feature")
      << QByteArray("1,2,a,b\n1,abc,0\n") << QStringList{"line 2, column 2", "found 'abc'"};
  QTest::newRow("empty class name")
      << QByteArray("1,2,a,,c\n1,2,0\n") << QStringList{"line 1, column 4", "empty class name"};
  QTest::newRow("empty file") << QByteArray("") << QStringList{"empty; expected a header"};
}

void TestCsvLoader::malformedHeadered() {
  QFETCH(QByteArray, text);
  QFETCH(QStringList, expected);
  const QString message =
      dataErrorOf([&] { parseHeaderedCsv(fromQByteArray(text), "breast.csv"); });
  qInfo().noquote() << message;
  QVERIFY2(message.startsWith("breast.csv"),
           qPrintable("no DataError naming the file, got: '" + message + "'"));
  for (const QString& part : expected)
    QVERIFY2(message.contains(part), qPrintable(message + "\n  lacks: " + part));
}

QTEST_APPLESS_MAIN(TestCsvLoader)
#include "test_data_csv.moc"
