// The export dialog: the chart and format chosen give the file's extension and the export's
// arguments; the folder, format, size and DPI of an accepted export are where the next dialog
// starts (QSettings); a cancelled one changes nothing.
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "ui/charts/run_charts.h"
#include "ui/widgets/export_dialog.h"

using namespace epsilon::ui;

class TestExportDialog : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }
  void cleanupTestCase() { QSettings().clear(); }

  void choicesGiveTheExport() {
    ExportDialog dialog(static_cast<int>(ChartKind::AccuracyVsEpsilon));
    QCOMPARE(dialog.chartKind(), static_cast<int>(ChartKind::AccuracyVsEpsilon));
    QVERIFY(dialog.path().endsWith(QStringLiteral("accuracy-vs-epsilon.png")) ||
            dialog.path().endsWith(chartFileStem(ChartKind::AccuracyVsEpsilon) +
                                   QStringLiteral(".png")));
    dialog.formatCombo()->setCurrentIndex(dialog.formatCombo()->findData(QStringLiteral("svg")));
    QVERIFY2(dialog.path().endsWith(QStringLiteral(".svg")), qPrintable(dialog.path()));
    QVERIFY(dialog.fileEdit()->text().endsWith(QStringLiteral(".svg")));
    dialog.chartCombo()->setCurrentIndex(0);
    QCOMPARE(dialog.chartKind(), -1);
    QCOMPARE(dialog.size(), QSize(1600, 1000));
    QCOMPARE(dialog.dpi(), 150);
  }

  void remembersTheLastFolder() {
    QTemporaryDir dir;
    {
      ExportDialog dialog(-1);
      dialog.fileEdit()->setText(QDir(dir.path()).filePath(QStringLiteral("slides.png")));
      dialog.accept();
    }
    ExportDialog next(-1);
    QCOMPARE(QFileInfo(next.path()).absolutePath(), QFileInfo(dir.path()).absoluteFilePath());
  }

  void remembersSizeDpiAndFormat() {
    QTemporaryDir dir;
    {
      ExportDialog dialog(-1);
      dialog.widthBox()->setValue(1920);
      dialog.heightBox()->setValue(1080);
      dialog.dpiBox()->setValue(200);
      dialog.formatCombo()->setCurrentIndex(dialog.formatCombo()->findData(QStringLiteral("pdf")));
      dialog.fileEdit()->setText(QDir(dir.path()).filePath(QStringLiteral("slides.pdf")));
      dialog.accept();
    }
    {
      ExportDialog next(static_cast<int>(ChartKind::LossVsStep));
      QCOMPARE(next.size(), QSize(1920, 1080));
      QCOMPARE(next.dpi(), 200);
      QVERIFY2(next.path().endsWith(chartFileStem(ChartKind::LossVsStep) + QStringLiteral(".pdf")),
               qPrintable(next.path()));
      next.widthBox()->setValue(800);  // cancelled: not remembered
      next.reject();
    }
    ExportDialog again(-1);
    QCOMPARE(again.size(), QSize(1920, 1080));
    // A value out of the dialog's range (an edited settings file) is clamped to it.
    QSettings().setValue(QStringLiteral("export/dpi"), 99999);
    QCOMPARE(ExportDialog(-1).dpi(), 1200);
  }
};

QTEST_MAIN(TestExportDialog)
#include "test_export_dialog.moc"
