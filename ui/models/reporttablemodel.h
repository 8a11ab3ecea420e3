#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include <memory>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// Base of the models that present one table of a FusionReport. The report is swapped as a whole
// (beginResetModel/endResetModel); DisplayRole is formatted text, SortRole the raw value that the
// proxies sort by, and cost columns ask for a descending sort on their first click.
class ReportTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles
    {
        SortRole = Qt::UserRole,
        KernelTypeRole, // the CategoryId a row is about, where it is about one
        SourceRowRole, // the row's index into the report's vector
        FullTextRole, // what filtering and copying read: DisplayRole, but never shortened
        ColumnKeyRole, // headerData: the core column's key ("trace1_idle_us"), where it is one
    };

    explicit ReportTableModel(QObject* parent = nullptr);
    ~ReportTableModel() override;

    void setReport(std::shared_ptr<const FusionReport> report);
    const FusionReport* report() const { return m_report.get(); }
    // The core CSV table this model presents ("global_counts"); empty: none.
    virtual QString csvName() const { return {}; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    enum class Kind
    {
        Text,
        Number,
        Cost, // a number whose largest values matter most: sorts descending first
    };
    struct Column
    {
        QString title;
        QString toolTip;
        Kind kind = Kind::Number;
        QString key {}; // the core column's key (report/reporttables.h), if the column is one
    };

    // Inside a reset (rebuild) too: a report can have columns another lacks.
    void setColumns(QList<Column> columns) { m_columns = std::move(columns); }
    // Called inside the reset, after the report is set (it may be null).
    virtual void rebuild() { }
    virtual int rows() const = 0;
    virtual QVariant display(int row, int column) const = 0;
    virtual QVariant sortValue(int row, int column) const = 0;
    virtual QVariant kernelType(int row) const;
    virtual QVariant toolTip(int row, int column) const;
    virtual QVariant fullText(int row, int column) const;

    std::shared_ptr<const FusionReport> m_report;

private:
    QList<Column> m_columns;
};

} // namespace fusiondiff::ui
