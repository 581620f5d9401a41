// A label whose text changes often — the privacy readout's numbers while a slider is dragged —
// without laying out the widgets around it at each change. QLabel::setText asks its parent's
// layout to run again at every new text: the readout's layout, its scroll area's and the
// dock's, about 2 ms of the GUI thread each time, though a new value of the same length takes
// the same room. Here the label sits in a host without a layout that passes the label's sizes
// on and asks for a layout only when they change (another line, a longer text, a new font);
// otherwise the new text is only painted. Of two texts of the same length, the wider room is
// kept (a digit's width is no reason to lay a window out again); nothing is ever clipped.
#pragma once

#include <QFont>
#include <QWidget>

class QLabel;

namespace epsilon::ui {

class SteadyLabel : public QWidget {
  Q_OBJECT
 public:
  explicit SteadyLabel(QWidget* parent = nullptr);

  QLabel* label() const { return m_label; }
  QString text() const;
  void setText(const QString& text);  // an unchanged text does nothing
  void clear() { setText({}); }
  void setWordWrap(bool on);  // the label's, with the height-for-width that comes with it
  // How many times a new text or font made the host ask its parent for a layout (tests).
  int layoutRequests() const { return m_layoutRequests; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  bool hasHeightForWidth() const override;
  int heightForWidth(int width) const override;

 protected:
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Sizes {
    QSize hint;
    QSize minimum;
    int height = -1;  // for the current width, when the text wraps
    QFont font;
    bool operator==(const Sizes& other) const = default;
  };
  Sizes current() const;  // the label's sizes, widths kept from the last report (see above)

  QLabel* m_label;
  mutable Sizes m_reported;   // what the parent's layout last saw
  bool m_sameLength = false;  // the text changed to one of the same length
  int m_layoutRequests = 0;
};

}  // namespace epsilon::ui
