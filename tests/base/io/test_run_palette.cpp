// The runs' palette (base/io/run_palette.h): every colour stands out from the chart background
// by at least 3:1, the colours are told apart, and a new run never takes a colour in use.
#include <QTest>
#include <array>
#include <cmath>

#include "base/io/run_palette.h"

using namespace epsilon::ui;

class TestRunPalette : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void contrastRatioFollowsWcag() {
    QCOMPARE(contrastRatio(QStringLiteral("#000000"), QStringLiteral("#ffffff")), 21.0);
    QCOMPARE(contrastRatio(QStringLiteral("#ffffff"), QStringLiteral("#ffffff")), 1.0);
    // Symmetric, and WCAG's own example: #767676 on white is 4.54:1.
    const double grey = contrastRatio(QStringLiteral("#767676"), QStringLiteral("#FFFFFF"));
    QVERIFY(std::abs(grey - 4.54) < 0.01);
    QCOMPARE(contrastRatio(QStringLiteral("#ffffff"), QStringLiteral("#767676")), grey);
    // The pale yellow of the old palette fades on a projector.
    QVERIFY(contrastRatio(QStringLiteral("#f0e442"), QStringLiteral("#ffffff")) < 1.5);
    QVERIFY(std::isnan(contrastRatio(QStringLiteral("yellow"), QStringLiteral("#ffffff"))));
    QVERIFY(std::isnan(contrastRatio(QStringLiteral("#12345g"), QStringLiteral("#ffffff"))));
  }

  void everyColourHasContrastAgainstTheChartBackground() {
    const QStringList& palette = runPalette();
    QVERIFY(palette.size() >= 8);
    for (const QString& color : palette) {
      const double ratio = contrastRatio(color, QLatin1String(kChartBackground));
      if (!(ratio >= kMinimumSeriesContrast))
        QFAIL(qPrintable(QStringLiteral("%1 has contrast %2 against the chart background")
                             .arg(color)
                             .arg(ratio)));
    }
  }

  void coloursAreDistinct() {
    // No two colours closer than 55 in RGB (0..255 a channel): neighbours on a chart stay apart.
    const QStringList& palette = runPalette();
    const auto channels = [](const QString& color) {
      const uint rgb = QStringView(color).mid(1).toUInt(nullptr, 16);
      return std::array<int, 3>{static_cast<int>(rgb >> 16), static_cast<int>((rgb >> 8) & 0xff),
                                static_cast<int>(rgb & 0xff)};
    };
    for (qsizetype i = 0; i < palette.size(); ++i) {
      for (qsizetype j = i + 1; j < palette.size(); ++j) {
        const auto a = channels(palette[i]);
        const auto b = channels(palette[j]);
        const double distance =
            std::hypot(a[0] - b[0], a[1] - b[1], static_cast<double>(a[2] - b[2]));
        QVERIFY2(distance >= 55.0, qPrintable(palette[i] + QLatin1Char(' ') + palette[j]));
      }
    }
  }

  void aNewRunTakesAColourNotInUse() {
    const QStringList& palette = runPalette();
    QCOMPARE(nextRunColor({}), palette[0]);
    // A reopened session's runs hold palette colours out of order (some deleted before saving).
    const QStringList reopened = {palette[0], palette[2], palette[3].toUpper()};
    QCOMPARE(nextRunColor(reopened), palette[1]);
    QStringList inUse = reopened;
    for (int k = 0; k < palette.size() - 3; ++k) {
      const QString next = nextRunColor(inUse);
      QVERIFY2(!inUse.contains(next, Qt::CaseInsensitive), qPrintable(next));
      inUse << next;
    }
    // Every colour is in use once: the next is the first of those used least.
    QCOMPARE(nextRunColor(inUse), palette[0]);
    inUse << palette[0] << palette[1];
    QCOMPARE(nextRunColor(inUse), palette[2]);
    // Colours from elsewhere (a file's own, empty ones) take nothing away.
    QCOMPARE(nextRunColor({QStringLiteral("#123456"), QString()}), palette[0]);
  }
};

QTEST_APPLESS_MAIN(TestRunPalette)
#include "test_run_palette.moc"
