// MainWindow: the View menu — presentation mode (F11: large fonts, thick lines), the Focus
// view (F10: charts and lesson only, full screen), one text size for every chart (Ctrl++,
// Ctrl+-, Ctrl+0), the axes' scales and the docks — and laying the docks out for a font.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <algorithm>

#include "ui/widgets/attack_view.h"
#include "ui/widgets/chart_panel.h"
#include "ui/widgets/experiment_panel.h"
#include "ui/widgets/focus_view.h"
#include "ui/widgets/font_size_control.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/privacy_readout.h"
#include "ui/widgets/sweep_map_view.h"

namespace epsilon::ui {

void MainWindow::buildViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  m_presentationAction = view->addAction(tr("&Presentation mode"));
  m_presentationAction->setCheckable(true);
  m_presentationAction->setShortcut(QKeySequence(Qt::Key_F11));
  m_presentationAction->setToolTip(tr("Large fonts and thick lines for a projector"));
  connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
  // The charts and the lesson only, full screen; the same key leaves.
  m_focus = new FocusView(this, {QStringLiteral("lessonDock")});
  view->addAction(m_focus->action());
  // One text size for every chart, the Attack tab's included.
  m_fontSize = new FontSizeControl(m_options.useSettings, this);
  view->addMenu(m_fontSize->menu(this));
  connect(m_fontSize, &FontSizeControl::stepChanged, this, &MainWindow::applyChartFonts);
  applyChartFonts();
  view->addSeparator();
  view->addMenu(m_charts->epsilonScaleMenu(this));
  view->addMenu(m_charts->lossScaleMenu(this));
  view->addSeparator();
  lessonDock()->hide();  // exists from the start, so View can always bring it back
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
}

// The run charts' tick-label size (mode and step) is every other chart's: the Attack tab's
// and the Sweep map's.
void MainWindow::applyChartFonts() {
  m_charts->setFontStep(m_fontSize->step());
  m_attackView->setChartPointSize(m_charts->charts()->labelPointSize());
  m_sweepMap->setChartPointSize(m_charts->charts()->labelPointSize());
}

void MainWindow::setPresentationMode(bool on) {
  m_charts->setPresentationMode(on);
  applyChartFonts();
  m_readout->setPresentationMode(on);
  QFont f = QApplication::font();
  f.setPointSize(on ? 14 : QFont().pointSize());
  setFont(f);
  m_panel->setCompactLayout(on);
  // Larger fonts need more room: lay the docks out again once the new font is in place.
  // Twice: the docks' sizes settle a few layout passes after the font has changed.
  QTimer::singleShot(0, this, &MainWindow::fitDocksToFont);
  QTimer::singleShot(250, this, &MainWindow::fitDocksToFont);
  if (m_presentationAction && m_presentationAction->isChecked() != on)
    m_presentationAction->setChecked(on);
}

void MainWindow::fitDocksToFont() {
  // The Experiment dock gets the width its values need (at most 40% of the window).
  auto* dock = findChild<QDockWidget*>(QStringLiteral("experimentDock"));
  auto* scroll = dock ? qobject_cast<QScrollArea*>(dock->widget()) : nullptr;
  if (scroll) {
    const int needed = m_panel->minimumSizeHint().width() +
                       style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2 * scroll->frameWidth() +
                       8;
    resizeDocks({dock}, {std::min(needed, width() * 2 / 5)}, Qt::Horizontal);
  }
  // The Privacy budget dock gets the height that shows the attacker sentence whole (at most
  // 60% of the window; the ε curve below it scrolls).
  auto* privacy = findChild<QDockWidget*>(QStringLiteral("privacyDock"));
  auto* readoutScroll = privacy ? qobject_cast<QScrollArea*>(privacy->widget()) : nullptr;
  auto* sentence = m_readout->findChild<QWidget*>(QStringLiteral("attackerSentence"));
  if (readoutScroll && sentence && privacy->isVisible()) {
    m_readout->layout()->activate();
    const int bottom = sentence->mapTo(m_readout, QPoint(0, sentence->height())).y();
    const int missing = bottom + 4 - readoutScroll->viewport()->height();
    if (missing > 0) {
      // The Runs dock below gives up rows (it scrolls) so the right column has the height.
      if (auto* runs = findChild<QDockWidget*>(QStringLiteral("runsDock")))
        resizeDocks({runs}, {std::max(runs->minimumSizeHint().height(), runs->height() - missing)},
                    Qt::Vertical);
      // The tabs below it (Model view, Help, Gradient norms) give up the same height, through
      // the one in front: resizing a dock behind its tab let the readout shrink back.
      QDockWidget* below = nullptr;
      for (const char* name : {"modelDock", "gradientNormDock", "helpDock"}) {
        auto* tab = findChild<QDockWidget*>(QLatin1String(name));
        const bool inFront = tab && tab->isVisible() && !tab->visibleRegion().isEmpty();
        if (inFront || (!below && tab && tab->isVisible())) below = tab;
        if (inFront) break;
      }
      const int grown = std::min(privacy->height() + missing, height() * 3 / 5);
      if (below)
        resizeDocks({privacy, below}, {grown, below->height() - (grown - privacy->height())},
                    Qt::Vertical);
    }
  }
}

}  // namespace epsilon::ui
