#include "report/reporttimegap.h"

#include "model/fusionreport.h"
#include "report/csvwriter.h"
#include "report/jsonwriter.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

void writeBreakdown(JsonWriter& json, const TimeGapBreakdown& breakdown)
{
    json.field("basis", timeBasisKey(breakdown.basis));
    json.field("description", breakdown.description);
    json.field("trace1_time_us", breakdown.timeUs[0]);
    json.field("trace2_time_us", breakdown.timeUs[1]);
    json.field("delta_us", breakdown.deltaUs);
    json.field("delta_share", breakdown.share());
    json.field("slower_trace", breakdown.deltaUs == 0 ? "" : sideKey(breakdown.slowerSide()));
    json.key("parts");
    json.beginArray();
    for (const TimeGapPart& part : breakdown.parts) {
        json.beginObject();
        json.field("cause", gapCauseKey(part.cause));
        json.field("label", part.label);
        json.field("title", part.title);
        json.field("delta_us", part.deltaUs);
        json.field("trace1_time_us", part.timeUs[0]);
        json.field("trace2_time_us", part.timeUs[1]);
        json.field("trace1_kernels", part.kernels[0]);
        json.field("trace2_kernels", part.kernels[1]);
        json.key("top");
        json.beginArray();
        for (const GapContributor& contributor : part.top) {
            json.beginObject();
            json.field("name", contributor.name);
            json.field("delta_us", contributor.deltaUs);
            json.field("trace1_time_us", contributor.timeUs[0]);
            json.field("trace2_time_us", contributor.timeUs[1]);
            json.field("trace1_kernels", contributor.kernels[0]);
            json.field("trace2_kernels", contributor.kernels[1]);
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();
}

void breakdownRows(CsvWriter& csv, const TimeGapBreakdown& breakdown)
{
    for (const TimeGapPart& part : breakdown.parts) {
        std::string top;
        for (const GapContributor& contributor : part.top)
            top += (top.empty() ? "" : " | ") + contributor.name + " " + fixed(contributor.deltaUs, 3);
        csv.field(timeBasisKey(breakdown.basis))
            .field(breakdown.timeUs[0])
            .field(breakdown.timeUs[1])
            .field(breakdown.deltaUs)
            .field(gapCauseKey(part.cause))
            .field(part.label)
            .field(part.title)
            .field(part.deltaUs)
            .field(part.timeUs[0])
            .field(part.timeUs[1])
            .field(part.kernels[0])
            .field(part.kernels[1])
            .field(top)
            .endRecord();
    }
}

std::string signedDuration(double us)
{
    if (std::fabs(us) < 0.05)
        return "0 us";
    return (us < 0 ? "-" : "+") + formatDuration(std::fabs(us));
}

// A time for display: the overlap of a trace without concurrent kernels can be -1e-12.
std::string shownDuration(double us)
{
    return formatDuration(std::fabs(us) < 0.05 ? 0.0 : us);
}

std::string padLeft(const std::string& text, size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
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
    writeBreakdown(json, gap.kernelTime);
    json.key("wall_time");
    if (gap.wallTime) {
        json.beginObject();
        writeBreakdown(json, *gap.wallTime);
        json.endObject();
    } else {
        json.null();
    }
    json.endObject();
}

void writeWhereToLookFirstJson(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (size_t i = 0; i < report.whereToLookFirst.size(); ++i) {
        const LookFirstEntry& entry = report.whereToLookFirst[i];
        json.beginObject();
        json.field("rank", uint64_t(i + 1));
        json.field("kind", lookFirstKindKey(entry.kind));
        json.field("op", entry.op);
        json.field("title", entry.title);
        json.key("details");
        json.beginArray();
        for (const std::string& detail : entry.details)
            json.value(detail);
        json.endArray();
        json.key("types");
        json.beginArray();
        for (const CategoryId type : entry.types)
            json.value(report.typeName(type));
        json.endArray();
        json.key("kernels");
        json.beginArray();
        for (const std::string& kernel : entry.kernels)
            json.value(kernel);
        json.endArray();
        json.field("calls", entry.calls);
        json.field("trace1_time_us", entry.timeUs[0]);
        json.field("trace2_time_us", entry.timeUs[1]);
        json.field("stake_us", entry.stakeUs);
        json.field("slower_trace", sideKey(entry.slowerSide));
        json.field("saving_us", entry.savingUs);
        json.field("saving_extra_kernels_us", entry.savingExtraKernelsUs);
        json.field("saving_speed_us", entry.savingSpeedUs);
        json.endObject();
    }
    json.endArray();
}

void writeCollectiveCallsJson(JsonWriter& json, const FusionReport& report)
{
    json.beginArray();
    for (const CollectiveCallGroup& group : report.collectiveCalls) {
        json.beginObject();
        json.field("collective", group.collective);
        for (const Side side : { Side::Trace1, Side::Trace2 }) {
            const size_t s = sideIndex(side);
            const std::string prefix = sideKey(side);
            json.field(prefix + "_calls", group.calls[s]);
            json.field(prefix + "_time_us", group.timeUs[s]);
            json.field(prefix + "_implementation", group.implementation[s]);
            json.field(prefix + "_operation", group.operation[s]);
            json.key(prefix + "_message_bytes");
            group.messageBytes[s] >= 0 ? json.value(group.messageBytes[s]) : json.null();
        }
        json.endObject();
    }
    json.endArray();
}

std::string timeGapCsv(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "basis", "trace1_total_us", "trace2_total_us", "total_delta_us", "cause", "label",
             "title", "delta_us", "trace1_time_us", "trace2_time_us", "trace1_kernels", "trace2_kernels", "top" })
        csv.field(column);
    csv.endRecord();
    breakdownRows(csv, report.timeGap.kernelTime);
    if (report.timeGap.wallTime)
        breakdownRows(csv, *report.timeGap.wallTime);
    return csv.text();
}

