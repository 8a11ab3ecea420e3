#pragma once

#include "pages/resultspage.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QAbstractItemModel;
class QAction;
class QLabel;
class QTableView;

namespace fusiondiff::ui {

class FilterLineEdit;
class TableFilterProxy;

// A report table: a filter box, the row count, "Copy rows" and "Export CSV", and the view sorted
// through a TableFilterProxy. Selections are reported in source rows so that charts can follow.
class TablePage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    // The CSV table the view shows is the model's (ReportTableModel::csvName), if it has one.
    explicit TablePage(QAbstractItemModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    TableFilterProxy* proxy() const { return m_proxy; }
    QAbstractItemModel* sourceModel() const { return m_model; }
    FilterLineEdit* filterEdit() const { return m_filter; }
    QString csvName() const override { return m_csvName; }
    // Gives the model the results' report, if it is a ReportTableModel.
    void setResults(const AnalysisResults& results) override;
    // The filter, the sort column (by its header) and order, and the selected rows by their key:
    // the whole text of their first column and, where rows share it, which of those they are in
    // the model's order. Restoring selects the rows with those keys that the filter shows.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    void setTitle(const QString& title);
    QString title() const;
    void setSortable(bool sortable);
    void setFilterVisible(bool visible);
    // Columns that share the width the others leave (kernel names, evidence), each at least
    // `minimumWidth` wide. Their text is not measured: it can be long, and measuring it is slow.
    void setStretchColumns(const QList<int>& columns, int minimumWidth);
    // Columns of names (kernel names): elided where the names on screen are alike, not in their
    // middle, and copied alone by Ctrl+C or "Copy Name" from one of their cells.
    void setMiddleElidedColumns(const QList<int>& columns);
    // The same two by the core columns' keys (ReportTableModel::ColumnKeyRole), found again at each
    // model reset: a report's columns can differ from another's, so their places can too.
    void setStretchColumnKeys(const QStringList& keys, int minimumWidth);
    void setMiddleElidedColumnKeys(const QStringList& keys);
    // Text columns wider than this are elided (the tooltip has the whole text).
    void setMaximumColumnWidth(int width) { m_maximumColumnWidth = width; }

    // The selected rows as tab-separated text with a header line, in the view's order.
    QString selectedRowsText() const;
    // The whole name in the current name column (or the first) of each selected row, one a line:
    // what Ctrl+C on a name and "Copy Name" copy.
    QString selectedNamesText() const;
    QList<int> selectedSourceRows() const;
    void selectSourceRows(const QList<int>& rows);

public slots:
    void copySelection();
    void copyNames();
    void adjustColumns();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

signals:
    void exportCsvRequested(const QString& csvName);
    void selectedSourceRowsChanged(const QList<int>& rows);
    // adjustColumns() gave the columns their widths (the header's own signals are blocked then).
    void columnsAdjusted();

private:
    void updateCount();
    QList<int> columnsOfKeys(const QStringList& keys) const;
    void findKeyedColumns();
    bool isNameColumn(int column) const;
    void shareFreeWidth();
    void layOutView();

    QAbstractItemModel* m_model;
    TableFilterProxy* m_proxy;
    QTableView* m_view;
    FilterLineEdit* m_filter;
    QLabel* m_title;
    QLabel* m_count;
    QString m_csvName;
    int m_maximumColumnWidth = 420;
    QList<int> m_stretchColumns;
    QList<int> m_nameColumns;
    QStringList m_stretchKeys; // when set, m_stretchColumns are found from them
    QStringList m_nameKeys; // when set, m_nameColumns are found from them
    QAction* m_copyNames = nullptr;
    int m_stretchMinimumWidth = 0;
    QList<int> m_baseWidths; // of the stretch columns, before they share out the free width
    bool m_adjusting = false;
    bool m_userResized = false; // the user sized a column: leave the widths alone
    bool m_columnsPending = false; // the model changed while the table was hidden
};

} // namespace fusiondiff::ui
