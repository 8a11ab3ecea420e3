#include "report/operationtables.h"

#include "model/fusionreport.h"
#include "report/tablecolumns.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

ReportTable opFindingsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const OpFinding& { return r.opFindings[row]; };
    ReportTable table { .id = ReportTableId::OpFindings, .rows = r.opFindings.size(), .columns = {} };
    table.columns = {
        { .key = "op",
            .header = "Operation",
            .toolTip = "The operator, module or graph launch that runs different kernels",
            .value = [=](size_t row) { return at(row).op; } },
        { .key = "fused_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); } },
        { .key = "fused_by", .value = [=, &r](size_t row) { return r.sideName(at(row).fusedSide); } },
        { .key = "fused_by_side",
            .header = "Fused by",
            .toolTip = "The side that runs fewer kernels (where it runs none, the other side only runs the "
                       "operation's kernels)",
            .unit = Unit::SideName,
            .inCsv = false,
            .value = [=](size_t row) { return std::string(sideKey(at(row).fusedSide)); },
            .shown =
                [=](size_t row) {
                    return sideNameShown(at(row).fusedSide, at(row).kernels[sideIndex(at(row).fusedSide)].size());
                } },
        { .key = "occurrences",
            .header = "Calls",
            .toolTip = "Calls (occurrences) of the operation that show this pattern",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).occurrences; } },
        { .key = "launch_difference",
            .header = "Extra/call",
            .toolTip = "Launch difference: kernels per call the unfused side launches beyond the fused side's",
            .unit = Unit::Integer,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).launchDifference; } },
        { .key = "extra_launches",
            .value = [=](size_t row) { return at(row).launchDifference * int64_t(at(row).occurrences); } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_kernel_count" : "trace2_kernel_count",
            .header = side == 0 ? "A kernels" : "B kernels",
            .toolTip = side == 0 ? "Kernels A (trace1) runs per call" : "Kernels B (trace2) runs per call",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return uint64_t(at(row).kernels[side].size()); },
            .detail = [=, &r](size_t row) { return joinKernelTypes(r, at(row).kernels[side], ", "); } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_types" : "trace2_types",
            .value = [=, &r](size_t row) { return joinKernelTypes(r, at(row).kernels[side], "+"); } });
    }
    for (size_t side = 0; side < 2; ++side) {
        const auto spread = [=](size_t row) -> const Spread& { return at(row).timeUs[side]; };
        addSpreadColumns(table, side, spread, {}, {});
    }
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back(spreadColumn(side, [=](size_t row) -> const Spread& { return at(row).timeUs[side]; }));
    table.columns.push_back(
        { .key = "slower_trace", .value = [=](size_t row) { return std::string(sideKey(at(row).slowerSide)); } });
    table.columns.push_back({ .key = "saving_us",
        .header = "Could save",
        .toolTip = "Over the calls: how much longer the slower side takes (its time minus the other side's)",
        .unit = Unit::Microseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).savingUs; } });
    table.columns.push_back(
        { .key = "saving_extra_kernels_us", .value = [=](size_t row) { return at(row).savingExtraKernelsUs; } });
    table.columns.push_back({ .key = "saving_speed_us", .value = [=](size_t row) { return at(row).savingSpeedUs; } });
    table.columns.push_back({ .key = "significant",
        .value = [=](size_t row) { return std::string(at(row).significant ? "true" : "false"); } });
    table.columns.push_back({ .key = "summary", .header = "Summary", .unit = Unit::SideText, .value = [=](size_t row) {
                                 return at(row).summary;
                             } });
    table.columns.push_back({ .key = "explanation", .value = [=](size_t row) {
                                 std::string explanation;
                                 for (const ExtraRun& run : at(row).extraRuns)
                                     explanation += (explanation.empty() ? "" : " | ") + run.explanation
                                         + (run.repeats > 1 ? " (x" + std::to_string(run.repeats) + ")" : "");
                                 return explanation;
                             } });
    table.columns.push_back({ .key = "stack", .value = [=](size_t row) {
                                 std::string stack;
                                 for (const std::string& frame : at(row).stack)
                                     stack += (stack.empty() ? "" : " > ") + frame;
                                 return stack;
                             } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_op" : "trace2_op",
            .value = [=](size_t row) { return at(row).sideOps[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_stack" : "trace2_stack", .value = [=](size_t row) {
                                     std::string stack;
                                     for (const std::string& frame : at(row).sideStacks[side])
                                         stack += (stack.empty() ? "" : " > ") + frame;
                                     return stack;
                                 } });
    }
    table.columns.push_back({ .key = "aligned_on", .value = [=](size_t row) { return at(row).alignedOn; } });
    table.columns.push_back({ .key = "layers",
        .header = "Layers",
        .toolTip = "The layers its calls are in, by index in the step (when the traces were aligned layer by layer)",
        .value = [=](size_t row) { return at(row).layers; } });
    // Appended: a block one side repeats more times (ops/comparison/repeatedblocks.h).
    table.columns.push_back({ .key = "saving_work_us", .value = [=](size_t row) { return at(row).savingWorkUs; } });
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back({ .key = std::string(side == 0 ? "trace1" : "trace2") + "_block_copies",
            .value = [=](size_t row) { return uint64_t(at(row).blockCopies[side]); } });
    // Appended: its communication kernels, left out of the comparison (ops/comparison/collectivepart.h).
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back({ .key = std::string(side == 0 ? "trace1" : "trace2") + "_collective_us",
            .value = [=](size_t row) { return at(row).collectiveUs[side]; } });
    return table;
}