std::string whereToLookFirstCsv(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "rank", "kind", "op", "title", "calls", "trace1_time_us", "trace2_time_us", "stake_us",
             "slower_trace", "saving_us", "saving_extra_kernels_us", "saving_speed_us", "types", "kernels", "details" })
        csv.field(column);
    csv.endRecord();
    for (size_t i = 0; i < report.whereToLookFirst.size(); ++i) {
        const LookFirstEntry& entry = report.whereToLookFirst[i];
        std::string types, kernels, details;
        for (const CategoryId type : entry.types)
            types += (types.empty() ? "" : "+") + report.typeName(type);
        for (const std::string& kernel : entry.kernels)
            kernels += (kernels.empty() ? "" : " | ") + kernel;
        for (const std::string& detail : entry.details)
            details += (details.empty() ? "" : " | ") + detail;
        csv.field(uint64_t(i + 1))
            .field(lookFirstKindKey(entry.kind))
            .field(entry.op)
            .field(entry.title)
            .field(entry.calls)
            .field(entry.timeUs[0])
            .field(entry.timeUs[1])
            .field(entry.stakeUs)
            .field(sideKey(entry.slowerSide))
            .field(entry.savingUs)
            .field(entry.savingExtraKernelsUs)
            .field(entry.savingSpeedUs)
            .field(types)
            .field(kernels)
            .field(details)
            .endRecord();
    }
    return csv.text();
}

std::string collectiveCallsCsv(const FusionReport& report)
{
    CsvWriter csv;
    for (const char* column : { "collective", "trace1_calls", "trace2_calls", "trace1_time_us", "trace2_time_us",
             "trace1_implementation", "trace2_implementation", "trace1_operation", "trace2_operation",
             "trace1_message_bytes", "trace2_message_bytes" })
        csv.field(column);
    csv.endRecord();
    for (const CollectiveCallGroup& group : report.collectiveCalls) {
        csv.field(group.collective)
            .field(group.calls[0])
            .field(group.calls[1])
            .field(group.timeUs[0])
            .field(group.timeUs[1])
            .field(group.implementation[0])
            .field(group.implementation[1])
            .field(group.operation[0])
            .field(group.operation[1]);
        for (const int64_t bytes : group.messageBytes)
            bytes >= 0 ? csv.field(bytes) : csv.empty();
        csv.endRecord();
    }
    return csv.text();
}

std::string timeGapMarkdown(const FusionReport& report, MarkdownCell cell)
{
    const TimeGap& gap = report.timeGap;
    std::string out = "## The time gap\n\n" + cell(gap.verdict) + "\n";
    for (const TimeGapBreakdown* breakdown : { &gap.kernelTime, gap.wallTime ? &*gap.wallTime : nullptr }) {
        if (!breakdown)
            continue;
        out += "\n" + std::string(breakdown->basis == TimeBasis::GpuKernelTime ? "GPU kernel time" : "GPU wall time")
            + " (" + breakdown->description + "): A " + formatDuration(breakdown->timeUs[0]) + ", B "
            + formatDuration(breakdown->timeUs[1]) + ", A - B " + signedDuration(breakdown->deltaUs) + ".\n\n";
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
    out += "  " + padLeft("A - B", 11) + "   part (GPU kernel time: the sum of kernel durations)\n";
    for (const TimeGapPart& part : gap.kernelTime.parts)
        out += "  " + padLeft(signedDuration(part.deltaUs), 11) + "   " + part.title + "\n";
    if (gap.wallTime) {
        const TimeGapBreakdown& wall = *gap.wallTime;
        std::string extra;
        for (const TimeGapPart& part : wall.parts) {
            if (part.cause == GapCause::Overlap || part.cause == GapCause::Idle || part.cause == GapCause::Residual)
                extra += ", " + std::string(gapCauseKey(part.cause)) + " " + signedDuration(part.deltaUs);
        }
        out += "  GPU wall time (first kernel to last): A " + formatDuration(wall.timeUs[0]) + ", B "
            + formatDuration(wall.timeUs[1]) + ", A - B " + signedDuration(wall.deltaUs) + ": the parts above" + extra
            + ".\n";
    }
    return out;
}

} // namespace fusiondiff
