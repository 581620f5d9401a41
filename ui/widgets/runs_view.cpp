#include "ui/widgets/runs_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QProxyStyle>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "base/io/json_reader.h"
#include "base/io/train_command.h"
#include "base/session/run_model.h"
#include "base/session/run_table_proxy.h"
#include "base/session/session_history.h"
#include "ui/charts/drawn_text.h"
#include "ui/widgets/coalesced_refresh.h"

namespace epsilon::ui {

namespace {

// Draws the status column as a progress bar with the status word on it.
class StatusDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    const auto status = static_cast<RunStatus>(index.data(RunModel::StatusRole).toInt());
    QStyleOptionProgressBar bar;
    bar.rect = option.rect.adjusted(2, 2, -2, -2);
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress = static_cast<int>(1000 * index.data(RunModel::ProgressRole).toDouble());
    bar.text = index.data(Qt::DisplayRole).toString();
    // A narrow column (a 1024-pixel window) shows the percentage alone on the moving bar.
    if (status == RunStatus::Running) {
      const QString percent = QStringLiteral("%1%").arg(bar.progress / 10);
      const QString both = bar.text + QLatin1Char(' ') + percent;
      bar.text =
          option.fontMetrics.horizontalAdvance(both) + 8 <= bar.rect.width() ? both : percent;
    }
    bar.textVisible = true;
    bar.state = option.state | QStyle::State_Horizontal;
    if (status == RunStatus::Diverged || status == RunStatus::Failed) {
      bar.palette.setColor(QPalette::Highlight, QColor(200, 30, 30));
      bar.palette.setColor(QPalette::Text, QColor(200, 30, 30));
    }
    QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
  }
};

// The Qt Core run model as the table shows it: each run's colour as a swatch by its name, and
// every text drawn (names, messages, labels, tooltips) cut as the charts cut it, so a name of
// a megabyte from a file costs what a name of a line costs (editing still sees it whole).
class RunSwatches : public QIdentityProxyModel {
 public:
  using QIdentityProxyModel::QIdentityProxyModel;
  QVariant data(const QModelIndex& index, int role) const override {
    if (role == Qt::DecorationRole && index.column() == RunModel::NameColumn)
      return QColor(QIdentityProxyModel::data(index, RunModel::ColorRole).toString());
    if (role == Qt::FontRole &&
        QIdentityProxyModel::data(index, RunTableProxy::kBestRole).toBool()) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    // A name elided in a narrow column is whole in its tooltip.
    if (role == Qt::ToolTipRole && index.column() == RunModel::NameColumn)
      return drawnText(QIdentityProxyModel::data(index, Qt::DisplayRole).toString()) +
             QLatin1Char('\n') + QIdentityProxyModel::data(index, role).toString();
    const QVariant value = QIdentityProxyModel::data(index, role);
    if ((role == Qt::DisplayRole || role == Qt::ToolTipRole) &&
        value.typeId() == QMetaType::QString)
      return drawnText(value.toString());
    return value;
  }
};

// Header labels elided to their sections (Fusion clips them): a column that gives way reads
// "Worst / b…", not "/ best"; the header's tooltip says the whole.
class ElidedHeaders : public QProxyStyle {
 public:
  void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                   const QWidget* widget) const override {
    const auto* header = qstyleoption_cast<const QStyleOptionHeader*>(option);
    if (element != CE_HeaderLabel || !header)
      return QProxyStyle::drawControl(element, option, painter, widget);
    QStyleOptionHeader elided(*header);
    elided.text =
        header->fontMetrics.elidedText(header->text, Qt::ElideRight, header->rect.width());
    QProxyStyle::drawControl(element, &elided, painter, widget);
  }
};

// Deleting runs is undoable: the edit keeps the removed runs and their rows.
struct DeletedRuns {
  RunModel* model;
  QList<int> ids;
  std::vector<std::pair<int, RunRecord>> removed;

  void remove() {
    removed.clear();
    for (int id : ids) {
      const int row = model->rowOf(id);
      if (auto run = model->takeRun(id)) {
        // Removing a run stops its training for good: an undo brings it back stopped.
        if (run->isActive()) run->status = RunStatus::Cancelled;
        removed.push_back({row, std::move(*run)});
      }
    }
  }
  void restore() {
    for (auto it = removed.rbegin(); it != removed.rend(); ++it)
      model->restoreRun(it->second, it->first);
    removed.clear();
  }
};

}  // namespace

