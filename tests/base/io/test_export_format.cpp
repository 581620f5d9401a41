// Exploring to a budget (issue 28): a calibrated σ as the panel keeps it never overshoots the
// target; an ε near a target is shown on its own side of it; the CSV export names each run's
// model, lot size, epochs, learning rate and every setting that differs between the runs, at
// full precision.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "base/io/csv_writer.h"
#include "base/io/experiment_json.h"
#include "base/io/number_format.h"
#include "base/io/privacy_preview.h"
#include "base/io/session_file.h"
#include "core/train/run_planning.h"

using namespace epsilon;
using namespace epsilon::ui;

class TestExportFormat : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void epsilonNearATargetShowsItsSide() {
    QCOMPARE(formatEpsilon(2.000037), QStringLiteral("2"));  // what hid the overshoot
    QCOMPARE(formatEpsilonAgainst(2.000037, 2.0), QStringLiteral("2.00004"));
    QCOMPARE(formatEpsilonAgainst(1.99981, 2.0), QStringLiteral("1.9998"));
    QCOMPARE(formatEpsilonAgainst(1.9999999, 2.0), QStringLiteral("1.9999999"));
    QCOMPARE(formatEpsilonAgainst(2.0, 2.0), QStringLiteral("2"));
    QCOMPARE(formatEpsilonAgainst(1.995, 2.0), QStringLiteral("1.995"));
    QCOMPARE(formatEpsilonAgainst(0.0999, 0.1), QStringLiteral("0.0999"));
    QCOMPARE(formatEpsilonAgainst(100.4, 100.0), QStringLiteral("100.4"));
    // Farther than 1%, or no target: the usual three digits.
    QCOMPARE(formatEpsilonAgainst(2.03, 2.0), QStringLiteral("2.03"));
    QCOMPARE(formatEpsilonAgainst(2.000037, 0.0), QStringLiteral("2"));
    QCOMPARE(formatEpsilonAgainst(INFINITY, 2.0), QStringLiteral("∞"));
    // Every ε within 1% reads on its side of the target.
    for (double target : {0.5, 1.0, 2.0, 8.0}) {
      for (double ratio = 0.99; ratio <= 1.01; ratio += 0.0001234) {
        const double epsilon = ratio * target;
        if (epsilon == target) continue;
        const double shown = formatEpsilonAgainst(epsilon, target).toDouble();
        QVERIFY2((shown > target) == (epsilon > target) && shown != target,
                 qPrintable(formatEpsilonAgainst(epsilon, target)));
      }
    }
  }

  // "Fix ε": the σ the panel's field keeps (3 decimals) is rounded up, so the run it starts
  // never ends above the target (1.72009 stored as 1.72 ended at ε 2.000037).
  void calibratedSigmaKeepsTheRunUnderTarget() {
    for (double target : {0.7, 2.0, 3.3}) {
      for (int epochs : {3, 10, 40}) {
        train::ExperimentConfig c;
        c.training.epochs = epochs;
        const train::RunPlanInput input{10000, 1000};
        const TargetCalibration calibration = calibrateForTarget(c, input, target);
        QVERIFY2(calibration.sigma.has_value(), qPrintable(calibration.error));
        const double units = *calibration.sigma * 1000.0;
        QVERIFY(std::fabs(units - std::round(units)) < 1e-6);
        c.privacy.noise.initial = *calibration.sigma;
        const double epsilon = train::plannedPrivacy(c, input).epsilon;
        QVERIFY2(epsilon <= target && epsilon >= 0.99 * target,
                 qPrintable(QString::number(epsilon)));
      }
    }
  }

  void csvNamesTheSettingsOfEachRun() {
    std::vector<RunRecord> runs(2);
    for (int i = 0; i < 2; ++i) {
      runs[i].id = i + 1;
      runs[i].name = QStringLiteral("run %1").arg(i + 1);
      runs[i].config.privacy.noise.initial = i == 0 ? 1.72009 : 0.8;
      runs[i].config.optimizer.learningRate = 0.012345678;
      runs[i].config.training.lotSize = 128;
      runs[i].config.training.epochs = 3;
      EvalPoint p;
      p.step = 10;
      p.epoch = 1;
      p.testAccuracy = 0.9;
      p.epsilon = 1.5;
      runs[i].evals = {p, p};
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.csv"));
    exportHistoryCsv(path, runs);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 4);
    const QStringList header = lines[0].split(QLatin1Char(','));
    const auto cell = [&](int line, const QString& column) {
      return lines[line].split(QLatin1Char(','))[header.indexOf(column)];
    };
    for (const char* column : {"model.preset", "training.lot_size", "training.epochs",
                               "optimizer.learning_rate", "privacy.noise_multiplier"})
      QVERIFY2(header.contains(QLatin1String(column)), column);
    QVERIFY(!header.contains(QStringLiteral("privacy.delta")));  // the same in both runs
    QCOMPARE(cell(1, QStringLiteral("privacy.noise_multiplier")), QStringLiteral("1.72009"));
    QCOMPARE(cell(3, QStringLiteral("privacy.noise_multiplier")), QStringLiteral("0.8"));
    QCOMPARE(cell(1, QStringLiteral("optimizer.learning_rate")), QStringLiteral("0.012345678"));
    QCOMPARE(cell(4, QStringLiteral("training.lot_size")), QStringLiteral("128"));
    QCOMPARE(cell(2, QStringLiteral("training.epochs")), QStringLiteral("3"));
    QCOMPARE(cell(1, QStringLiteral("model.preset")),
             QString::fromStdString(runs[0].config.model.preset));
  }

  void settingColumnsOfOneRun() {
    const QStringList columns = settingColumns({experimentToJson(train::ExperimentConfig{})});
    QCOMPARE(columns, (QStringList{"model.preset", "model.hidden", "training.lot_size",
                                   "training.epochs", "optimizer.learning_rate"}));
  }
};

QTEST_APPLESS_MAIN(TestExportFormat)
#include "test_export_format.moc"
