#include "report/reporttimegap.h"

#include "model/fusionreport.h"
#include "report/jsonwriter.h"
#include "report/tablejson.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

void writeContributorFields(JsonWriter& json, const GapContributor& contributor)
{
    json.field("name", contributor.name);
    json.field("delta_us", contributor.deltaUs);
    json.field("trace1_time_us", contributor.timeUs[0]);
    json.field("trace2_time_us", contributor.timeUs[1]);
    json.field("trace1_kernels", contributor.kernels[0]);
    json.field("trace2_kernels", contributor.kernels[1]);
}

void writePartFields(JsonWriter& json, const TimeGapPart& part)
{
    json.field("cause", gapCauseKey(part.cause));
    json.field("label", part.label);
    json.field("title", part.title);
    json.field("delta_us", part.deltaUs);
    json.field("trace1_time_us", part.timeUs[0]);
    json.field("trace2_time_us", part.timeUs[1]);
    json.field("trace1_kernels", part.kernels[0]);
    json.field("trace2_kernels", part.kernels[1]);
    json.key("top");
    writeObjectArray(json, part.top, writeContributorFields);
}

void writeBreakdownFields(JsonWriter& json, const TimeGapBreakdown& breakdown)
{
    json.field("basis", timeBasisKey(breakdown.basis));
    json.field("description", breakdown.description);
    json.field("trace1_time_us", breakdown.timeUs[0]);
    json.field("trace2_time_us", breakdown.timeUs[1]);
    json.field("delta_us", breakdown.deltaUs);
    json.field("delta_share", breakdown.share());
    json.field("slower_trace", breakdown.deltaUs == 0 ? "" : sideKey(breakdown.slowerSide()));
    json.field("significant", breakdown.noise.significant());
    json.key("noise");
    json.beginObject();
    json.field("verdict", noiseVerdictKey(breakdown.noise.verdict));
    json.field("noise_us", breakdown.noise.noiseUs);
    json.field("spread_us", breakdown.noise.spreadUs);
    json.field("floor_us", breakdown.noise.floorUs);
    json.field("step_spread_us", breakdown.noise.stepSpreadUs);
    json.field("basis", breakdown.noise.basis);
    json.field("reason", breakdown.noise.reason);
    json.endObject();
    json.key("parts");
    writeObjectArray(json, breakdown.parts, writePartFields);
}

void writeLookFirstFields(JsonWriter& json, const FusionReport& report, const LookFirstEntry& entry, uint64_t rank)
{
    json.field("rank", rank);
    json.field("kind", lookFirstKindKey(entry.kind));
    json.field("op", entry.op);
    json.field("title", entry.title);
    json.key("details");
    writeValueArray(json, entry.details);
    json.key("types");
    json.beginArray();
    for (const CategoryId type : entry.types)
        json.value(report.typeName(type));
    json.endArray();
    json.key("kernels");
    writeValueArray(json, entry.kernels);
    json.field("calls", entry.calls);
    json.field("trace1_time_us", entry.timeUs[0]);
    json.field("trace2_time_us", entry.timeUs[1]);
    json.field("stake_us", entry.stakeUs);
    json.field("slower_trace", sideKey(entry.slowerSide));
    json.field("against_gap", entry.againstGap);
    json.field("saving_us", entry.savingUs);
    json.field("saving_extra_kernels_us", entry.savingExtraKernelsUs);
    json.field("saving_speed_us", entry.savingSpeedUs);
    json.field("significant", entry.noise == NoiseVerdict::Significant);
    json.field("noise", noiseVerdictKey(entry.noise));
    json.field("noise_us", entry.noiseUs);
    json.field("group", lookFirstGroupKey(entry));
    if (entry.kind == LookFirstKind::Straggler)
        json.field("straggler_rank", int64_t(entry.rank));
}

// "a | b | c"
std::string joined(const std::vector<std::string>& texts, const char* separator)
{
    std::string text;
    for (const std::string& part : texts)
        text += (text.empty() ? "" : separator) + part;
    return text;
}