RunsView::RunsView(RunModel* model, SessionHistory* undoStack, QWidget* parent)
    : QWidget(parent), m_model(model), m_undo(undoStack), m_table(new QTableView(this)) {
  setUpTable();

  auto* toolbar = new QToolBar(this);
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  m_cancel =
      toolbar->addAction(tr("Cancel"), this, [this] { Q_EMIT cancelRequested(cancelTargets()); });
  m_cancel->setToolTip(
      tr("Stop the selected runs, or else the newest one training, within one step (Esc)"));
  m_cancel->setShortcut(Qt::Key_Escape);
  m_cancelAll = toolbar->addAction(tr("Cancel all"), this, [this] { Q_EMIT cancelAllRequested(); });
  m_cancelAll->setToolTip(tr("Stop every queued or running run (Shift+Esc)"));
  m_cancelAll->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
  m_rerun =
      toolbar->addAction(tr("Re-run"), this, [this] { Q_EMIT rerunRequested(selectedRunIds()); });
  m_rerun->setToolTip(tr("Start the selected runs' experiments again as new runs"));
  m_duplicate = toolbar->addAction(tr("Load into panel"), this, [this] {
    const auto ids = selectedRunIds();
    if (!ids.isEmpty()) Q_EMIT duplicateRequested(ids.first());
  });
  m_duplicate->setToolTip(
      tr("Copy the selected run's parameters into the Experiment panel to vary them"));
  m_delete = toolbar->addAction(tr("Delete"), this, &RunsView::deleteSelected);
  m_delete->setShortcut(QKeySequence::Delete);
  m_delete->setToolTip(tr("Remove the selected runs (Del; undo with Ctrl+Z)"));
  toolbar->addWidget(buildBudgetField());
  // Esc, Shift+Esc and Del act wherever the focus is in the window (a spin box of the
  // Experiment panel, a chart), not only in this table: the window adds these actions too.
  for (QAction* a : {m_cancel, m_cancelAll, m_delete}) a->setShortcutContext(Qt::WindowShortcut);

  buildContextMenu();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(toolbar);
  layout->addWidget(m_table);

  connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RunsView::updateActions);
  connect(model, &RunModel::dataChanged, this, &RunsView::updateActions);
  connect(model, &RunModel::runsChanged, this, &RunsView::updateActions);
  updateActions();
}

void RunsView::setUpTable() {
  m_sorted = new RunTableProxy(this);
  m_sorted->setSourceModel(m_model);
  auto* swatches = new RunSwatches(this);
  swatches->setSourceModel(m_sorted);
  m_table->setModel(swatches);
  // Unsorted (the runs' order) until a header is clicked.
  m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  m_table->setSortingEnabled(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_table->setItemDelegateForColumn(RunModel::StatusColumn, new StatusDelegate(m_table));
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(false);
  // The columns are laid out by fitColumns, in the table's width.
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  auto* elided = new ElidedHeaders;
  elided->setParent(m_table->horizontalHeader());
  m_table->horizontalHeader()->setStyle(elided);
  m_table->setAlternatingRowColors(true);
  m_table->viewport()->installEventFilter(this);
  m_fitColumns = new CoalescedRefresh(m_table, 100, [this](bool) { fitColumns(); });
  connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, m_fitColumns,
          &CoalescedRefresh::schedule);
  QAbstractItemModel* shown = m_table->model();
  for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
    connect(shown, signal, m_fitColumns, &CoalescedRefresh::schedule);
  connect(shown, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex& from, const QModelIndex& to) {
            // A training run's progress tick (its bar, its time: several a second) refits
            // nothing unless the time has outgrown its column.
            const bool tick = from == to && (from.column() == RunModel::StatusColumn ||
                                             from.column() == RunModel::TimeColumn);
            if (!tick || m_table->sizeHintForIndex(from).width() >
                             m_table->horizontalHeader()->sectionSize(from.column()))
              m_fitColumns->schedule();
          });
  connect(shown, &QAbstractItemModel::modelReset, m_fitColumns, &CoalescedRefresh::schedule);
  connect(shown, &QAbstractItemModel::layoutChanged, m_fitColumns, &CoalescedRefresh::schedule);
  fitRowsToFont();
}

