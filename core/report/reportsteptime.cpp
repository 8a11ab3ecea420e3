#include "report/reportsteptime.h"

#include "model/fusionreport.h"
#include "report/jsonwriter.h"
#include "report/tablejson.h"
#include "util/phaseorder.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

constexpr std::array<IdleCause, 5> kCauses { IdleCause::Host, IdleCause::Sync, IdleCause::Launch,
    IdleCause::BetweenSteps, IdleCause::Other };
constexpr size_t kShownHostRows = 10; // in Markdown and the summary

std::string sideKeyOf(size_t side)
{
    return side == 0 ? "trace1" : "trace2";
}

std::string causeColumn(size_t side, IdleCause cause)
{
    return sideKeyOf(side) + "_" + idleCauseKey(cause) + "_us";
}

void writeStepFields(JsonWriter& json, const FusionReport& report, const StepRecord& step)
{
    json.key("phase");
    if (step.phase >= 0)
        json.value(report.stepTime.phases[size_t(step.phase)]);
    else
        json.null();
    json.field("begin_us", step.begin);
    json.field("end_us", step.end);
    json.field("time_us", step.timeUs());
    json.field("busy_us", step.busyUs);
    if (report.stepTime.notRecorded)
        json.field("not_recorded_us", step.notRecordedUs);
    json.field("idle_us", step.idleTotalUs());
    for (const IdleCause cause : kCauses) {
        if (cause != IdleCause::BetweenSteps)
            json.field(std::string(idleCauseKey(cause)) + "_us", step.idleUs[size_t(cause)]);
    }
    json.field("kernels", step.kernels);
}

void writeSideFields(JsonWriter& json, const FusionReport& report, const StepTimeSide& side)
{
    json.field("gpu_span_us", side.gpuSpanUs);
    json.field("host_events", side.hostEvents);
    json.field("launching_threads", side.launchingThreads);
    json.key("idle_us");
    json.beginObject();
    for (const IdleCause cause : kCauses)
        json.field(idleCauseKey(cause), side.idleUs[size_t(cause)]);
    json.endObject();
    json.key("steps");
    writeObjectArray(
        json, side.steps, [&report](JsonWriter& out, const StepRecord& step) { writeStepFields(out, report, step); });
}

void writeCauseFields(JsonWriter& json, const IdleCauseEntry& entry)
{
    json.field("cause", idleCauseKey(entry.cause));
    json.field("key", entry.key);
    json.field("kind", hostCodeKindKey(entry.kind));
    json.field("phase", entry.phase);
    for (size_t side = 0; side < 2; ++side) {
        const std::string prefix = sideKeyOf(side) + "_";
        json.field(prefix + "name", entry.name[side]);
        json.field(prefix + "idle_us", entry.idleUs[side]);
        json.field(prefix + "gaps", entry.intervals[side]);
        json.field(prefix + "calls", entry.calls[side]);
    }
}

std::string perStepCell(double us)
{
    return formatDuration(std::fabs(us) < 0.05 ? 0.0 : us);
}

std::string stepsText(uint64_t steps)
{
    return std::to_string(steps) + (steps == 1 ? " step" : " steps");
}

} // namespace

void writeStepTimeJson(JsonWriter& json, const FusionReport& report)
{
    const StepTimeReport& steps = report.stepTime;
    json.beginObject();
    json.field("headline", steps.headline);
    json.key("phases");
    writeValueArray(json, steps.phases);
    json.key("notes");
    writeValueArray(json, steps.notes);
    for (size_t side = 0; side < 2; ++side) {
        json.key(sideKeyOf(side));
        json.beginObject();
        writeSideFields(json, report, steps.sides[side]);
        json.endObject();
    }
    json.key("idle_causes");
    writeObjectArray(json, steps.causes, writeCauseFields);
    json.endObject();
}