// A time for display: the overlap of a trace without concurrent kernels can be -1e-12.
std::string shownDuration(double us)
{
    return formatDuration(std::fabs(us) < 0.05 ? 0.0 : us);
}

std::string basisName(TimeBasis basis)
{
    switch (basis) {
    case TimeBasis::GpuKernelTime:
        return "GPU kernel time";
    case TimeBasis::GpuWallTime:
        return "GPU wall time";
    case TimeBasis::StepTime:
        return "Step time";
    }
    return "";
}

bool hasNotRecorded(const TimeGapBreakdown& breakdown)
{
    for (const TimeGapPart& part : breakdown.parts) {
        if (part.cause == GapCause::NotRecorded)
            return true;
    }
    return false;
}

std::string bytesText(int64_t bytes)
{
    return bytes < 0 ? "" : withThousands(bytes);
}

} // namespace

void writeTimeGapJson(JsonWriter& json, const FusionReport& report)
{
    const TimeGap& gap = report.timeGap;
    json.beginObject();
    json.field("verdict", gap.verdict);
    json.field("same_work", !gap.differentWork);
    writeBreakdownFields(json, gap.headline());
    for (const auto& [key, breakdown] : { std::pair { "kernel_time", &gap.kernelTime },
             std::pair { "wall_time", gap.wallTime ? &*gap.wallTime : nullptr },
             std::pair { "step_time", gap.stepTime ? &*gap.stepTime : nullptr } }) {
        json.key(key);
        if (breakdown) {
            json.beginObject();
            writeBreakdownFields(json, *breakdown);
            json.endObject();
        } else {
            json.null();
        }
    }
    json.endObject();
}

void writeWhereToLookFirstJson(JsonWriter& json, const FusionReport& report)
{
    const std::vector<LookFirstEntry>& entries = report.whereToLookFirst;
    writeObjectArray(json, entries, [&report, &entries](JsonWriter& out, const LookFirstEntry& entry) {
        writeLookFirstFields(out, report, entry, static_cast<uint64_t>(&entry - entries.data()) + 1);
    });
}

void writeCollectiveCallsJson(JsonWriter& json, const FusionReport& report)
{
    writeTableJson(json, collectiveCallsTable(report),
        { "collective", "trace1_calls", "trace1_time_us", "trace1_implementation", "trace1_operation",
            "trace1_message_bytes", "trace2_calls", "trace2_time_us", "trace2_implementation", "trace2_operation",
            "trace2_message_bytes" });
}

