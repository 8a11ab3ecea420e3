#include "opsummarymodel.h"

#include "formatting.h"
#include "model/fusionreport.h"

#include <cmath>
#include <limits>

namespace fusiondiff::ui {

namespace {

// A's total time over B's: infinite when only A has time, undefined (NaN, shown empty) for none.
double timeRatio(const OpSummary& summary)
{
    const double a = summary.timeUs[0].total;
    const double b = summary.timeUs[1].total;
    if (b > 0)
        return a / b;
    return a > 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

OpSummaryModel::OpSummaryModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Operation"), {}, Kind::Text },
        { tr("Calls compared"), tr("Matched pairs of calls"), Kind::Cost },
        { tr("Calls differing"), tr("Matched pairs whose kernel counts differ"), Kind::Cost },
        { tr("A kernels"), tr("Kernels of these calls in A (trace1)"), Kind::Cost },
        { tr("B kernels"), tr("Kernels of these calls in B (trace2)"), Kind::Cost },
        { tr("A time"), tr("GPU time of these calls in A"), Kind::Cost },
        { tr("B time"), tr("GPU time of these calls in B"), Kind::Cost },
        { tr("Time A/B"), tr("A's time divided by B's"), Kind::Cost },
        { tr("A time/call (IQR)"), tr("A's GPU time per call: median (first to third quartile)"), Kind::Cost },
        { tr("B time/call (IQR)"), tr("B's GPU time per call: median (first to third quartile)"), Kind::Cost },
        { tr("Could save"), tr("Summed over the differing calls: how much longer the side with more kernels takes"),
            Kind::Cost },
    });
}

int OpSummaryModel::rows() const
{
    return static_cast<int>(m_report->opSummary.size());
}

QVariant OpSummaryModel::display(int row, int column) const
{
    const OpSummary& summary = m_report->opSummary[static_cast<size_t>(row)];
    switch (column) {
    case OpColumn:
        return toQString(summary.op);
    case CallsColumn:
        return formatCount(summary.occurrences);
    case DifferingColumn:
        return formatCount(summary.differing);
    case KernelsAColumn:
        return formatCount(summary.kernels[0]);
    case KernelsBColumn:
        return formatCount(summary.kernels[1]);
    case TotalAColumn:
        return formatDuration(summary.timeUs[0].total);
    case TotalBColumn:
        return formatDuration(summary.timeUs[1].total);
    case TimeRatioColumn: {
        const double ratio = timeRatio(summary);
        return std::isnan(ratio) ? QString() : formatRatio(ratio);
    }
    case MedianAColumn:
        return formatSpread(summary.timeUs[0]);
    case MedianBColumn:
        return formatSpread(summary.timeUs[1]);
    case SavingColumn:
        return formatDuration(summary.savingUs);
    }
    return {};
}

QVariant OpSummaryModel::sortValue(int row, int column) const
{
    const OpSummary& summary = m_report->opSummary[static_cast<size_t>(row)];
    switch (column) {
    case OpColumn:
        return display(row, column);
    case CallsColumn:
        return QVariant::fromValue<qulonglong>(summary.occurrences);
    case DifferingColumn:
        return QVariant::fromValue<qulonglong>(summary.differing);
    case KernelsAColumn:
        return QVariant::fromValue<qulonglong>(summary.kernels[0]);
    case KernelsBColumn:
        return QVariant::fromValue<qulonglong>(summary.kernels[1]);
    case TotalAColumn:
        return summary.timeUs[0].total;
    case TotalBColumn:
        return summary.timeUs[1].total;
    case TimeRatioColumn: {
        // Neither side has time: below every ratio.
        const double ratio = timeRatio(summary);
        return std::isnan(ratio) ? -1.0 : ratio;
    }
    case MedianAColumn:
        return summary.timeUs[0].median;
    case MedianBColumn:
        return summary.timeUs[1].median;
    case SavingColumn:
        return summary.savingUs;
    }
    return {};
}

} // namespace fusiondiff::ui
