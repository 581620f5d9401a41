// The gradient-norm view draws normHistogram of the lot's norms (its counts are those of the
// norms given, over [0, max(largest, 1.25·C)]) with the line at C and the fraction clipped,
// and in the main window it follows a training run live, showing that run's lot.
#include <QComboBox>
#include <QTableView>
#include <QTest>
#include <cmath>

#include "base/session/run_model.h"
#include "core/train/gradient_norms.h"
#include "tests/ui/widgets/test_window_options.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/gradient_norm_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/runs_view.h"
#include "ui/widgets/training_controller.h"

using namespace epsilon;
using namespace epsilon::ui;

class TestGradientNormView : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void histogramCountsAreThoseOfTheNorms() {
    auto sample = std::make_shared<train::GradientNormSample>();
    sample->step = 7;
    sample->norms = {0.1, 0.2, 0.25, 0.9, 1.1, 1.5, 3.0, 3.0, 0.0, 2.2};
    sample->clipNorm = 1.0;
    sample->fractionClipped = 0.6;
    GradientNormView view;
    view.resize(300, 200);
    view.setSample(sample, privacy::PrivatizerOptions{}, QStringLiteral("σ 1 · C 1"));
    const train::NormHistogram expected =
        train::normHistogram(sample->norms, GradientNormView::kBins, 3.0);
    QCOMPARE(view.histogram().counts, expected.counts);
    QCOMPARE(view.histogram().overflow, 0LL);
    QCOMPARE(view.histogram().max, 3.0);
    long long total = 0;
    for (long long c : view.histogram().counts) total += c;
    QCOMPARE(total, static_cast<long long>(sample->norms.size()));
    QVERIFY(view.caption().contains(QStringLiteral("60% clipped")));
    QVERIFY(view.caption().contains(QStringLiteral("C = 1")));
    QVERIFY(!view.grab().isNull());

    // Norms all below C: the axis reaches 1.25·C so the line at C is inside the plot.
    sample->norms = {0.1, 0.3};
    view.setSample(sample, privacy::PrivatizerOptions{}, QString());
    QCOMPARE(view.histogram().max, 1.25);
    QCOMPARE(view.histogram().counts,
             train::normHistogram(sample->norms, GradientNormView::kBins, 1.25).counts);
  }

  void followsATrainingRun() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    test::trainInRealTime(w);
    QComboBox* data = w.experimentPanel()->datasetCombo();
    data->setCurrentIndex(data->findText(QStringLiteral("circle")));
    w.experimentPanel()->epochsSlider()->setValue(2);
    const int id = w.startRun();
    QVERIFY(id > 0);
    QTRY_VERIFY_WITH_TIMEOUT(w.gradientNormView()->hasSample(), 30000);
    const train::GradientNormSample* s = w.gradientNormView()->sample();
    QVERIFY(!s->norms.empty());
    QCOMPARE(s->clipNorm, w.runModel()->run(id)->config.privacy.privatizer.clipNorm);
    long long counted = w.gradientNormView()->histogram().overflow;
    for (long long c : w.gradientNormView()->histogram().counts) counted += c;
    QCOMPARE(counted, static_cast<long long>(s->norms.size()));
    QVERIFY(w.gradientNormView()->caption().contains(w.runModel()->run(id)->name));
    w.controller()->cancelAll();
  }

  void followsTheSelectedRun() {
    MainWindow::Options options;
    options.useSettings = false;
    MainWindow w(options);
    test::trainInRealTime(w);
    QComboBox* data = w.experimentPanel()->datasetCombo();
    data->setCurrentIndex(data->findText(QStringLiteral("circle")));
    w.experimentPanel()->epochsSlider()->setValue(1);
    const int first = w.startRun();
    w.runModel()->rename(first, QStringLiteral("first run"));
    QTRY_VERIFY_WITH_TIMEOUT(w.runModel()->run(first)->status == RunStatus::Done, 60000);
    const int second = w.startRun();
    w.runModel()->rename(second, QStringLiteral("second run"));
    QTRY_VERIFY_WITH_TIMEOUT(w.runModel()->run(second)->status == RunStatus::Done, 60000);
    QTRY_VERIFY(w.gradientNormView()->caption().contains(QStringLiteral("second run")));
    w.runsView()->table()->selectRow(w.runModel()->rowOf(first));
    QVERIFY(w.gradientNormView()->caption().contains(QStringLiteral("first run")));
  }
};

QTEST_MAIN(TestGradientNormView)
#include "test_gradient_norm_view.moc"
