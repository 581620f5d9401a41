#include "ui/widgets/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

#include "ui/charts/run_charts.h"
#include "ui/charts/sweep_map_chart.h"
#include "ui/widgets/file_dialogs.h"

namespace epsilon::ui {

namespace {
// Where the last accepted export's format, size and DPI are kept, so a lecturer's 1920×1080 at
// 150 DPI is offered again (also after a restart).
const QString kFormatKey = QStringLiteral("export/format");
const QString kWidthKey = QStringLiteral("export/width");
const QString kHeightKey = QStringLiteral("export/height");
const QString kDpiKey = QStringLiteral("export/dpi");
const QString kCaptionKey = QStringLiteral("export/privacyCaption");
// "Caption with δ, accountant and sampling", as accepted last (on at first).
QCheckBox* makeCaptionBox(QWidget* parent) {
  auto* box = new QCheckBox(ExportDialog::tr("Caption with δ, accountant and sampling"), parent);
  box->setToolTip(
      ExportDialog::tr("For a report: a line under the chart saying what the shown "
                       "runs' ε assume (δ, accountant, sampling)"));
  box->setChecked(QSettings().value(kCaptionKey, true).toBool());
  return box;
}
}  // namespace

ExportDialog::ExportDialog(int chartKind, QWidget* parent)
    : QDialog(parent),
      m_chart(new QComboBox(this)),
      m_format(new QComboBox(this)),
      m_width(new QSpinBox(this)),
      m_height(new QSpinBox(this)),
      m_dpi(new QSpinBox(this)),
      m_file(new QLineEdit(this)),
      m_caption(makeCaptionBox(this)) {
  setWindowTitle(tr("Export chart"));
  m_chart->addItem(tr("Whole chart grid (with the legend)"), -1);
  for (ChartKind kind : kAllChartKinds) m_chart->addItem(chartTitle(kind), static_cast<int>(kind));
  m_chart->addItem(sweepMapTitle(), kSweepMapChart);
  m_chart->setCurrentIndex(std::max(0, m_chart->findData(chartKind)));
  m_format->addItem(tr("PNG image"), QStringLiteral("png"));
  m_format->addItem(tr("SVG vector image"), QStringLiteral("svg"));
  m_format->addItem(tr("PDF document"), QStringLiteral("pdf"));
  const QSettings settings;
  m_format->setCurrentIndex(std::max(0, m_format->findData(settings.value(kFormatKey))));
  m_width->setRange(200, 12000);  // a remembered value out of range is clamped to it
  m_width->setValue(settings.value(kWidthKey, 1600).toInt());
  m_width->setSuffix(tr(" px"));
  m_height->setRange(150, 12000);
  m_height->setValue(settings.value(kHeightKey, 1000).toInt());
  m_height->setSuffix(tr(" px"));
  m_dpi->setRange(48, 1200);
  m_dpi->setValue(settings.value(kDpiKey, 150).toInt());
  const QString folder = lastFolder(FolderPurpose::Charts);
  const QString stem = chartKind < 0 ? QStringLiteral("charts")
                       : chartKind == kSweepMapChart
                           ? sweepMapFileStem()
                           : chartFileStem(static_cast<ChartKind>(chartKind));
  m_file->setText(
      QDir(folder).filePath(stem + QLatin1Char('.') + m_format->currentData().toString()));
  m_dpi->setEnabled(m_format->currentData().toString() == QLatin1String("png"));

  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(m_file, 1);
  fileRow->addWidget(browse);
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(m_width);
  sizeRow->addWidget(m_height);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Chart:"), m_chart);
  form->addRow(tr("Format:"), m_format);
  form->addRow(tr("Size:"), sizeRow);
  form->addRow(tr("Resolution (PNG):"), m_dpi);
  form->addRow(tr("File:"), fileRow);
  form->addRow(m_caption);
  form->addRow(buttons);

  connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSuffix);
  connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
  connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
}

int ExportDialog::chartKind() const {
  return m_chart->currentData().toInt();
}
QSize ExportDialog::size() const {
  return QSize(m_width->value(), m_height->value());
}
int ExportDialog::dpi() const {
  return m_dpi->value();
}
bool ExportDialog::privacyCaption() const {
  return m_caption->isChecked();
}

QString ExportDialog::path() const {
  const QFileInfo info(m_file->text().trimmed());
  const QString suffix = m_format->currentData().toString();
  return info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + suffix);
}

void ExportDialog::updateSuffix() {
  m_dpi->setEnabled(m_format->currentData().toString() == QLatin1String("png"));
  m_file->setText(path());
}

void ExportDialog::browse() {
  const QString chosen = askSaveFile(this, FolderPurpose::Charts, tr("Export chart"), path(),
                                     tr("PNG, SVG or PDF (*.png *.svg *.pdf)"));
  if (!chosen.isEmpty()) {
    m_file->setText(chosen);
    updateSuffix();
  }
}

void ExportDialog::accept() {
  rememberFolder(FolderPurpose::Charts, path());
  QSettings settings;
  settings.setValue(kFormatKey, m_format->currentData());
  settings.setValue(kWidthKey, m_width->value());
  settings.setValue(kHeightKey, m_height->value());
  settings.setValue(kDpiKey, m_dpi->value());
  settings.setValue(kCaptionKey, m_caption->isChecked());
  QDialog::accept();
}

}  // namespace epsilon::ui
