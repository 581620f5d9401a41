// The privacy readout's labels (SteadyLabel) lay their parent out again only when their size
// changes: a new value of the same length is only painted, a longer text or another line is
// laid out, and the label always has the room its text needs. The values that change while a
// slider is dragged (these labels, the panel's sliders) repaint themselves alone, not the group
// box and scroll area behind them.
#include <QGroupBox>
#include <QLabel>
#include <QSlider>
#include <QTest>
#include <QVBoxLayout>
#include <map>

#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/steady_label.h"

using epsilon::ui::ParameterSlider;
using epsilon::ui::SliderScale;
using epsilon::ui::SteadyLabel;

namespace {
// Counts the layout requests a widget receives.
class LayoutCounter : public QObject {
 public:
  int count = 0;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::LayoutRequest) ++count;
    return QObject::eventFilter(watched, event);
  }
};

// Counts the paint events of the widgets it watches, each on its own.
class PaintCounter : public QObject {
 public:
  std::map<QObject*, int> count;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Paint) ++count[watched];
    return QObject::eventFilter(watched, event);
  }
};
}  // namespace

class TestSteadyLabel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aSameLengthValueIsOnlyPainted() {
    QWidget parent;
    auto* layout = new QVBoxLayout(&parent);
    auto* steady = new SteadyLabel(&parent);
    auto* plain = new QLabel(&parent);
    layout->addWidget(steady);
    layout->addWidget(plain);
    steady->setText(QStringLiteral("ε = 1.2345"));
    plain->setText(QStringLiteral("ε = 1.2345"));
    parent.resize(300, 200);
    parent.show();
    QVERIFY(QTest::qWaitForWindowExposed(&parent));
    QCoreApplication::processEvents();
    LayoutCounter counter;
    parent.installEventFilter(&counter);

    plain->setText(QStringLiteral("ε = 1.2351"));  // a plain label lays its parent out again
    QCoreApplication::processEvents();
    QVERIFY(counter.count > 0);
    counter.count = 0;

    const int requests = steady->layoutRequests();
    steady->setText(QStringLiteral("ε = 1.2351"));
    QCoreApplication::processEvents();
    QCOMPARE(steady->text(), QStringLiteral("ε = 1.2351"));
    QCOMPARE(counter.count, 0);
    QCOMPARE(steady->layoutRequests(), requests);
    QVERIFY(steady->label()->width() >= steady->label()->sizeHint().width());

    steady->setText(QStringLiteral("ε = 1.2351"));  // unchanged: nothing at all
    QCoreApplication::processEvents();
    QCOMPARE(counter.count, 0);

    steady->setText(QStringLiteral("ε = 12.2351 (a longer text)"));
    QCoreApplication::processEvents();
    QCOMPARE(steady->layoutRequests(), requests + 1);
    // The parent's layout knows the new size: the window cannot be made too narrow for it.
    QVERIFY(parent.layout()->minimumSize().width() >= steady->label()->minimumSizeHint().width());
    QVERIFY(steady->minimumSizeHint().width() >= steady->label()->minimumSizeHint().width());
    QVERIFY(steady->label()->width() >= steady->label()->sizeHint().width());
  }
  void aChangingValueRepaintsNothingBehindIt() {
    QGroupBox box(QStringLiteral("Privacy"));
    auto* layout = new QVBoxLayout(&box);
    auto* steady = new SteadyLabel(&box);
    auto* slider =
        new ParameterSlider(QStringLiteral("Noise σ"), SliderScale{0.1, 10, true, 1000}, 3, &box);
    layout->addWidget(steady);
    layout->addWidget(slider);
    steady->setText(QStringLiteral("ε = 1.2345"));
    box.resize(300, 200);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    QCoreApplication::processEvents();
    PaintCounter painted;
    for (QObject* watched : {static_cast<QObject*>(&box), static_cast<QObject*>(steady->label()),
                             static_cast<QObject*>(slider->slider())})
      watched->installEventFilter(&painted);

    steady->setText(QStringLiteral("ε = 1.2351"));
    QTRY_VERIFY(painted.count[steady->label()] > 0);
    slider->slider()->setValue(slider->slider()->value() + 100);  // as a drag moves it
    QTRY_VERIFY(painted.count[slider->slider()] > 0);
    QCoreApplication::processEvents();
    QCOMPARE(painted.count[&box], 0);
  }
  void anotherLineIsLaidOut() {
    QWidget parent;
    auto* layout = new QVBoxLayout(&parent);
    auto* steady = new SteadyLabel(&parent);
    steady->setWordWrap(true);
    layout->addWidget(steady);
    layout->addStretch(1);
    steady->setText(QStringLiteral("one short line"));
    parent.resize(160, 400);
    parent.show();
    QVERIFY(QTest::qWaitForWindowExposed(&parent));
    QCoreApplication::processEvents();
    const int oneLine = steady->height();
    steady->setText(QStringLiteral(
        "a sentence long enough to wrap onto several lines of a narrow readout, as the "
        "attacker's sentence does"));
    QTRY_VERIFY(steady->height() > oneLine);
    QCOMPARE(steady->label()->height(), steady->label()->heightForWidth(steady->width()));
  }
};

QTEST_MAIN(TestSteadyLabel)
#include "test_steady_label.moc"
