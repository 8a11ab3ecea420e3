#include "efficiency/efficiencymodel.h"

#include "display/formatting.h"
#include "model/fusionreport.h"
#include "ops/efficiency/rooflinewords.h"

namespace fusiondiff::ui {

EfficiencyModel::EfficiencyModel(QObject* parent)
    : ReportColumnsModel(ReportTableId::Efficiency, parent)
{ }

QString EfficiencyModel::blankReason(const EfficiencyRow& row, const QString& key)
{
    if (key == QLatin1String("flops") || key == QLatin1String("bytes")) {
        const double value = key == QLatin1String("flops") ? row.flops : row.bytes;
        if (value >= 0)
            return {};
        if (row.workBlank.empty() && row.bytes >= 0)
            return EfficiencyModel::tr("FLOPs not counted for a memory operator: bytes bind it");
        return toQString(row.workBlank);
    }
    for (size_t side = 0; side < 2; ++side) {
        const QString prefix = side == 0 ? QStringLiteral("trace1_") : QStringLiteral("trace2_");
        if (!key.startsWith(prefix))
            continue;
        const EfficiencySide& of = row.sides[side];
        const QString name = key.mid(prefix.size());
        const double value = name == QLatin1String("median_us") ? of.medianUs
            : name == QLatin1String("tflops")                   ? of.tflops
            : name == QLatin1String("tbps")                     ? of.tbps
            : name == QLatin1String("peak_tflops")              ? of.peakTflops
            : name == QLatin1String("peak_tbps")                ? of.peakTbps
            : name == QLatin1String("peak_share")               ? of.peakShare
                                                                : 0;
        if (value >= 0)
            return {};
        if (!of.blank.empty())
            return toQString(of.blank);
        // A memory row has bytes but no FLOPs: its TFLOPS are not counted, its share is of the bandwidth.
        if ((name == QLatin1String("tflops") || name == QLatin1String("peak_tflops")) && row.flops < 0
            && row.bytes >= 0)
            return EfficiencyModel::tr("no FLOPs counted for %1: bytes bind it, its share is of the bandwidth")
                .arg(toQString(row.op));
        return toQString(row.workBlank);
    }
    return {};
}

QString EfficiencyModel::keyOf(int column) const
{
    return headerData(column, Qt::Horizontal, ColumnKeyRole).toString();
}

QString EfficiencyModel::reasonAt(int row, int column) const
{
    if (!m_report || row < 0 || static_cast<size_t>(row) >= m_report->efficiency.rows.size())
        return {};
    return blankReason(m_report->efficiency.rows[static_cast<size_t>(row)], keyOf(column));
}

QVariant EfficiencyModel::display(int row, int column) const
{
    QVariant shown = ReportColumnsModel::display(row, column);
    if (shown.toString().isEmpty() && !reasonAt(row, column).isEmpty())
        return QStringLiteral("—");
    return shown;
}

QVariant EfficiencyModel::toolTip(int row, int column) const
{
    const QString reason = reasonAt(row, column);
    if (!reason.isEmpty() && ReportColumnsModel::display(row, column).toString().isEmpty())
        return tr("Blank: %1").arg(reason);
    return ReportColumnsModel::toolTip(row, column);
}

bool rowPassesBound(const EfficiencyRow& row, BoundFilter filter)
{
    const std::string& a = row.sides[0].bound;
    const std::string& b = row.sides[1].bound;
    switch (filter) {
    case BoundFilter::All:
        return true;
    case BoundFilter::Compute:
        return a == "compute" || b == "compute";
    case BoundFilter::Memory:
        return a == "memory" || b == "memory";
    case BoundFilter::Differs:
        return !a.empty() && !b.empty() && a != b;
    case BoundFilter::Unknown:
        return a.empty() && b.empty();
    }
    return true;
}

DrillTarget drillTargetOf(const FusionReport& report, size_t efficiencyRow)
{
    if (efficiencyRow >= report.efficiency.rows.size())
        return {};
    const std::string& op = report.efficiency.rows[efficiencyRow].op;
    for (size_t i = 0; i < report.opFindings.size(); ++i) {
        if (operationCoversOperator(report.opFindings[i].op, op))
            return { DrillTarget::Finding, static_cast<int>(i) };
    }
    for (size_t i = 0; i < report.opSummary.size(); ++i) {
        if (operationCoversOperator(report.opSummary[i].op, op))
            return { DrillTarget::Operation, static_cast<int>(i) };
    }
    return {};
}

} // namespace fusiondiff::ui