ReportTable timeGapTable(const FusionReport& report)
{
    struct PartRow
    {
        const TimeGapBreakdown* breakdown;
        const TimeGapPart* part;
    };
    std::vector<PartRow> rows;
    for (const TimeGapBreakdown* breakdown :
        { &report.timeGap.kernelTime, report.timeGap.wallTime ? &*report.timeGap.wallTime : nullptr,
            report.timeGap.stepTime ? &*report.timeGap.stepTime : nullptr }) {
        if (!breakdown)
            continue;
        for (const TimeGapPart& part : breakdown->parts)
            rows.push_back({ breakdown, &part });
    }
    ReportTable table { .id = ReportTableId::TimeGap, .rows = rows.size(), .columns = {} };
    const auto at = rowsOfTable(std::move(rows));
    const auto breakdown = [at](size_t row) -> const TimeGapBreakdown& { return *at(row).breakdown; };
    const auto part = [at](size_t row) -> const TimeGapPart& { return *at(row).part; };
    table.columns = {
        { .key = "basis",
            .header = "Basis",
            .toolTip = "gpu_kernel_time: the sum of kernel durations; gpu_wall_time: first kernel to last; step_time: "
                       "the compared steps, host start to the later of last GPU work's end, host end and next step",
            .value = [breakdown](size_t row) { return std::string(timeBasisKey(breakdown(row).basis)); } },
        { .key = "trace1_total_us",
            .header = "A total",
            .unit = Unit::Microseconds,
            .value = [breakdown](size_t row) { return breakdown(row).timeUs[0]; } },
        { .key = "trace2_total_us",
            .header = "B total",
            .unit = Unit::Microseconds,
            .value = [breakdown](size_t row) { return breakdown(row).timeUs[1]; } },
        { .key = "total_delta_us",
            .header = "A \u2212 B total",
            .unit = Unit::SignedMicroseconds,
            .value = [breakdown](size_t row) { return breakdown(row).deltaUs; } },
        { .key = "noise",
            .header = "Noise",
            .toolTip = "Whether the basis's A \u2212 B is beyond run-to-run noise: significant, within_noise, or "
                       "cannot_tell (too few steps in a phase: the idle time's spread is not measured)",
            .value = [breakdown](size_t row) { return std::string(noiseVerdictKey(breakdown(row).noise.verdict)); } },
        { .key = "noise_us", .value = [breakdown](size_t row) { return breakdown(row).noise.noiseUs; } },
        { .key = "cause",
            .header = "Cause",
            .value = [part](size_t row) { return std::string(gapCauseKey(part(row).cause)); } },
        { .key = "label", .value = [part](size_t row) { return part(row).label; } },
        { .key = "title", .header = "Part", .value = [part](size_t row) { return part(row).title; } },
        { .key = "delta_us",
            .header = "A \u2212 B",
            .toolTip = "What this part adds to the gap",
            .unit = Unit::SignedMicroseconds,
            .largestFirst = true,
            .value = [part](size_t row) { return part(row).deltaUs; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [part](size_t row) { return part(row).timeUs[0]; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [part](size_t row) { return part(row).timeUs[1]; } },
        { .key = "trace1_kernels",
            .header = "A kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [part](size_t row) { return part(row).kernels[0]; } },
        { .key = "trace2_kernels",
            .header = "B kernels",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [part](size_t row) { return part(row).kernels[1]; } },
        { .key = "top",
            .header = "Largest contributors",
            .toolTip = "Name and A \u2212 B in microseconds",
            .unit = Unit::SideText,
            .value =
                [part](size_t row) {
                    std::string top;
                    for (const GapContributor& contributor : part(row).top)
                        top += (top.empty() ? "" : " | ") + contributor.name + " " + fixed(contributor.deltaUs, 3);
                    return top;
                } },
    };
    return table;
}

const char* lookFirstGroupKey(const LookFirstEntry& entry)
{
    if (entry.noise == NoiseVerdict::WithinNoise)
        return "within_noise";
    return entry.againstGap ? "against_gap" : "explains_gap";
}

ReportTable whereToLookFirstTable(const FusionReport& report)
{
    const auto at = [&report](size_t row) -> const LookFirstEntry& { return report.whereToLookFirst[row]; };
    ReportTable table { .id = ReportTableId::WhereToLookFirst, .rows = report.whereToLookFirst.size(), .columns = {} };
    table.columns = {
        { .key = "rank", .header = "Rank", .unit = Unit::Count, .value = [](size_t row) { return uint64_t(row + 1); } },
        { .key = "kind",
            .header = "Kind",
            .value = [at](size_t row) { return std::string(lookFirstKindKey(at(row).kind)); } },
        { .key = "op", .header = "Operation", .value = [at](size_t row) { return at(row).op; } },
        { .key = "title",
            .header = "What",
            .unit = Unit::SideText,
            .value = [at](size_t row) { return at(row).title; } },
        { .key = "calls",
            .header = "Calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [at](size_t row) { return at(row).calls; } },
        { .key = "trace1_time_us",
            .header = "A time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [at](size_t row) { return at(row).timeUs[0]; } },
        { .key = "trace2_time_us",
            .header = "B time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [at](size_t row) { return at(row).timeUs[1]; } },
        { .key = "stake_us",
            .header = "At stake",
            .toolTip = "|A time \u2212 B time|: the rank's key",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [at](size_t row) { return at(row).stakeUs; } },
        { .key = "slower_trace",
            .header = "Slower",
            .unit = Unit::SideName,
            .value = [at](size_t row) { return std::string(sideKey(at(row).slowerSide)); } },
        { .key = "against_gap",
            .header = "",
            .value = [at](size_t row) { return std::string(at(row).againstGap ? "true" : "false"); } },
        { .key = "saving_us",
            .header = "Saving",
            .toolTip = "What the slower side could save: its time here minus the other side's",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [at](size_t row) { return at(row).savingUs; } },
        { .key = "saving_extra_kernels_us", .value = [at](size_t row) { return at(row).savingExtraKernelsUs; } },
        { .key = "saving_speed_us", .value = [at](size_t row) { return at(row).savingSpeedUs; } },
        { .key = "noise", .value = [at](size_t row) { return std::string(noiseVerdictKey(at(row).noise)); } },
        { .key = "types",
            .header = "Kernel types",
            .value =
                [at, &report](size_t row) {
                    std::string types;
                    for (const CategoryId type : at(row).types)
                        types += (types.empty() ? "" : "+") + report.typeName(type);
                    return types;
                } },
        { .key = "kernels",
            .header = "Kernels",
            .unit = Unit::KernelName,
            .value = [at](size_t row) { return joined(at(row).kernels, " | "); } },
        { .key = "details",
            .header = "Details",
            .unit = Unit::SideText,
            .value = [at](size_t row) { return joined(at(row).details, " | "); } },
        { .key = "group", .value = [at](size_t row) { return std::string(lookFirstGroupKey(at(row))); } },
    };
    return table;
}

ReportTable collectiveCallsTable(const FusionReport& report)
{
    const auto at = [&report](size_t row) -> const CollectiveCallGroup& { return report.collectiveCalls[row]; };
    ReportTable table { .id = ReportTableId::CollectiveCalls, .rows = report.collectiveCalls.size(), .columns = {} };
    table.columns.push_back(
        { .key = "collective", .header = "Collective", .value = [at](size_t row) { return at(row).collective; } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_calls" : "trace2_calls",
            .header = side == 0 ? "A calls" : "B calls",
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [at, side](size_t row) { return at(row).calls[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_time_us" : "trace2_time_us",
            .header = side == 0 ? "A time" : "B time",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [at, side](size_t row) { return at(row).timeUs[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_implementation" : "trace2_implementation",
            .header = side == 0 ? "A implementation" : "B implementation",
            .unit = Unit::KernelName,
            .value = [at, side](size_t row) { return at(row).implementation[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_operation" : "trace2_operation",
            .header = side == 0 ? "A operation" : "B operation",
            .value = [at, side](size_t row) { return at(row).operation[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = side == 0 ? "trace1_message_bytes" : "trace2_message_bytes",
            .header = side == 0 ? "A bytes" : "B bytes",
            .toolTip = "Message size per call; empty when the trace does not say",
            .unit = Unit::Integer,
            .value = [at, side](size_t row) -> CellValue {
                if (at(row).messageBytes[side] < 0)
                    return std::monostate {};
                return at(row).messageBytes[side];
            } });
    }
    return table;
}

std::string signedDuration(double us)
{
    if (std::fabs(us) < 0.05)
        return "0 us";
    return (us < 0 ? "-" : "+") + formatDuration(std::fabs(us));
}

std::string timeGapMarkdown(const FusionReport& report, MarkdownCell cell)
{
    const TimeGap& gap = report.timeGap;
    std::string out = "## The time gap\n\n" + cell(gap.verdict) + "\n";
    for (const TimeGapBreakdown* breakdown : { gap.onStepTime ? &*gap.stepTime : nullptr, &gap.kernelTime,
             gap.wallTime ? &*gap.wallTime : nullptr, !gap.onStepTime && gap.stepTime ? &*gap.stepTime : nullptr }) {
        if (!breakdown)
            continue;
        out += "\n" + basisName(breakdown->basis) + " (" + breakdown->description + "): A "
            + formatDuration(breakdown->timeUs[0]) + ", B " + formatDuration(breakdown->timeUs[1]) + ", A - B "
            + signedDuration(breakdown->deltaUs) + "; " + cell(breakdown->noise.reason) + ".\n\n";
        out += "| Part | A - B | A | B | Largest contributors |\n| --- | ---: | ---: | ---: | --- |\n";
        for (const TimeGapPart& part : breakdown->parts) {
            std::string top;
            for (size_t i = 0; i < std::min<size_t>(3, part.top.size()); ++i)
                top += (top.empty() ? "" : "; ") + cell(part.top[i].name) + " " + signedDuration(part.top[i].deltaUs);
            out += "| " + cell(part.title) + " | " + signedDuration(part.deltaUs) + " | "
                + shownDuration(part.timeUs[0]) + " | " + shownDuration(part.timeUs[1]) + " | " + top + " |\n";
        }
    }
    return out;
}

std::string collectiveCallsMarkdown(const FusionReport& report, MarkdownCell cell)
{
    if (report.collectiveCalls.empty())
        return {};
    std::string out = "\n## Collective calls, paired in order\n\n";
    out += "| Collective | A calls | B calls | A time | B time | A implementation | B implementation | A operation | B "
           "operation | A bytes | B bytes |\n";
    out += "| --- | ---: | ---: | ---: | ---: | --- | --- | --- | --- | ---: | ---: |\n";
    for (const CollectiveCallGroup& group : report.collectiveCalls) {
        out += "| " + group.collective + " | " + withThousands(int64_t(group.calls[0])) + " | "
            + withThousands(int64_t(group.calls[1])) + " | " + formatDuration(group.timeUs[0]) + " | "
            + formatDuration(group.timeUs[1]) + " | " + cell(group.implementation[0]) + " | "
            + cell(group.implementation[1]) + " | " + cell(group.operation[0]) + " | " + cell(group.operation[1])
            + " | " + bytesText(group.messageBytes[0]) + " | " + bytesText(group.messageBytes[1]) + " |\n";
    }
    return out;
}

std::string timeGapText(const FusionReport& report)
{
    const TimeGap& gap = report.timeGap;
    std::string out = gap.verdict + "\n";
    if (gap.onStepTime) {
        out += "  " + padLeft("A - B", 11)
            + "   part (step time: the compared steps, host start to last GPU work or host end)\n";
        for (const TimeGapPart& part : gap.stepTime->parts) {
            std::string top;
            if (!part.top.empty()
                && (part.cause == GapCause::IdleHost || part.cause == GapCause::IdleSync
                    || part.cause == GapCause::IdleLaunch))
                top = " (largest: " + part.top.front().name + " " + signedDuration(part.top.front().deltaUs) + ")";
            out += "  " + padLeft(signedDuration(part.deltaUs), 11) + "   " + part.title + top + "\n";
        }
    }
    out += "  " + padLeft("A - B", 11) + "   part (GPU kernel time: the sum of kernel durations"
        + (hasNotRecorded(gap.kernelTime) ? ", and the not recorded time" : "") + ")\n";
    for (const TimeGapPart& part : gap.kernelTime.parts)
        out += "  " + padLeft(signedDuration(part.deltaUs), 11) + "   " + part.title + "\n";
    if (gap.wallTime) {
        const TimeGapBreakdown& wall = *gap.wallTime;
        std::string extra;
        for (const TimeGapPart& part : wall.parts) {
            if (part.cause == GapCause::Overlap || part.cause == GapCause::Idle || part.cause == GapCause::Residual)
                extra += ", " + std::string(gapCauseKey(part.cause)) + " " + signedDuration(part.deltaUs);
        }
        out += std::string("  GPU wall time (first kernel to last")
            + (hasNotRecorded(wall) ? " GPU work, the not recorded time included" : "") + "): A "
            + formatDuration(wall.timeUs[0]) + ", B " + formatDuration(wall.timeUs[1]) + ", A - B "
            + signedDuration(wall.deltaUs) + ": the parts above" + extra + ".\n";
    }
    return out;
}

} // namespace fusiondiff
