#include "models/reportcolumnsmodel.h"

#include "display/formatting.h"
#include "display/kernelnames.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "report/collectiveopportunity.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

namespace fusiondiff::ui {

namespace {

const FusionReport& emptyReport()
{
    static const FusionReport report;
    return report;
}

QString formatValue(const CellValue& value, const TableColumn& column, const FusionReport& report)
{
    return std::visit(
        [&column, &report](const auto& cell) -> QString {
            using T = std::decay_t<decltype(cell)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
                return {};
            } else if constexpr (std::is_same_v<T, std::string>) {
                if (column.unit == Unit::SideName) {
                    if (cell == kCollectiveNotFusion)
                        return ReportColumnsModel::tr("none: a collective difference, not fusion");
                    if (cell.rfind("only ", 0) == 0) { // the fused side runs none (sideNameShown)
                        const int only = cell.substr(5) == sideKey(Side::Trace1) ? 0 : 1;
                        return ReportColumnsModel::tr("only %1 (%2) runs it")
                            .arg(sideAlias(report, only), only == 0 ? QStringLiteral("A") : QStringLiteral("B"));
                    }
                    const int side = cell == sideKey(Side::Trace1) ? 0 : 1;
                    return QStringLiteral("%1 (%2)").arg(
                        sideAlias(report, side), side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
                }
                if (column.unit == Unit::SideText)
                    return withSideAliases(report, toQString(cell));
                return toQString(cell);
            } else if constexpr (std::is_same_v<T, int64_t>) {
                if (column.unit == Unit::SignedCount)
                    return formatSignedCount(cell);
                return column.unit == Unit::Identifier ? QString::number(cell) : formatInteger(cell);
            } else if constexpr (std::is_same_v<T, uint64_t>) {
                return column.unit == Unit::Identifier ? QString::number(cell) : formatCount(cell);
            } else if constexpr (std::is_same_v<T, double>) {
                if (std::isnan(cell))
                    return {}; // undefined, as a ratio of nothing to nothing
                switch (column.unit) {
                case Unit::Microseconds:
                    return formatDuration(cell);
                case Unit::SignedMicroseconds:
                    return formatSignedDuration(cell);
                case Unit::Milliseconds:
                    return formatMilliseconds(cell);
                default:
                    return formatFixed(cell, column.decimals < 0 ? 2 : column.decimals);
                }
            } else {
                return formatSpread(cell);
            }
        },
        value);
}

QVariant sortVariant(const CellValue& value)
{
    return std::visit(
        [](const auto& cell) -> QVariant {
            using T = std::decay_t<decltype(cell)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return {};
            else if constexpr (std::is_same_v<T, std::string>)
                return toQString(cell);
            else if constexpr (std::is_same_v<T, int64_t>)
                return QVariant::fromValue<qlonglong>(cell);
            else if constexpr (std::is_same_v<T, uint64_t>)
                return QVariant::fromValue<qulonglong>(cell);
            else if constexpr (std::is_same_v<T, double>)
                return std::isnan(cell) ? -std::numeric_limits<double>::infinity() : cell; // NaN: below every value
            else
                return cell.median;
        },
        value);
}

} // namespace

ReportColumnsModel::ReportColumnsModel(ReportTableId table, QObject* parent)
    : ReportTableModel(parent)
    , m_id(table)
{
    rebuild();
}

QString ReportColumnsModel::csvName() const
{
    return QString::fromLatin1(reportTableName(m_id));
}

int ReportColumnsModel::column(const char* key) const
{
    for (size_t column = 0; column < m_shown.size(); ++column) {
        if (m_table.columns[m_shown[column]].key == key)
            return static_cast<int>(column);
    }
    return -1;
}

void ReportColumnsModel::rebuild()
{
    m_table = reportTable(m_id, m_report ? *m_report : emptyReport());
    m_shown.clear();
    for (size_t column = 0; column < m_table.columns.size(); ++column) {
        if (!m_table.columns[column].header.empty())
            m_shown.push_back(column);
    }
    // The headers come from the same column list as the cells: a column that only some reports
    // have (a side's not recorded time) cannot shift the headers against the values.
    QList<Column> columns;
    for (const size_t index : m_shown) {
        const TableColumn& column = m_table.columns[index];
        const bool text = column.unit == Unit::Text || column.unit == Unit::KernelName || column.unit == Unit::SideName
            || column.unit == Unit::SideText;
        columns.append({ toQString(column.header), toQString(column.toolTip),
            text                      ? Kind::Text
                : column.largestFirst ? Kind::Cost
                                      : Kind::Number,
            toQString(column.key) });
    }
    setColumns(std::move(columns));
    m_sortValues.assign(m_shown.size(), {});
    m_texts.assign(m_shown.size(), {});
    m_shownNames.assign(m_shown.size(), {});
}

int ReportColumnsModel::rows() const
{
    return static_cast<int>(m_table.rows);
}

bool ReportColumnsModel::isText(int column) const
{
    const Unit unit = columnAt(column).unit;
    return unit == Unit::Text || unit == Unit::KernelName || unit == Unit::SideName || unit == Unit::SideText;
}

const FusionReport& ReportColumnsModel::currentReport() const
{
    return m_report ? *m_report : emptyReport();
}

const QString& ReportColumnsModel::text(int row, int column) const
{
    QStringList& texts = m_texts[static_cast<size_t>(column)];
    if (texts.isEmpty()) {
        const TableColumn& description = columnAt(column);
        texts.reserve(rows());
        for (size_t index = 0; index < m_table.rows; ++index)
            texts.append(formatValue(
                description.shown ? description.shown(index) : description.value(index), description, currentReport()));
    }
    return texts[row];
}

QVariant ReportColumnsModel::display(int row, int column) const
{
    const TableColumn& description = columnAt(column);
    if (description.unit == Unit::KernelName) {
        // Shown as a column: names that would collapse to one keep what tells them apart.
        QStringList& shown = m_shownNames[static_cast<size_t>(column)];
        if (shown.isEmpty() && rows() > 0) {
            text(0, column);
            shown = distinctShownKernelNames(m_texts[static_cast<size_t>(column)]);
        }
        return shown[row];
    }
    if (isText(column))
        return text(row, column);
    const size_t index = static_cast<size_t>(row);
    return formatValue(
        description.shown ? description.shown(index) : description.value(index), description, currentReport());
}

QVariant ReportColumnsModel::sortValue(int row, int column) const
{
    QVariantList& values = m_sortValues[static_cast<size_t>(column)];
    if (values.isEmpty()) {
        // Text sorts as it is shown, whole; numbers by their value (or the column's sort key).
        const TableColumn& description = columnAt(column);
        values.reserve(rows());
        for (size_t index = 0; index < m_table.rows; ++index) {
            if (description.sortKey)
                values.append(sortVariant(description.sortKey(index)));
            else if (isText(column))
                values.append(text(static_cast<int>(index), column));
            else
                values.append(sortVariant(description.value(index)));
        }
    }
    return values[row];
}

QVariant ReportColumnsModel::kernelType(int row) const
{
    if (!m_table.kernelType)
        return {};
    const std::optional<CategoryId> type = m_table.kernelType(static_cast<size_t>(row));
    return type ? QVariant(static_cast<int>(*type)) : QVariant();
}

QVariant ReportColumnsModel::toolTip(int row, int column) const
{
    const TableColumn& description = columnAt(column);
    const size_t index = static_cast<size_t>(row);
    if (description.detail)
        return toQString(description.detail(index));
    if (description.unit == Unit::KernelName)
        return kernelNameToolTip(text(row, column));
    if (description.unit == Unit::Spread) {
        const CellValue value = description.value(index);
        if (const Spread* time = std::get_if<Spread>(&value)) {
            return tr("median %1, first quartile %2, third quartile %3; %4 in all over %5")
                .arg(formatDuration(time->median), formatDuration(time->q1), formatDuration(time->q3),
                    formatDuration(time->total), formatCountOf(time->count, tr("call"), tr("calls")));
        }
    }
    return ReportTableModel::toolTip(row, column);
}

QVariant ReportColumnsModel::fullText(int row, int column) const
{
    return isText(column) ? QVariant(text(row, column)) : display(row, column);
}

} // namespace fusiondiff::ui