ReportTable opSummaryTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const OpSummary& { return r.opSummary[row]; };
    ReportTable table { .id = ReportTableId::OpSummary, .rows = r.opSummary.size(), .columns = {} };
    table.columns = {
        { .key = "op", .header = "Operation", .value = [=](size_t row) { return at(row).op; } },
        { .key = "occurrences",
            .header = "Calls compared",
            .toolTip = "Matched pairs of calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).occurrences; } },
        { .key = "differing",
            .header = "Calls differing",
            .toolTip = "Matched pairs whose kernel counts differ",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).differing; } },
        { .key = "trace1_kernels",
            .header = "A kernels",
            .toolTip = "Kernels of these calls in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[0]; } },
        { .key = "trace2_kernels",
            .header = "B kernels",
            .toolTip = "Kernels of these calls in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[1]; } },
    };
    addSpreadColumns(
        table, 0, [=](size_t row) -> const Spread& { return at(row).timeUs[0]; }, "A time",
        "GPU time of these calls in A");
    addSpreadColumns(
        table, 1, [=](size_t row) -> const Spread& { return at(row).timeUs[1]; }, "B time",
        "GPU time of these calls in B");
    // Sorted by what it adds to the gap: the operations that make the slower side slower first,
    // those that work the other way last.
    const double gapSign = r.timeGap.kernelTime.timeUs[1] >= r.timeGap.kernelTime.timeUs[0] ? 1.0 : -1.0;
    table.columns.push_back({ .key = "delta_time_us",
        .header = "B \u2212 A time",
        .toolTip = "How much longer these calls take in B than in A (negative: shorter). Sorted, the operations "
                   "that add most to the slower side's time come first, those that work the other way last",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).timeUs[1].total - at(row).timeUs[0].total; },
        .sortKey = [=](size_t row) { return gapSign * (at(row).timeUs[1].total - at(row).timeUs[0].total); } });
    table.columns.push_back({ .key = "time_ratio",
        .header = "Time A/B",
        .toolTip = "A's time divided by B's",
        .unit = Unit::Ratio,
        .inCsv = false,
        .largestFirst = true,
        .value = [=](size_t row) { return timeRatio(at(row)); },
        // Neither side has time: below every ratio.
        .sortKey =
            [=](size_t row) {
                const double ratio = timeRatio(at(row));
                return std::isnan(ratio) ? -1.0 : ratio;
            } });
    for (size_t side = 0; side < 2; ++side)
        table.columns.push_back(spreadColumn(side, [=](size_t row) -> const Spread& { return at(row).timeUs[side]; }));
    table.columns.push_back({ .key = "saving_us",
        .header = "Could save",
        .toolTip = "Summed over the operation's findings: how much longer each finding's slower side takes",
        .unit = Unit::Microseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).savingUs; } });
    return table;
}

ReportTable extraKernelsTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const ExtraKernels& { return r.extraKernels[row]; };
    ReportTable table { .id = ReportTableId::ExtraKernels, .rows = r.extraKernels.size(), .columns = {} };
    table.columns = {
        { .key = "kernel_type",
            .header = "Kernel type",
            .value = [=, &r](size_t row) { return r.typeName(at(row).type); } },
        { .key = "trace1_kernels",
            .header = "A kernels",
            .toolTip = "Kernels of this type A (trace1) runs where B has none",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[0]; } },
        { .key = "trace2_kernels",
            .header = "B kernels",
            .toolTip = "Kernels of this type B (trace2) runs where A has none",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).kernels[1]; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .toolTip = "GPU time of A's extra kernels of this type",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[0]; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .toolTip = "GPU time of B's extra kernels of this type",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[1]; } },
    };
    table.kernelType = [=](size_t row) { return std::optional(at(row).type); };
    return table;
}

ReportTable collectivesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const CollectiveComparison& { return r.collectives[row]; };
    ReportTable table { .id = ReportTableId::Collectives, .rows = r.collectives.size(), .columns = {} };
    table.columns = {
        { .key = "collective", .header = "Collective", .value = [=](size_t row) { return at(row).collective; } },
        { .key = "trace1_count",
            .header = "A count",
            .toolTip = "Communication kernels (launches) of this collective in A (trace1)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[0]; } },
        { .key = "trace2_count",
            .header = "B count",
            .toolTip = "Communication kernels (launches) of this collective in B (trace2)",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).count[1]; } },
    };
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .toolTip = side == 0 ? "Their GPU time in A" : "Their GPU time in B",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side]; },
            .shown = timeIfAny(
                [=](size_t row) { return at(row).count[side]; }, [=](size_t row) { return at(row).timeUs[side]; }) });
    }
    table.columns.push_back({ .key = "trace1_implementation",
        .header = "A implementation",
        .toolTip = "What implements the collective in A (NCCL, RCCL, a custom kernel)",
        .value = [=](size_t row) { return at(row).implementation[0]; } });
    table.columns.push_back({ .key = "trace2_implementation",
        .header = "B implementation",
        .toolTip = "What implements the collective in B",
        .value = [=](size_t row) { return at(row).implementation[1]; } });
    return table;
}

} // namespace fusiondiff