ReportTable stepTimesTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const StepTimeRow& { return r.stepTime.rows[row]; };
    ReportTable table { .id = ReportTableId::StepTimes, .rows = r.stepTime.rows.size(), .columns = {} };
    table.columns.push_back({ .key = "phase",
        .header = "Phase",
        .toolTip = "A phase of the compared steps (steps that run the same operations), or all of them",
        .value = [=](size_t row) { return at(row).phase; },
        .sortKey = [=](size_t row) -> CellValue { return phaseOrder(at(row).phase); } });
    for (size_t side = 0; side < 2; ++side) {
        const std::string letter = side == 0 ? "A" : "B";
        table.columns.push_back({ .key = sideKeyOf(side) + "_steps",
            .header = letter + " steps",
            .toolTip = "Steps compared",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).steps[side]; } });
    }
    for (size_t side = 0; side < 2; ++side) {
        const std::string letter = side == 0 ? "A" : "B";
        table.columns.push_back({ .key = sideKeyOf(side) + "_median_us",
            .header = letter + " step",
            .toolTip = "Time per step, from its start on the host to the later of its last GPU work's end, its host "
                       "end and the next step's start: median (IQR)",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[side].median; },
            .shown = [=](size_t row) { return at(row).timeUs[side]; } });
        table.columns.push_back(
            { .key = sideKeyOf(side) + "_q1_us", .value = [=](size_t row) { return at(row).timeUs[side].q1; } });
        table.columns.push_back(
            { .key = sideKeyOf(side) + "_q3_us", .value = [=](size_t row) { return at(row).timeUs[side].q3; } });
    }
    for (const bool busy : { true, false }) {
        for (size_t side = 0; side < 2; ++side) {
            const std::string letter = side == 0 ? "A" : "B";
            table.columns.push_back({ .key = sideKeyOf(side) + (busy ? "_busy_us" : "_idle_us"),
                .header = letter + (busy ? " busy" : " idle"),
                .toolTip = !busy             ? "GPU idle per step, median"
                    : r.stepTime.notRecorded ? "GPU busy per step (kernels, copies, memsets, not recorded time), median"
                                             : "GPU busy per step (kernels, copies, memsets), median",
                .unit = Unit::Microseconds,
                .largestFirst = true,
                .value = [=](size_t row) { return busy ? at(row).busyUs[side] : at(row).idleUs[side]; } });
        }
        // Only where a trace holds part of its GPU work, so that other reports keep their columns.
        for (size_t side = 0; busy && r.stepTime.notRecorded && side < 2; ++side) {
            table.columns.push_back({ .key = sideKeyOf(side) + "_not_recorded_us",
                .header = std::string(side == 0 ? "A" : "B") + " not recorded",
                .toolTip = "Of the busy time per step: a graph launch's GPU time after its last recorded kernel, "
                           "which the trace holds no kernels for; mean",
                .unit = Unit::Microseconds,
                .largestFirst = true,
                .value = [=](size_t row) { return at(row).notRecordedUs[side]; } });
        }
    }
    for (const IdleCause cause : kCauses) {
        if (cause == IdleCause::BetweenSteps)
            continue;
        for (size_t side = 0; side < 2; ++side) {
            const std::string letter = side == 0 ? "A" : "B";
            table.columns.push_back({ .key = causeColumn(side, cause),
                .header = letter + " " + idleCauseKey(cause),
                .toolTip = std::string("GPU idle per step caused by ") + idleCauseKey(cause) + ", mean",
                .unit = Unit::Microseconds,
                .largestFirst = true,
                .value = [=](size_t row) { return at(row).idleByCauseUs[side][size_t(cause)]; } });
        }
    }
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = sideKeyOf(side) + "_total_us",
            .header = std::string(side == 0 ? "A" : "B") + " total",
            .toolTip = "The compared steps' time, summed",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).totalUs[side]; } });
    }
    return table;
}

ReportTable hostTimeTable(const FusionReport& r)
{
    const auto at = [&r](size_t row) -> const HostTimeRow& { return r.stepTime.hostTime[row]; };
    ReportTable table { .id = ReportTableId::HostTime, .rows = r.stepTime.hostTime.size(), .columns = {} };
    table.columns.push_back({ .key = "code",
        .header = "Host code",
        .toolTip = "A Python function (without its line number), operator or runtime call on the launching threads",
        .unit = Unit::KernelName,
        .value = [=](size_t row) { return at(row).code; } });
    table.columns.push_back({ .key = "kind", .header = "Kind", .value = [=](size_t row) {
                                 return std::string(hostCodeKindKey(at(row).kind));
                             } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = sideKeyOf(side) + "_own_us_per_step",
            .header = std::string(side == 0 ? "A" : "B") + " own time a step",
            .toolTip = "Its own time (its callees left out) per compared step",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).ownUsPerStep[side]; } });
    }
    table.columns.push_back({ .key = "delta_own_us_per_step",
        .header = "B \u2212 A own time",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [=](size_t row) { return at(row).ownUsPerStep[1] - at(row).ownUsPerStep[0]; } });
    for (size_t side = 0; side < 2; ++side) {
        table.columns.push_back({ .key = sideKeyOf(side) + "_idle_us_per_step",
            .header = std::string(side == 0 ? "A" : "B") + " GPU idle a step",
            .toolTip = "GPU idle while the host ran it (host cause), per compared step",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).idleUsPerStep[side]; } });
    }
    return table;
}

