// A background job's line under the controls that start it: a progress bar while it runs and a
// sentence about it (hidden while empty). The Attack tab's canary audit and LiRA have one each.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace epsilon::ui {

class JobProgressLine : public QWidget {
  Q_OBJECT
 public:
  explicit JobProgressLine(QWidget* parent = nullptr);

  void started(const QString& text);  // the bar at 0, shown
  void progressed(double fraction, const QString& text);
  void ended(const QString& text);  // the bar hidden
  void setText(const QString& text);
  QString text() const;

 private:
  QProgressBar* m_progress;
  QLabel* m_status;
};

}  // namespace epsilon::ui
