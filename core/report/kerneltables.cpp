#include "report/kerneltables.h"

#include "model/fusionreport.h"
#include "report/tablecolumns.h"
#include "util/phaseorder.h"
#include "util/textformat.h"

namespace fusiondiff {

ReportTable matchedGroupsTable(const FusionReport& r)
{
    const auto group = [&r](size_t row, size_t side) -> const LargeGroup& {
        const GroupPair& pair = r.groupPairs[row];
        return r.largeGroups[side][side == 0 ? pair.group1 : pair.group2];
    };
    ReportTable table { .id = ReportTableId::MatchedGroups, .rows = r.groupPairs.size(), .columns = {} };
    table.columns = {
        { .key = "pair",
            .header = "Pair",
            .toolTip = "Position in the matching order",
            .unit = Unit::Identifier,
            .inCsv = false,
            .value = [](size_t row) { return static_cast<int64_t>(row + 1); } },
        { .key = "trace1_correlation",
            .header = "A correlation",
            .toolTip = "Correlation id of the group in A (trace1)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 0).correlation; } },
        { .key = "trace2_correlation",
            .header = "B correlation",
            .toolTip = "Correlation id of the group in B (trace2)",
            .unit = Unit::Identifier,
            .value = [=](size_t row) { return group(row, 1).correlation; } },
        { .key = "trace1_size",
            .header = "A kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(group(row, 0).size); } },
        { .key = "trace2_size",
            .header = "B kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(group(row, 1).size); } },
        { .key = "shared_types",
            .header = "Shared types",
            .toolTip = "Kernel types both groups contain",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [&r](size_t row) { return uint64_t(r.groupPairs[row].sharedTypes); } },
        { .key = "score",
            .header = "Score",
            .toolTip = "|size difference| - 10 x shared types: the matching score (lower is better)",
            .unit = Unit::Identifier,
            .value = [&r](size_t row) { return r.groupPairs[row].score; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .toolTip = "GPU time of the group in A",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return group(row, 0).timeUs; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .toolTip = "GPU time of the group in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return group(row, 1).timeUs; } },
    };
    for (size_t type = 0; type < r.classifier.categories.size(); ++type) {
        for (size_t side = 0; side < 2; ++side) {
            table.columns.push_back({ .key = (side == 0 ? "trace1_" : "trace2_") + r.classifier.categories[type],
                .value = [=](size_t row) { return uint64_t(group(row, side).typeCounts[type]); } });
        }
    }
    table.columns.push_back({ .key = "trace1_composition",
        .header = "A composition",
        .toolTip = "Kernels per type in A's group",
        .inCsv = false,
        .value = [=, &r](size_t row) { return compositionText(r, group(row, 0)); } });
    table.columns.push_back({ .key = "trace2_composition",
        .header = "B composition",
        .toolTip = "Kernels per type in B's group",
        .inCsv = false,
        .value = [=, &r](size_t row) { return compositionText(r, group(row, 1)); } });
    return table;
}

ReportTable kernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const KernelNameRow& { return r.kernels[row]; };
    ReportTable table { .id = ReportTableId::Kernels, .rows = r.kernels.size(), .columns = {} };
    table.columns = {
        { .key = "name",
            .header = "Kernel name",
            .unit = Unit::KernelName,
            .value = [=](size_t row) { return at(row).name; } },
        { .key = "type",
            .header = "Type",
            .toolTip = "Kernel type given by the classifier",
            .value = [=, &r](size_t row) { return r.typeName(at(row).type); } },
        { .key = "trace1_count",
            .header = "A count",
            .toolTip = "Launches in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[0]; } },
        { .key = "trace2_count",
            .header = "B count",
            .toolTip = "Launches in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[1]; } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A total" : "B total",
            .toolTip = side == 0 ? "Total GPU time in A" : "Total GPU time in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; },
            .shown = timeIfAny(
                [=](size_t row) { return at(row).count[side]; }, [=](size_t row) { return at(row).timeUs[side]; }) });
    }
    for (size_t side = 0; side < 2; ++side) {
        // The average of a side that ran the kernel; none (below every average) for a side that did not.
        const auto average = [=](size_t row) -> CellValue {
            const KernelNameRow& kernel = at(row);
            if (kernel.count[side] == 0)
                return std::monostate {};
            return kernel.timeUs[side] / static_cast<double>(kernel.count[side]);
        };
        table.columns.push_back({ .key = side == 0 ? "trace1_average_us" : "trace2_average_us",
            .header = side == 0 ? "A average" : "B average",
            .toolTip = side == 0 ? "Average duration of one launch in A" : "Average duration of one launch in B",
            .unit = Unit::Microseconds,
            .inCsv = false,
            .largestFirst = true,
            .value = average,
            .sortKey = [=](size_t row) {
                const CellValue value = average(row);
                return std::holds_alternative<double>(value) ? value : CellValue(-1.0);
            } });
    }
    addDifferenceColumns(
        table, "count", "How many more launches B makes than A (negative: fewer)",
        "How much longer B spends in this kernel than A (negative: less)", [=](size_t row) { return at(row).count; },
        [=](size_t row) { return at(row).timeUs; });
    table.kernelType = [=](size_t row) { return std::optional(at(row).type); };
    return table;
}

ReportTable layerTimesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const LayerTimes& { return r.layerTimes[row]; };
    ReportTable table { .id = ReportTableId::LayerTimes, .rows = r.layerTimes.size(), .columns = {} };
    table.columns.push_back({ .key = "layer",
        .header = "Layer",
        .toolTip = "The layer's index in the step, from 0 (the i-th call of the repeating block)",
        .unit = Unit::Count,
        .value = [=](size_t row) { return uint64_t(at(row).index); } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_calls" : "trace2_calls",
            .header = side == 0 ? "A calls" : "B calls",
            .toolTip = "Calls of the layer over the compared steps",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).calls[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernels" : "trace2_kernels",
            .header = side == 0 ? "A kernels" : "B kernels",
            .toolTip = "Kernels the layer's operations launched, over its calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = "GPU time of those kernels, over the layer's calls",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; } });
    }
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer B's layer takes than A's (negative: shorter)",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).differenceUs(); } });
    table.columns.push_back({ .key = "phase",
        .header = "Phase",
        .toolTip = "The compared phase the layer's calls ran in, as the step-time table names it: a prefill "
                   "step's layers and a decode step's are compared apart",
        .value = [=](size_t row) { return at(row).phase; },
        .sortKey = [=](size_t row) -> CellValue { return phaseOrder(at(row).phase); } });
    return table;
}

ReportTable matchedKernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const MatchedKernels& { return r.matchedKernels[row]; };
    ReportTable table { .id = ReportTableId::MatchedKernels, .rows = r.matchedKernels.size(), .columns = {} };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernel" : "trace2_kernel",
            .header = side == 0 ? "A kernel" : "B kernel",
            .toolTip = side == 0 ? "A's kernel, as A's trace names it" : "B's kernel, as B's trace names it",
            .unit = Unit::KernelName,
            .value = [=](size_t row) { return at(row).names[side]; } });
    }
    table.columns.push_back({ .key = "type",
        .header = "Type",
        .toolTip = "Kernel type given by the classifier (both kernels are of it)",
        .value = [=, &r](size_t row) { return r.typeName(at(row).types[0]); } });
    table.columns.push_back({ .key = "pairs",
        .header = "Pairs",
        .toolTip = "How many of A's kernels were paired with one of B's under these two names",
        .unit = Unit::Count,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).pairs; } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A total" : "B total",
            .toolTip = side == 0 ? "A's time in these pairs" : "B's time in these pairs",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; } });
        table.columns.push_back({ .key = side == 0 ? "trace1_mean_us" : "trace2_mean_us",
            .header = side == 0 ? "A mean" : "B mean",
            .toolTip = side == 0 ? "A's mean time per pair" : "B's mean time per pair",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side] / static_cast<double>(at(row).pairs); } });
    }
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer B's kernels take than A's over the pairs (negative: shorter)",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).differenceUs(); } });
    table.kernelType = [=](size_t row) { return std::optional(at(row).types[0]); };
    return table;
}

} // namespace fusiondiff