namespace {

using Widths = std::array<int, RunModel::ColumnCount>;

// Each column's width for its header and its values in view (Status for its word: the
// percentage shows on the bar beside it when it fits, alone when not).
Widths wantedWidths(const QTableView* table) {
  Widths want{};
  const QHeaderView* header = table->horizontalHeader();
  const QAbstractItemView* view = table;  // QTableView's own is protected; the base's is public
  const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  for (int column = 0; column < RunModel::ColumnCount; ++column) {
    // The header's text and margins, and the sort arrow's room only where it is drawn (the
    // header's own size hint keeps it in every column: a seventh of a 1024-pixel table).
    int title = header->fontMetrics().horizontalAdvance(
                    table->model()->headerData(column, Qt::Horizontal).toString()) +
                4 * margin;
    if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
      title += header->height() + margin;
    want[column] = std::max(view->sizeHintForColumn(column), title);
  }
  return want;
}

// Takes up to `over` pixels from `columns`, each giving in proportion to its width above
// `least`; returns what is still over.
int takeFrom(Widths& width, std::initializer_list<int> columns, int least, int over) {
  int spare = 0;
  for (int c : columns) spare += std::max(0, width[c] - least);
  if (over <= 0 || spare <= 0) return over;
  const int taken = std::min(over, spare);
  int left = taken;
  for (int c : columns) {
    const int cut = std::min(left, (taken * std::max(0, width[c] - least) + spare - 1) / spare);
    width[c] -= cut;
    left -= cut;
  }
  return over - (taken - left);
}

}  // namespace

int RunsView::columnFits() const {
  return m_fitColumns->count();
}

// What does not fit is taken from the worst/best class and the differences, down to the
// header's least section, then from the name down to a fifth of the width; room to spare
// goes to the differences. Status, accuracy, ε and time keep their widths.
void RunsView::fitColumns() {
  QHeaderView* header = m_table->horizontalHeader();
  Widths width = wantedWidths(m_table);
  const int room = m_table->viewport()->width();
  const int least = header->minimumSectionSize();  // the header keeps every section to it
  int over = -room;
  for (int& w : width) over += (w = std::max(w, least));
  over = takeFrom(width, {RunModel::ClassesColumn, RunModel::ParametersColumn}, least, over);
  over = takeFrom(width, {RunModel::NameColumn}, std::max(least, room / 5), over);
  if (over < 0) width[RunModel::ParametersColumn] -= over;
  for (int column = 0; column < RunModel::ColumnCount; ++column)
    if (header->sectionSize(column) != width[column]) header->resizeSection(column, width[column]);
  if (m_columnsFit != (over <= 0)) {
    m_columnsFit = over <= 0;
    fitHeightToRows();
  }
}

namespace {
QString budgetTip() {
  return RunsView::tr(
      "Show only the runs whose ε is at most this budget and mark (★) the best final test "
      "accuracy among the finished ones; empty: all runs");
}
}  // namespace

QLineEdit* RunsView::buildBudgetField() {
  m_budget = new QLineEdit(this);
  m_budget->setObjectName(QStringLiteral("budgetFilter"));
  m_budget->setPlaceholderText(tr("ε ≤ budget"));
  m_budget->setClearButtonEnabled(true);
  m_budget->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("ε ≤ budget___")) + 30);
  m_budget->setToolTip(budgetTip());
  connect(m_budget, &QLineEdit::textChanged, this, &RunsView::applyBudgetText);
  return m_budget;
}

void RunsView::buildContextMenu() {
  // "Compare to non-private" is not on the toolbar (it would push Delete off a 1024-pixel
  // window): the context menu and the Run menu.
  m_compare = new QAction(tr("Compare to non-private"), this);
  m_compare->setToolTip(
      tr("Start the selected runs' experiments again without privacy, as new runs"));
  connect(m_compare, &QAction::triggered, this,
          [this] { Q_EMIT compareRequested(selectedRunIds()); });
  m_copySettings = new QAction(tr("Copy settings"), this);
  m_copySettings->setToolTip(
      tr("Copy the selected run's experiment file and the matching "
         "`epsilonlab-cli train …` line to the clipboard"));
  connect(m_copySettings, &QAction::triggered, this, &RunsView::copySettings);
  m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
  m_table->addActions({m_rerun, m_compare, m_duplicate, m_copySettings, m_cancel, m_delete});
}

void RunsView::copySettings() {
  const QList<int> ids = selectedRunIds();
  const RunRecord* run = ids.size() == 1 ? m_model->run(ids.front()) : nullptr;
  if (run) QGuiApplication::clipboard()->setText(settingsClipboardText(run->config));
}

void RunsView::applyBudgetText() {
  const QString text = m_budget->text().trimmed();
  bool ok = false;
  const double budget = QLocale::c().toDouble(text, &ok);
  const bool valid = text.isEmpty() || (ok && std::isfinite(budget) && budget > 0.0);
  m_budget->setStyleSheet(valid ? QString() : QStringLiteral("color: #c00"));
  m_budget->setToolTip(valid ? budgetTip()
                             : tr("ε ≤: expected a number > 0, got '%1'").arg(clipped(text)));
  m_sorted->setBudget(valid && !text.isEmpty() ? std::optional<double>(budget) : std::nullopt);
}

