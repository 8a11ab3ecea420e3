#include "opportunitiesmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"
#include "sidenames.h"

namespace fusiondiff::ui {

OpportunitiesModel::OpportunitiesModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Kernel type"), {}, Kind::Text },
        { tr("A kernels"), tr("Kernels of this type in A (trace1)"), Kind::Cost },
        { tr("B kernels"), tr("Kernels of this type in B (trace2)"), Kind::Cost },
        { tr("A avg/group"), tr("Average kernels of this type per matched group in A"), Kind::Cost },
        { tr("B avg/group"), tr("Average kernels of this type per matched group in B"), Kind::Cost },
        { tr("A time"), tr("GPU time of these kernels in A"), Kind::Cost },
        { tr("B time"), tr("GPU time of these kernels in B"), Kind::Cost },
        { tr("Time A/B"), tr("A's time divided by B's"), Kind::Cost },
        { tr("Ratio"), tr("How many times more kernels the unfused side runs"), Kind::Cost },
        { tr("Fused by"), tr("The side with fewer kernels of this type"), Kind::Text },
        { tr("Groups affected"), tr("Matched group pairs that show the difference"), Kind::Cost },
        { tr("Total groups"), tr("Matched group pairs compared"), Kind::Number },
        { tr("Source"), tr("Matched correlation groups, or whole-trace counts"), Kind::Text },
        { tr("Impact"), tr("Ratio times the kernels of both sides: the report's order"), Kind::Cost },
    });
}

int OpportunitiesModel::rows() const
{
    return static_cast<int>(m_report->opportunities.size());
}

QVariant OpportunitiesModel::display(int row, int column) const
{
    const FusionReport& report = *m_report;
    const FusionOpportunity& opportunity = report.opportunities[static_cast<size_t>(row)];
    switch (column) {
    case KernelTypeColumn:
        return toQString(report.typeName(opportunity.kernelType));
    case TotalAColumn:
        return formatCount(opportunity.total[0]);
    case TotalBColumn:
        return formatCount(opportunity.total[1]);
    case AvgPerGroupAColumn:
        return formatFixed(opportunity.avgPerGroup[0], 1);
    case AvgPerGroupBColumn:
        return formatFixed(opportunity.avgPerGroup[1], 1);
    case TimeAColumn:
        return formatMilliseconds(opportunity.timeMs[0]);
    case TimeBColumn:
        return formatMilliseconds(opportunity.timeMs[1]);
    case TimeRatioColumn:
        return formatRatio(opportunity.timeRatio);
    case RatioColumn:
        return formatRatio(opportunity.ratio, 1);
    case FusedByColumn:
        return tr("%1 (%2)").arg(sideAlias(report, sideIndex(opportunity.fusedBy)),
            opportunity.fusedBy == Side::Trace1 ? QStringLiteral("A") : QStringLiteral("B"));
    case GroupsAffectedColumn:
        return formatCount(opportunity.groupsAffected);
    case TotalGroupsColumn:
        return formatCount(opportunity.totalGroups);
    case SourceColumn:
        return opportunity.source == OpportunitySource::MatchedGroups ? tr("matched groups") : tr("global counts");
    case ImpactColumn:
        return formatRatio(opportunity.impact(), 0);
    }
    return {};
}

QVariant OpportunitiesModel::sortValue(int row, int column) const
{
    const FusionOpportunity& opportunity = m_report->opportunities[static_cast<size_t>(row)];
    switch (column) {
    case KernelTypeColumn:
    case FusedByColumn:
    case SourceColumn:
        return display(row, column);
    case TotalAColumn:
        return QVariant::fromValue<qulonglong>(opportunity.total[0]);
    case TotalBColumn:
        return QVariant::fromValue<qulonglong>(opportunity.total[1]);
    case AvgPerGroupAColumn:
        return opportunity.avgPerGroup[0];
    case AvgPerGroupBColumn:
        return opportunity.avgPerGroup[1];
    case TimeAColumn:
        return opportunity.timeMs[0];
    case TimeBColumn:
        return opportunity.timeMs[1];
    case TimeRatioColumn:
        return opportunity.timeRatio;
    case RatioColumn:
        return opportunity.ratio;
    case GroupsAffectedColumn:
        return QVariant::fromValue<qulonglong>(opportunity.groupsAffected);
    case TotalGroupsColumn:
        return QVariant::fromValue<qulonglong>(opportunity.totalGroups);
    case ImpactColumn:
        return opportunity.impact();
    }
    return {};
}

QVariant OpportunitiesModel::kernelType(int row) const
{
    return static_cast<int>(m_report->opportunities[static_cast<size_t>(row)].kernelType);
}

} // namespace fusiondiff::ui
