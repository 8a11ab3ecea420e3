#include "report/reporttables.h"

#include "model/fusionreport.h"
#include "report/fusiontables.h"
#include "report/graphtables.h"
#include "report/kerneltables.h"
#include "report/operationtables.h"
#include "report/reportefficiency.h"
#include "report/reportjob.h"
#include "report/reportsteptime.h"
#include "report/reporttimegap.h"
#include "util/textformat.h"

namespace fusiondiff {

const char* reportTableName(ReportTableId table)
{
    switch (table) {
    case ReportTableId::Traces:
        return "traces";
    case ReportTableId::GlobalCounts:
        return "global_counts";
    case ReportTableId::FusionOpportunities:
        return "fusion_opportunities";
    case ReportTableId::FusionMappings:
        return "fusion_mappings";
    case ReportTableId::OpFindings:
        return "op_findings";
    case ReportTableId::OpSummary:
        return "op_summary";
    case ReportTableId::ExtraKernels:
        return "extra_kernels";
    case ReportTableId::Collectives:
        return "collectives";
    case ReportTableId::MatchedGroups:
        return "matched_groups";
    case ReportTableId::GraphKinds:
        return "graph_kinds";
    case ReportTableId::GraphPairs:
        return "graph_pairs";
    case ReportTableId::GraphCoverage:
        return "graph_coverage";
    case ReportTableId::Kernels:
        return "kernels";
    case ReportTableId::MatchedKernels:
        return "matched_kernels";
    case ReportTableId::TimeGap:
        return "time_gap";
    case ReportTableId::WhereToLookFirst:
        return "where_to_look_first";
    case ReportTableId::CollectiveCalls:
        return "collective_calls";
    case ReportTableId::LayerTimes:
        return "layer_times";
    case ReportTableId::StepTimes:
        return "step_times";
    case ReportTableId::HostTime:
        return "host_time";
    case ReportTableId::JobSteps:
        return "job_steps";
    case ReportTableId::RankTimes:
        return "rank_times";
    case ReportTableId::RankCollectives:
        return "rank_collectives";
    case ReportTableId::Efficiency:
        return "efficiency";
    }
    return "";
}

std::string compositionText(const FusionReport& report, const LargeGroup& group)
{
    std::string text;
    for (size_t type = 0; type < group.typeCounts.size(); ++type) {
        if (group.typeCounts[type] > 0) {
            text += (text.empty() ? "" : ", ") + report.typeName(static_cast<CategoryId>(type)) + " "
                + withThousands(group.typeCounts[type]);
        }
    }
    return text;
}

int ReportTable::columnIndex(const std::string& key) const
{
    for (size_t column = 0; column < columns.size(); ++column) {
        if (columns[column].key == key)
            return static_cast<int>(column);
    }
    return -1;
}

ReportTable reportTable(ReportTableId table, const FusionReport& report)
{
    switch (table) {
    case ReportTableId::Traces:
        return tracesTable(report);
    case ReportTableId::GlobalCounts:
        return globalCountsTable(report);
    case ReportTableId::FusionOpportunities:
        return opportunitiesTable(report);
    case ReportTableId::FusionMappings:
        return mappingsTable(report);
    case ReportTableId::OpFindings:
        return opFindingsTable(report);
    case ReportTableId::OpSummary:
        return opSummaryTable(report);
    case ReportTableId::ExtraKernels:
        return extraKernelsTable(report);
    case ReportTableId::Collectives:
        return collectivesTable(report);
    case ReportTableId::MatchedGroups:
        return matchedGroupsTable(report);
    case ReportTableId::GraphKinds:
        return graphKindsTable(report);
    case ReportTableId::GraphPairs:
        return graphPairsTable(report);
    case ReportTableId::GraphCoverage:
        return graphCoverageTable(report);
    case ReportTableId::Kernels:
        return kernelsTable(report);
    case ReportTableId::MatchedKernels:
        return matchedKernelsTable(report);
    case ReportTableId::TimeGap:
        return timeGapTable(report);
    case ReportTableId::WhereToLookFirst:
        return whereToLookFirstTable(report);
    case ReportTableId::CollectiveCalls:
        return collectiveCallsTable(report);
    case ReportTableId::LayerTimes:
        return layerTimesTable(report);
    case ReportTableId::StepTimes:
        return stepTimesTable(report);
    case ReportTableId::HostTime:
        return hostTimeTable(report);
    case ReportTableId::JobSteps:
        return jobStepsTable(report);
    case ReportTableId::RankTimes:
        return rankTimesTable(report);
    case ReportTableId::RankCollectives:
        return rankCollectivesTable(report);
    case ReportTableId::Efficiency:
        return efficiencyTable(report);
    }
    return {};
}

} // namespace fusiondiff
