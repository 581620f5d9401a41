// The one export dialog: which chart (the grid or one of the four), the format (PNG, SVG,
// PDF), the size, the DPI (PNG) and the file, starting in the folder used last (file_dialogs.h,
// remembered on accept) with the format, size and DPI accepted last (QSettings).
#pragma once

#include <QDialog>
#include <QSize>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace epsilon::ui {

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  // `chartKind` preselects the chart: -1 the grid, kSweepMapChart the sweep map, else a ChartKind.
  explicit ExportDialog(int chartKind, QWidget* parent = nullptr);

  int chartKind() const;
  QString path() const;  // the folder and file name, with the format's extension
  QSize size() const;
  int dpi() const;
  // A caption under the chart with the shown runs' δ, accountant and sampling (for a report).
  bool privacyCaption() const;

  QComboBox* formatCombo() const { return m_format; }
  QComboBox* chartCombo() const { return m_chart; }
  QSpinBox* widthBox() const { return m_width; }
  QSpinBox* heightBox() const { return m_height; }
  QSpinBox* dpiBox() const { return m_dpi; }
  QLineEdit* fileEdit() const { return m_file; }
  QCheckBox* captionBox() const { return m_caption; }

  void accept() override;

 private:
  void updateSuffix();
  void browse();

  QComboBox* m_chart;
  QComboBox* m_format;
  QSpinBox* m_width;
  QSpinBox* m_height;
  QSpinBox* m_dpi;
  QLineEdit* m_file;
  QCheckBox* m_caption;
};

}  // namespace epsilon::ui