std::string stepTimeMarkdown(const FusionReport& report, MarkdownCell cell)
{
    const StepTimeReport& steps = report.stepTime;
    if (steps.rows.empty())
        return {};
    std::string out = "\n## Step time\n\n";
    const bool notRecorded = steps.notRecorded;
    out += std::string("Each step from its start on the host to the later of its last GPU work's end, its host end and "
                       "the next step's start; per step, "
                       "medians (idle by cause: means, which add up")
        + (notRecorded ? "; not recorded: the mean GPU time of graph launches after their last recorded kernel, part "
                         "of busy"
                       : "")
        + ").\n\n";
    out += std::string("| Phase | A steps | B steps | A step | B step | A busy | B busy | ")
        + (notRecorded ? "A not recorded | B not recorded | " : "")
        + "A idle | B idle | A host | B host | A sync | B sync | A launch | B launch | A other | B other |\n";
    out += std::string("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ") + (notRecorded ? "---: | ---: | " : "")
        + "---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const StepTimeRow& row : steps.rows) {
        out += "| " + cell(row.phase) + " | " + std::to_string(row.steps[0]) + " | " + std::to_string(row.steps[1]);
        for (size_t side = 0; side < 2; ++side)
            out += " | " + formatDuration(row.timeUs[side].median) + " (" + formatDuration(row.timeUs[side].q1) + "–"
                + formatDuration(row.timeUs[side].q3) + ")";
        for (size_t side = 0; side < 2; ++side)
            out += " | " + perStepCell(row.busyUs[side]);
        for (size_t side = 0; notRecorded && side < 2; ++side)
            out += " | " + perStepCell(row.notRecordedUs[side]);
        for (size_t side = 0; side < 2; ++side)
            out += " | " + perStepCell(row.idleUs[side]);
        for (const IdleCause cause : { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::Other })
            for (size_t side = 0; side < 2; ++side)
                out += " | " + perStepCell(row.idleByCauseUs[side][size_t(cause)]);
        out += " |\n";
    }
    if (!steps.hostTime.empty()) {
        out += "\nHost code on the launching threads, own time per step (the " + std::to_string(kShownHostRows)
            + " largest; all in `host_time`):\n\n| Host code | Kind | A own | B own | A GPU idle | B GPU idle |\n| --- "
              "| "
              "--- | ---: | ---: | ---: | ---: |\n";
        for (size_t i = 0; i < std::min(kShownHostRows, steps.hostTime.size()); ++i) {
            const HostTimeRow& row = steps.hostTime[i];
            out += "| " + cell(row.code) + " | " + hostCodeKindKey(row.kind) + " | " + perStepCell(row.ownUsPerStep[0])
                + " | " + perStepCell(row.ownUsPerStep[1]) + " | " + perStepCell(row.idleUsPerStep[0]) + " | "
                + perStepCell(row.idleUsPerStep[1]) + " |\n";
        }
    }
    return out;
}

std::string stepTimeText(const FusionReport& report)
{
    const StepTimeReport& steps = report.stepTime;
    if (steps.rows.empty())
        return {};
    std::string out = "Step time (per step, median; idle by cause, mean):\n";
    for (const StepTimeRow& row : steps.rows) {
        const auto busy = [&row](size_t side) {
            return "busy " + perStepCell(row.busyUs[side])
                + (row.notRecordedUs[side] > 0 ? ", " + perStepCell(row.notRecordedUs[side]) + " of it not recorded"
                                               : std::string());
        };
        out += "  " + row.phase + ": A " + stepsText(row.steps[0]) + " of " + formatDuration(row.timeUs[0].median)
            + " (" + busy(0) + "), B " + stepsText(row.steps[1]) + " of " + formatDuration(row.timeUs[1].median) + " ("
            + busy(1) + ")\n";
        for (size_t side = 0; side < 2; ++side) {
            std::string causes;
            for (const IdleCause cause : { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::Other }) {
                const double us = row.idleByCauseUs[side][size_t(cause)];
                if (us >= 0.05)
                    causes
                        += (causes.empty() ? "" : ", ") + std::string(idleCauseKey(cause)) + " " + formatDuration(us);
            }
            out += std::string("    ") + (side == 0 ? "A" : "B") + " idle " + perStepCell(row.idleUs[side])
                + (causes.empty() ? "" : ": " + causes) + "\n";
        }
    }
    return out;
}

} // namespace fusiondiff
