#include "ui/widgets/tight_tabs.h"

#include <QProxyStyle>
#include <QTabBar>

namespace epsilon::ui {

namespace {

class TightTabs : public QProxyStyle {
 public:
  int pixelMetric(PixelMetric metric, const QStyleOption* option,
                  const QWidget* widget) const override {
    const int value = QProxyStyle::pixelMetric(metric, option, widget);
    return metric == PM_TabBarTabHSpace ? value / 3 : value;
  }
};

}  // namespace

void useTightTabs(QTabBar* bar) {
  if (!bar || dynamic_cast<TightTabs*>(bar->style())) return;
  auto* tight = new TightTabs;
  tight->setParent(bar);
  bar->setStyle(tight);
}

}  // namespace epsilon::ui
