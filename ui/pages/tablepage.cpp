#include "pages/tablepage.h"

#include "analysis/analysisresults.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "widgets/filterlineedit.h"
#include "widgets/tabletextdelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <QHash>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

constexpr int kSampledRows = 50;

QString csvNameOf(const QAbstractItemModel* model)
{
    const auto* table = qobject_cast<const ReportTableModel*>(model);
    return table ? table->csvName() : QString();
}

// What saveState() names a row by: its first column's whole text.
QString rowKey(const QAbstractItemModel* model, int row)
{
    const QModelIndex index = model->index(row, 0);
    const QVariant whole = index.data(ReportTableModel::FullTextRole);
    return (whole.isValid() ? whole : index.data()).toString();
}

const QString kFilterKey = QStringLiteral("filter");
const QString kSortColumnKey = QStringLiteral("sort_column");
const QString kSortOrderKey = QStringLiteral("sort_order");
const QString kSelectedKey = QStringLiteral("selected");

} // namespace

TablePage::TablePage(QAbstractItemModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new TableFilterProxy(this))
    , m_view(new QTableView(this))
    , m_filter(new FilterLineEdit(this))
    , m_title(new QLabel(this))
    , m_count(new QLabel(this))
    , m_csvName(csvNameOf(model))
{
    m_proxy->setSourceModel(model);

    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new TableTextDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // Columns are sized to the widest of a sample of their rows (the visible ones first): sizing
    // measures a cell's text as painting does, and 200 rows of 6 columns took 5 ms.
    m_view->horizontalHeader()->setResizeContentsPrecision(kSampledRows);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSortIndicatorClearable(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // the report's order
    m_view->setSortingEnabled(true);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    // Ctrl+C copies the selected rows, or from a name cell (a kernel's), the names alone.
    auto* copy = new QAction(tr("&Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copy->setToolTip(tr("Copy the selected rows; on a kernel name, the names alone"));
    connect(copy, &QAction::triggered, this, [this] {
        if (isNameColumn(m_view->currentIndex().column()))
            copyNames();
        else
            copySelection();
    });
    m_view->addAction(copy);
    m_copyNames = new QAction(tr("Copy &Name"), m_view);
    m_copyNames->setToolTip(tr("Copy the whole name of each selected row, one a line"));
    m_copyNames->setVisible(false);
    connect(m_copyNames, &QAction::triggered, this, &TablePage::copyNames);
    m_view->addAction(m_copyNames);
    auto* copyRows = new QAction(tr("Copy Selected &Rows"), m_view);
    connect(copyRows, &QAction::triggered, this, &TablePage::copySelection);
    m_view->addAction(copyRows);

    m_title->setVisible(false);
    // A long title (the reference analysis's caveat) wraps rather than widening the window.
    m_title->setWordWrap(true);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    auto* copyButton = new QToolButton(this);
    copyButton->setText(tr("Copy rows"));
    copyButton->setToolTip(tr("Copy the selected rows as tab-separated text (Ctrl+C)"));
    connect(copyButton, &QToolButton::clicked, this, &TablePage::copySelection);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_title);
    top->addWidget(m_filter, 1);
    top->addWidget(m_count);
    top->addWidget(copyButton);
    if (!m_csvName.isEmpty()) {
        auto* exportButton = new QToolButton(this);
        exportButton->setText(tr("Export CSV..."));
        exportButton->setToolTip(
            tr("Save this table as %1.csv, the same bytes as fusiondiff-cli --csv").arg(m_csvName));
        connect(exportButton, &QToolButton::clicked, this, [this] { emit exportCsvRequested(m_csvName); });
        top->addWidget(exportButton);

        auto* exportAction = new QAction(tr("&Export Table as CSV..."), m_view);
        connect(exportAction, &QAction::triggered, this, [this] { emit exportCsvRequested(m_csvName); });
        m_view->addAction(exportAction);
    }

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    m_filter->setMaximumWidth(420);
    connect(m_filter, &FilterLineEdit::filterChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TablePage::updateCount);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        findKeyedColumns();
        adjustColumns();
    });
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_adjusting)
            m_userResized = true;
    });
    m_view->viewport()->installEventFilter(this);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        [this] { emit selectedSourceRowsChanged(selectedSourceRows()); });
    // "Copy Name" where the pointer (or the current cell) is on a name.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { m_copyNames->setVisible(isNameColumn(current.column())); });
    updateCount();
}

void TablePage::setTitle(const QString& title)
{
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
}

QString TablePage::title() const
{
    return m_title->text();
}

void TablePage::setSortable(bool sortable)
{
    m_view->setSortingEnabled(sortable);
    if (!sortable)
        m_view->horizontalHeader()->setSortIndicatorShown(false);
}

