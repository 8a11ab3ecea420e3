#pragma once

#include "models/reporttablemodel.h"
#include "report/reporttables.h"

#include <QList>
#include <QString>
#include <QVariant>

#include <vector>

namespace fusiondiff::ui {

// A report table as the core describes it (report/reporttables.h): the columns that have a header,
// each shown in its unit, sorted by its raw value, with the table's CSV name for export.
class ReportColumnsModel : public ReportTableModel
{
    Q_OBJECT
public:
    explicit ReportColumnsModel(ReportTableId table, QObject* parent = nullptr);

    ReportTableId table() const { return m_id; }
    QString csvName() const override;
    // The index of the shown column `key` ("trace1_count"); -1 if the app does not show it.
    int column(const char* key) const;

protected:
    void rebuild() override;
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
    QVariant toolTip(int row, int column) const override;
    QVariant fullText(int row, int column) const override;

private:
    const TableColumn& columnAt(int column) const { return m_table.columns[m_shown[static_cast<size_t>(column)]]; }
    bool isText(int column) const;
    const FusionReport& currentReport() const;
    const QString& text(int row, int column) const;

    ReportTableId m_id;
    ReportTable m_table; // of m_report, or of an empty report
    std::vector<size_t> m_shown; // the columns of m_table the app shows
    // Built for a whole column the first time it is sorted or filtered: sorting and filtering read
    // every row, many times.
    mutable std::vector<QVariantList> m_sortValues;
    mutable std::vector<QStringList> m_texts; // of text columns, whole
    mutable std::vector<QStringList> m_shownNames; // of kernel-name columns, as shown (distinctShownKernelNames)
};

} // namespace fusiondiff::ui
