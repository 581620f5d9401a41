// Slider position <-> value mapping and number formatting: pure helpers of the UI.
#include <QTest>
#include <cmath>

#include "base/io/number_format.h"
#include "ui/widgets/slider_mapping.h"

using namespace epsilon::ui;

class TestSliderMapping : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void linearEndsAndMiddle() {
    const SliderScale s{0.0, 10.0, false, 1000};
    QCOMPARE(sliderToValue(s, 0), 0.0);
    QCOMPARE(sliderToValue(s, 1000), 10.0);
    QCOMPARE(sliderToValue(s, 500), 5.0);
    QCOMPARE(valueToSlider(s, 2.5), 250);
    QCOMPARE(valueToSlider(s, -3.0), 0);     // clamped
    QCOMPARE(valueToSlider(s, 99.0), 1000);  // clamped
  }
  void logarithmicIsGeometric() {
    const SliderScale s{1e-4, 1.0, true, 400};
    QVERIFY(std::abs(sliderToValue(s, 0) - 1e-4) < 1e-12);
    QVERIFY(std::abs(sliderToValue(s, 400) - 1.0) < 1e-12);
    QVERIFY(std::abs(sliderToValue(s, 100) - 1e-3) < 1e-12);  // a quarter of 4 decades
    QCOMPARE(valueToSlider(s, 0.01), 200);
  }
  void roundTripIsWithinOneStep() {
    const SliderScale s{0.05, 20.0, true, 1000};
    for (int p = 0; p <= 1000; p += 37) QCOMPARE(valueToSlider(s, sliderToValue(s, p)), p);
  }
  void formats() {
    QCOMPARE(formatEpsilon(1.23456), QStringLiteral("1.23"));
    QCOMPARE(formatEpsilon(INFINITY), QStringLiteral("∞"));
    QCOMPARE(formatDelta(1e-5), QStringLiteral("1e-5"));
    QCOMPARE(formatPercent(0.9734), QStringLiteral("97.3%"));
    QCOMPARE(formatDuration(4.21), QStringLiteral("4.2 s"));
    QCOMPARE(formatDuration(0.0431), QStringLiteral("43 ms"));  // not "0.0 s"
    QCOMPARE(formatDuration(0.0002), QStringLiteral("1 ms"));
    QCOMPARE(formatDuration(0.096), QStringLiteral("0.1 s"));
    QCOMPARE(formatDuration(0), QStringLiteral("0.0 s"));  // not started
    QCOMPARE(formatDuration(185), QStringLiteral("3 min 05 s"));
  }
};

QTEST_APPLESS_MAIN(TestSliderMapping)
#include "test_slider_mapping.moc"