int RunsView::tableRowOf(int runId) const {
  const QModelIndex source = m_model->index(m_model->rowOf(runId), 0);
  return source.isValid() ? m_sorted->mapFromSource(source).row() : -1;
}

QList<int> RunsView::selectedRunIds() const {
  QList<int> ids;
  for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
    ids << index.data(RunModel::RunIdRole).toInt();
  std::sort(ids.begin(), ids.end());
  return ids;
}

QList<int> RunsView::cancelTargets() const {
  QList<int> ids;
  int newest = 0;
  const QList<int> selected = selectedRunIds();
  for (const auto& r : m_model->runs()) {
    if (!r.isActive()) continue;
    if (selected.contains(r.id)) ids << r.id;
    newest = std::max(newest, r.id);
  }
  if (ids.isEmpty() && newest != 0) ids << newest;
  return ids;
}

void RunsView::deleteSelected() {
  const QList<int> ids = selectedRunIds();
  if (ids.isEmpty()) return;
  Q_EMIT cancelRequested(ids);  // a deleted run must stop training
  auto deleted = std::make_shared<DeletedRuns>(DeletedRuns{m_model, ids, {}});
  deleted->remove();
  m_undo->push({ids.size() == 1 ? tr("Delete run") : tr("Delete %1 runs").arg(ids.size()),
                [deleted] { deleted->restore(); }, [deleted] { deleted->remove(); }});
}

void RunsView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) fitRowsToFont();
}

void RunsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  window()->installEventFilter(this);  // the window's height sets the rows kept (minimumRows)
  fitRowsToFont();
}

bool RunsView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window() && event->type() == QEvent::Resize) fitRowsToFont();
  // After the resize (the table is still laying out its scroll bars during it).
  if (watched == m_table->viewport() && event->type() == QEvent::Resize)
    QMetaObject::invokeMethod(this, &RunsView::fitColumns, Qt::QueuedConnection);
  return QWidget::eventFilter(watched, event);
}

int RunsView::minimumRows() const {
  const bool largeFont = font().pointSizeF() > QApplication::font().pointSizeF();
  return largeFont && window()->height() < kRoomyHeight ? kShortWindowRows : kMinimumRows;
}

void RunsView::fitRowsToFont() {
  // Rows as high as a line of text and a little room for the status column's bar: the default
  // (about twice the text) showed 3 rows at 1024×768 and 1 in presentation mode.
  const QFontMetrics metrics(font());
  const int row = metrics.height() + 3;
  m_table->verticalHeader()->setMinimumSectionSize(row);
  m_table->verticalHeader()->setDefaultSectionSize(row);
  // A column that gives way keeps three characters and the ellipsis; its header is elided as
  // its cells are (ElidedHeaders; the header's tooltip and the cells' say the whole).
  QHeaderView* columns = m_table->horizontalHeader();
  columns->setMinimumSectionSize(3 * columns->fontMetrics().averageCharWidth() +
                                 columns->fontMetrics().horizontalAdvance(QChar(0x2026)) + 12);
  fitColumns();
  fitHeightToRows();
}

void RunsView::fitHeightToRows() {
  const QFontMetrics metrics(font());
  const int row = metrics.height() + 3;
  const int header = metrics.height() + 2;
  // Room for the horizontal scroll bar is kept only when the columns do not fit (a window
  // narrower than a projector's), or it covers the last row kept (the only one in a short
  // presentation window).
  const int scrollBar =
      m_columnsFit ? 0 : style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_table);
  m_table->setMinimumHeight(header + minimumRows() * row + scrollBar + 2 * m_table->frameWidth() +
                            2);
}

void RunsView::updateActions() {
  const QList<int> ids = selectedRunIds();
  const bool anyActive = std::any_of(m_model->runs().begin(), m_model->runs().end(),
                                     [](const RunRecord& r) { return r.isActive(); });
  m_cancel->setEnabled(anyActive);  // without a selection it cancels the newest active run
  m_cancelAll->setEnabled(anyActive);
  m_rerun->setEnabled(!ids.isEmpty());
  m_duplicate->setEnabled(ids.size() == 1);
  m_copySettings->setEnabled(ids.size() == 1);
  m_compare->setEnabled(!ids.isEmpty());
  m_delete->setEnabled(!ids.isEmpty());
}

}  // namespace epsilon::ui
