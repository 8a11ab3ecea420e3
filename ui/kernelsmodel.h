#pragma once

#include "reporttablemodel.h"

#include <QList>

namespace fusiondiff::ui {

// FusionReport::kernels: every distinct kernel name with its type and what each side spends on it.
class KernelsModel : public ReportTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        NameColumn,
        TypeColumn,
        CountAColumn,
        CountBColumn,
        TimeAColumn,
        TimeBColumn,
        AverageAColumn,
        AverageBColumn,
        CountDifferenceColumn, // B - A
        TimeDifferenceColumn,
        NumColumns
    };

    explicit KernelsModel(QObject* parent = nullptr);

protected:
    void rebuild() override;
    int rows() const override;
    QVariant display(int row, int column) const override;
    QVariant sortValue(int row, int column) const override;
    QVariant kernelType(int row) const override;
    QVariant toolTip(int row, int column) const override;
    QVariant fullText(int row, int column) const override;

private:
    // Converted once per report: the names are long and the filter reads them on every keystroke.
    QList<QString> m_names;
    // What the view shows: C++ template names run to thousands of characters, which no column
    // shows whole and which would make every repaint lay out the whole text to elide it.
    QList<QString> m_shownNames;
};

} // namespace fusiondiff::ui