void TablePage::setMiddleElidedColumns(const QList<int>& columns)
{
    static_cast<TableTextDelegate*>(m_view->itemDelegate())->setMiddleElidedColumns(columns);
    m_nameColumns = columns;
}

void TablePage::setStretchColumnKeys(const QStringList& keys, int minimumWidth)
{
    m_stretchKeys = keys;
    setStretchColumns(columnsOfKeys(keys), minimumWidth);
}

void TablePage::setMiddleElidedColumnKeys(const QStringList& keys)
{
    m_nameKeys = keys;
    setMiddleElidedColumns(columnsOfKeys(keys));
}

QList<int> TablePage::columnsOfKeys(const QStringList& keys) const
{
    QList<int> columns;
    for (int column = 0; column < m_model->columnCount(); ++column) {
        if (keys.contains(m_model->headerData(column, Qt::Horizontal, ReportTableModel::ColumnKeyRole).toString()))
            columns.append(column);
    }
    return columns;
}

void TablePage::findKeyedColumns()
{
    if (!m_stretchKeys.isEmpty())
        m_stretchColumns = columnsOfKeys(m_stretchKeys);
    if (!m_nameKeys.isEmpty())
        setMiddleElidedColumns(columnsOfKeys(m_nameKeys));
}

void TablePage::setFilterVisible(bool visible)
{
    m_filter->setVisible(visible);
    m_count->setVisible(visible);
}

void TablePage::setStretchColumns(const QList<int>& columns, int minimumWidth)
{
    m_stretchColumns = columns;
    m_stretchMinimumWidth = minimumWidth;
    adjustColumns();
}

void TablePage::adjustColumns()
{
    // Sized when the table is shown: a model reset of a hidden table (the report's tables when the
    // results arrive) costs nothing until the user looks at it.
    if (!isVisible()) {
        m_columnsPending = true;
        return;
    }
    m_columnsPending = false;
    QHeaderView* header = m_view->horizontalHeader();
    m_adjusting = true;
    m_baseWidths.clear();
    {
        const QSignalBlocker quiet(header); // see layOutView()
        for (int column = 0; column < header->count(); ++column) {
            header->setSectionResizeMode(column, QHeaderView::Interactive);
            if (m_stretchColumns.contains(column)) {
                // Long texts (kernel names, evidence) take the room there is; measuring them is slow.
                m_baseWidths.append(std::max(header->sectionSizeHint(column), m_stretchMinimumWidth));
                header->resizeSection(column, m_baseWidths.last());
                continue;
            }
            m_view->resizeColumnToContents(column);
            if (header->sectionSize(column) > m_maximumColumnWidth)
                header->resizeSection(column, m_maximumColumnWidth);
        }
    }
    m_adjusting = false;
    m_userResized = false;
    shareFreeWidth();
    layOutView();
    emit columnsAdjusted();
}

void TablePage::shareFreeWidth()
{
    QHeaderView* header = m_view->horizontalHeader();
    if (m_userResized || m_baseWidths.size() != m_stretchColumns.size())
        return;
    int others = 0;
    int base = 0;
    for (int column = 0; column < header->count(); ++column) {
        const qsizetype stretch = m_stretchColumns.indexOf(column);
        if (stretch < 0)
            others += header->sectionSize(column);
        else
            base += m_baseWidths[stretch];
    }
    const int free = std::max(0, m_view->viewport()->width() - others - base);
    m_adjusting = true;
    {
        const QSignalBlocker quiet(header); // see layOutView()
        for (qsizetype i = 0; i < m_stretchColumns.size(); ++i) {
            if (m_stretchColumns[i] < header->count() && base > 0)
                header->resizeSection(m_stretchColumns[i], m_baseWidths[i] + free * m_baseWidths[i] / base);
        }
    }
    m_adjusting = false;
}

void TablePage::layOutView()
{
    // The columns are resized with the header's signals blocked: told of a resize (sectionResized),
    // the view repaints the resized columns from a zero timer, which comes after the paint that
    // already shows them, so that a table on a newly shown page was painted twice. Laying the view
    // out instead sets its scroll bars for the new widths and schedules the one paint.
    m_view->doItemsLayout();
}

void TablePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_columnsPending)
        adjustColumns();
}

bool TablePage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize && !m_userResized) {
        shareFreeWidth();
        layOutView();
    }
    return QWidget::eventFilter(watched, event);
}

void TablePage::updateCount()
{
    const int shown = m_proxy->rowCount();
    const int total = m_model->rowCount();
    m_count->setText(
        shown == total ? tr("%n row(s)", nullptr, total) : tr("%1 of %n row(s)", nullptr, total).arg(shown));
}

QList<int> TablePage::selectedSourceRows() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.append(m_proxy->mapToSource(index).row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void TablePage::selectSourceRows(const QList<int>& rows)
{
    QItemSelection selection;
    for (const int row : rows) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (index.isValid())
            selection.select(index, index);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty()) {
        m_view->selectionModel()->setCurrentIndex(selection.indexes().first(), QItemSelectionModel::NoUpdate);
        m_view->scrollTo(selection.indexes().first());
    }
}

void TablePage::setResults(const AnalysisResults& results)
{
    if (auto* table = qobject_cast<ReportTableModel*>(m_model))
        table->setReport(results.report);
}

QJsonObject TablePage::saveState() const
{
    QJsonObject state;
    state.insert(kFilterKey, m_filter->text());
    if (m_view->isSortingEnabled()) {
        const QHeaderView* header = m_view->horizontalHeader();
        const int column = header->sortIndicatorSection();
        const bool sorted = column >= 0 && column < header->count();
        state.insert(kSortColumnKey, sorted ? m_model->headerData(column, Qt::Horizontal).toString() : QString());
        state.insert(kSortOrderKey,
            header->sortIndicatorOrder() == Qt::AscendingOrder ? QStringLiteral("ascending")
                                                               : QStringLiteral("descending"));
    }
    const QList<int> selected = selectedSourceRows(); // in source order
    QJsonArray rows;
    QHash<QString, int> seen;
    for (int row = 0, next = 0; next < selected.size() && row < m_model->rowCount(); ++row) {
        const QString key = rowKey(m_model, row);
        const int nth = seen[key]++;
        if (row != selected[next])
            continue;
        rows.append(QJsonObject { { QStringLiteral("key"), key }, { QStringLiteral("nth"), nth } });
        ++next;
    }
    state.insert(kSelectedKey, rows);
    return state;
}

void TablePage::restoreState(const QJsonObject& state)
{
    if (state.contains(kFilterKey)) {
        m_filter->setText(state.value(kFilterKey).toString());
        m_filter->applyNow();
    }
    if (m_view->isSortingEnabled() && state.contains(kSortColumnKey)) {
        // A column no longer there (or none): the report's order.
        const QString title = state.value(kSortColumnKey).toString();
        int column = -1;
        for (int i = 0; i < m_model->columnCount() && !title.isEmpty(); ++i) {
            if (m_model->headerData(i, Qt::Horizontal).toString() == title)
                column = i;
        }
        const bool descending = state.value(kSortOrderKey).toString() == QLatin1String("descending");
        m_view->sortByColumn(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    }
    if (!state.contains(kSelectedKey))
        return;
    QHash<QString, QList<int>> wanted; // key -> the nth rows of that key wanted
    const QJsonArray entries = state.value(kSelectedKey).toArray();
    for (const auto& entry : entries) {
        const QJsonObject row = entry.toObject();
        wanted[row.value(QStringLiteral("key")).toString()].append(row.value(QStringLiteral("nth")).toInt(-1));
    }
    QList<int> rows;
    QHash<QString, int> seen;
    for (int row = 0; row < m_model->rowCount() && !wanted.isEmpty(); ++row) {
        const QString key = rowKey(m_model, row);
        const auto it = wanted.constFind(key);
        if (it != wanted.constEnd() && it->contains(seen[key]++))
            rows.append(row);
    }
    selectSourceRows(rows);
}

QString TablePage::selectedRowsText() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    // The columns in the order they are on screen (a page or the user may have moved some).
    QList<int> columns;
    const QHeaderView* header = m_view->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (!m_view->isColumnHidden(column))
            columns.append(column);
    }
    QStringList lines;
    QStringList fields;
    for (const int column : columns)
        fields.append(m_proxy->headerData(column, Qt::Horizontal).toString());
    lines.append(fields.join(QLatin1Char('\t')));
    for (const QModelIndex& row : rows) {
        fields.clear();
        for (const int column : columns)
            fields.append(m_proxy->index(row.row(), column).data(m_proxy->filterRole()).toString());
        lines.append(fields.join(QLatin1Char('\t')));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool TablePage::isNameColumn(int column) const
{
    return column >= 0 && m_nameColumns.contains(column);
}

QString TablePage::selectedNamesText() const
{
    const int current = m_view->currentIndex().column();
    const int column = isNameColumn(current) ? current : m_nameColumns.value(0, -1);
    if (column < 0)
        return {};
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList names;
    for (const QModelIndex& row : rows) {
        const QString name = m_proxy->index(row.row(), column).data(m_proxy->filterRole()).toString();
        if (!name.isEmpty())
            names.append(name);
    }
    return names.join(QLatin1Char('\n'));
}

void TablePage::copyNames()
{
    const QString names = selectedNamesText();
    if (!names.isEmpty())
        QApplication::clipboard()->setText(names);
}

void TablePage::copySelection()
{
    if (!m_view->selectionModel()->hasSelection())
        return;
    QApplication::clipboard()->setText(selectedRowsText());
}

} // namespace fusiondiff::ui
