#include "report/reportjob.h"

#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "report/jsonwriter.h"
#include "report/tablejson.h"
#include "util/phaseorder.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

const char* kSideKeys[2] = { "trace1", "trace2" };
const char* kSideNames[2] = { "A", "B" };

const JobReport& jobOf(const FusionReport& report)
{
    static const JobReport kNone;
    return report.job ? *report.job : kNone;
}

CellValue rankCell(int32_t rank)
{
    return rank < 0 ? CellValue {} : CellValue { int64_t(rank) };
}

// "; per phase, the median job step on A and B: phase 1 12.1 ms and 12.1 ms, phase 2 4.0 ms and
// 5.2 ms (+30.0%)"; "" with one phase or none.
std::string jobPhaseWords(const JobReport& job)
{
    if (job.phases.size() < 2)
        return {};
    std::string out = "; per phase, the median job step on A and B: ";
    for (size_t p = 0; p < job.phases.size(); ++p) {
        const JobPhaseRow& phase = job.phases[p];
        out += (p == 0 ? "" : ", ") + phase.phase + " " + formatDuration(phase.medianUs[0]) + " and "
            + formatDuration(phase.medianUs[1]);
        if (phase.medianUs[0] > 0 && phase.medianUs[1] != phase.medianUs[0]) {
            const double change = 100 * (phase.medianUs[1] - phase.medianUs[0]) / phase.medianUs[0];
            out += " (" + std::string(change >= 0 ? "+" : "") + fixed(change, 1) + "%)";
        }
    }
    return out;
}

} // namespace

ReportTable rankTimesTable(const FusionReport& report)
{
    const JobReport& job = jobOf(report);
    const auto at = [&job](size_t row) -> const RankTimeRow& { return job.rankTimes[row]; };
    ReportTable table { .id = ReportTableId::RankTimes, .rows = job.rankTimes.size(), .columns = {} };
    for (size_t s = 0; s < 2; ++s)
        table.columns.push_back({ .key = std::string(kSideKeys[s]) + "_rank",
            .header = std::string(kSideNames[s]) + " rank",
            .unit = Unit::Integer,
            .value = [=](size_t row) { return rankCell(at(row).rank[s]); } });
    const auto perSide = [&](const std::string& key, const std::string& header, auto value) {
        for (size_t s = 0; s < 2; ++s)
            table.columns.push_back({ .key = std::string(kSideKeys[s]) + "_" + key,
                .header = std::string(kSideNames[s]) + " " + header,
                .unit = Unit::Microseconds,
                .largestFirst = true,
                .value = [=](size_t row) -> CellValue {
                    if (at(row).rank[s] < 0)
                        return {};
                    return value(at(row), s);
                } });
    };
    perSide("step_median_us", "step", [](const RankTimeRow& r, size_t s) { return r.stepMedianUs[s]; });
    perSide("busy_us", "busy", [](const RankTimeRow& r, size_t s) { return r.busyUs[s]; });
    for (size_t c = 0; c < kIdleCauses; ++c)
        perSide(std::string("idle_") + idleCauseKey(IdleCause(c)) + "_us",
            std::string("idle ") + idleCauseKey(IdleCause(c)),
            [c](const RankTimeRow& r, size_t s) { return r.idleByCauseUs[s][c]; });
    perSide(
        "collective_wait_us", "collective wait", [](const RankTimeRow& r, size_t s) { return r.collectiveWaitUs[s]; });
    perSide("collective_transfer_us", "collective transfer",
        [](const RankTimeRow& r, size_t s) { return r.collectiveTransferUs[s]; });
    for (size_t s = 0; s < 2; ++s)
        table.columns.push_back({ .key = std::string(kSideKeys[s]) + "_straggler_steps",
            .header = std::string(kSideNames[s]) + " straggler steps",
            .toolTip = "Steps in which the job waits for this rank longest (job_steps names it)",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).stepsLastToArrive[s]; } });
    return table;
}

ReportTable rankCollectivesTable(const FusionReport& report)
{
    const JobReport& job = jobOf(report);
    const auto at = [&job](size_t row) -> const RankCollectiveRow& { return job.collectives[row]; };
    ReportTable table { .id = ReportTableId::RankCollectives, .rows = job.collectives.size(), .columns = {} };
    table.columns.push_back(
        { .key = "collective", .header = "Collective", .value = [=](size_t row) { return at(row).collective; } });
    table.columns.push_back({ .key = "group", .header = "Process group", .value = [=](size_t row) {
                                 return at(row).group.empty() ? std::string("world") : at(row).group;
                             } });
    table.columns.push_back(
        { .key = "message_bytes", .header = "Bytes", .unit = Unit::Integer, .value = [=](size_t row) -> CellValue {
             return at(row).messageBytes < 0 ? CellValue {} : CellValue { at(row).messageBytes };
         } });
    for (size_t s = 0; s < 2; ++s) {
        const std::string key = kSideKeys[s];
        const std::string name = kSideNames[s];
        table.columns.push_back(
            { .key = key + "_calls", .header = name + " calls", .unit = Unit::Count, .value = [=](size_t row) {
                 return at(row).calls[s];
             } });
        table.columns.push_back({ .key = key + "_wait_us",
            .header = name + " wait",
            .toolTip = "Every rank's wait (the last arrival minus its own), over the calls",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).waitUs[s]; } });
        table.columns.push_back({ .key = key + "_transfer_us",
            .header = name + " transfer",
            .toolTip = "Every rank's kernel time after the last arrival, over the calls",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).transferUs[s]; } });
        table.columns.push_back({ .key = key + "_last_rank",
            .header = name + " last to arrive",
            .toolTip = "The rank that arrives last most often",
            .unit = Unit::Integer,
            .value = [=](size_t row) { return rankCell(at(row).lastRank[s]); } });
        table.columns.push_back({ .key = key + "_last_rank_calls",
            .header = name + " times last",
            .unit = Unit::Count,
            .value = [=](size_t row) { return at(row).lastRankCalls[s]; } });
    }
    return table;
}

ReportTable jobStepsTable(const FusionReport& report)
{
    const JobReport& job = jobOf(report);
    const auto at = [&job](size_t row) -> const JobStepRow& { return job.steps[row]; };
    ReportTable table { .id = ReportTableId::JobSteps, .rows = job.steps.size(), .columns = {} };
    table.columns.push_back({ .key = "step", .header = "Step", .unit = Unit::Count, .value = [=](size_t row) {
                                 return uint64_t(at(row).step) + 1;
                             } });
    table.columns.push_back({ .key = "phase",
        .header = "Phase",
        .toolTip = "The kind of step, as the iteration finder sorts them; empty: in no phase (the warm-up)",
        .value
        = [=](size_t row) -> CellValue { return at(row).phase.empty() ? CellValue {} : CellValue { at(row).phase }; },
        .sortKey = [=](size_t row) -> CellValue { return phaseOrder(at(row).phase); } });
    table.columns.push_back({ .key = "trace2_step",
        .header = "B step",
        .toolTip = "B's step compared with A's: the same number unless the phases order steps differently",
        .unit = Unit::Count,
        .value = [=](size_t row) { return uint64_t(at(row).trace2Step) + 1; } });
    for (size_t s = 0; s < 2; ++s) {
        const std::string key = kSideKeys[s];
        const std::string name = kSideNames[s];
        table.columns.push_back({ .key = key + "_time_us",
            .header = name + " job step",
            .toolTip = "From the first rank's start to the last rank's end, on aligned clocks",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).timeUs[s]; } });
        table.columns.push_back({ .key = key + "_pace_rank",
            .header = name + " pace rank",
            .toolTip = "The rank whose step ends last",
            .unit = Unit::Integer,
            .value = [=](size_t row) { return rankCell(at(row).paceRank[s]); } });
        table.columns.push_back({ .key = key + "_straggler",
            .header = name + " straggler",
            .toolTip = "The rank the job waits for longest: the largest straggler delay",
            .unit = Unit::Integer,
            .value = [=](size_t row) { return rankCell(at(row).straggler[s]); } });
        table.columns.push_back({ .key = key + "_straggler_delay_us",
            .header = name + " straggler delay",
            .toolTip = "Per call it arrives last at: its arrival minus the next latest rank's, summed",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [=](size_t row) { return at(row).stragglerDelayUs[s]; } });
    }
    for (size_t s = 0; s < 2; ++s) {
        table.columns.push_back({ .key = std::string(kSideKeys[s]) + "_profiler_step",
            .header = std::string(kSideNames[s]) + " ProfilerStep",
            .toolTip = "N of the ProfilerStep#N every rank recorded the step as (the ranks' steps are aligned on it); "
                       "empty for steps without numbers",
            .unit = Unit::Integer,
            .value = [&job, at, s](size_t row) -> CellValue {
                const uint32_t own = s == 0 ? at(row).step : at(row).trace2Step;
                const std::vector<JobStep>& steps = job.sides[s].steps;
                if (own >= steps.size() || steps[own].number < 0)
                    return {};
                return steps[own].number;
            } });
    }
    return table;
}

void writeJobJson(JsonWriter& json, const FusionReport& report)
{
    const JobReport& job = jobOf(report);
    json.beginObject();
    json.field("pairing", job.pairing);
    json.key("detailed_pair");
    json.beginObject();
    json.field("trace1_rank", int64_t(job.detailedPair[0]));
    json.field("trace2_rank", int64_t(job.detailedPair[1]));
    json.endObject();
    for (size_t s = 0; s < 2; ++s) {
        const JobSide& side = job.sides[s];
        json.key(kSideKeys[s]);
        json.beginObject();
        json.field("world_size", int64_t(side.worldSize));
        json.field("clocks_aligned", side.aligned);
        json.field("time_us", job.timeUs[s]);
        json.key("partial_steps");
        json.beginArray();
        for (const std::string& step : side.partialSteps)
            json.value(step);
        json.endArray();
        json.key("ranks");
        json.beginArray();
        for (size_t r = 0; r < side.ranks.size(); ++r) {
            json.beginObject();
            json.field("rank", int64_t(side.ranks[r].rank));
            json.field("file", side.ranks[r].path);
            json.field("rank_from", side.ranks[r].rankSource);
            json.field("clock_offset_us", r < side.clockOffsetUs.size() ? side.clockOffsetUs[r] : 0.0);
            json.endObject();
        }
        json.endArray();
        json.key("parts");
        json.beginObject();
        for (size_t p = 0; p < job.partKeys.size(); ++p)
            json.field(job.partKeys[p], job.partsUs[s][p]);
        json.endObject();
        json.endObject();
    }
    json.key("stragglers");
    json.beginArray();
    for (const Straggler& straggler : job.stragglers) {
        json.beginObject();
        json.field("rank", int64_t(straggler.rank));
        json.field("slower_trace", sideKey(straggler.slowerSide));
        json.field("stake_us", straggler.stakeUs);
        json.field("trace1_delay_us", straggler.delayUs[0]);
        json.field("trace2_delay_us", straggler.delayUs[1]);
        json.field("steps", straggler.steps);
        json.field("cause", straggler.cause);
        json.field("cause_against_median_rank", straggler.causeAgainstMedian);
        json.endObject();
    }
    json.endArray();
    json.key("phases");
    json.beginArray();
    for (const JobPhaseRow& phase : job.phases) {
        json.beginObject();
        json.field("phase", phase.phase);
        json.field("steps", phase.steps);
        json.field("trace1_median_us", phase.medianUs[0]);
        json.field("trace2_median_us", phase.medianUs[1]);
        json.field("trace1_total_us", phase.totalUs[0]);
        json.field("trace2_total_us", phase.totalUs[1]);
        json.endObject();
    }
    json.endArray();
    json.key("notes");
    json.beginArray();
    for (const std::string& note : job.notes)
        json.value(note);
    json.endArray();
    json.key("job_steps");
    writeTableJson(json, jobStepsTable(report));
    json.key("rank_times");
    writeTableJson(json, rankTimesTable(report));
    json.key("rank_collectives");
    writeTableJson(json, rankCollectivesTable(report));
    json.endObject();
}

std::string jobVerdict(const FusionReport& report)
{
    if (!report.job)
        return {};
    const JobReport& job = *report.job;
    const double gap = job.timeUs[1] - job.timeUs[0];
    const std::string over = " over " + countedNoun(job.steps.size(), "compared step", "compared steps");
    if (gap == 0)
        return "The jobs take the same time" + over;
    const size_t slower = gap > 0 ? 1 : 0;
    const double faster = job.timeUs[1 - slower];
    std::string text = std::string(slower == 0 ? "A" : "B") + "'s job is slower by " + formatDuration(std::abs(gap))
        + (faster > 0 ? " (" + fixed(100 * std::abs(gap) / faster, 1) + "%)" : std::string()) + over;
    // The part that grew most on the slower side.
    size_t largest = job.partKeys.size();
    double largestGrowth = 0;
    for (size_t p = 0; p < job.partKeys.size(); ++p) {
        const double growth = job.partsUs[slower][p] - job.partsUs[1 - slower][p];
        if (growth > largestGrowth) {
            largestGrowth = growth;
            largest = p;
        }
    }
    if (largest < job.partKeys.size())
        text += "; its largest part: " + job.partKeys[largest] + " +" + formatDuration(largestGrowth);
    if (!job.stragglers.empty() && job.stragglers.front().slowerSide == (slower == 0 ? Side::Trace1 : Side::Trace2)) {
        const Straggler& first = job.stragglers.front();
        text += "; the first straggler: rank " + std::to_string(first.rank) + " of " + (slower == 0 ? "A" : "B") + " ("
            + formatDuration(first.stakeUs) + " at stake)";
    }
    return text + jobPhaseWords(job);
}

std::string jobSummaryText(const FusionReport& report)
{
    if (!report.job)
        return {};
    const JobReport& job = *report.job;
    std::string out = "Jobs: A " + std::to_string(job.sides[0].worldSize) + " ranks, B "
        + std::to_string(job.sides[1].worldSize) + " ranks; " + job.pairing + "\n";
    out += "  job time over " + countedNoun(job.steps.size(), "step", "steps") + ": A " + formatDuration(job.timeUs[0])
        + ", B " + formatDuration(job.timeUs[1]) + "\n";
    out += "  " + jobVerdict(report) + "\n";
    if (job.phases.size() > 1) {
        out += "       phase steps    A median    B median\n";
        for (const JobPhaseRow& phase : job.phases)
            out += "  " + padLeft(phase.phase, 10) + padLeft(std::to_string(phase.steps), 6)
                + padLeft(formatDuration(phase.medianUs[0]), 12) + padLeft(formatDuration(phase.medianUs[1]), 12)
                + "\n";
    }
    for (size_t p = 0; p < job.partKeys.size(); ++p) {
        const double delta = job.partsUs[1][p] - job.partsUs[0][p];
        out += "    " + padLeft(job.partKeys[p], 20) + padLeft(formatDuration(job.partsUs[0][p]), 12)
            + padLeft(formatDuration(job.partsUs[1][p]), 12)
            + padLeft((delta >= 0 ? "+" : "-") + formatDuration(std::abs(delta)), 12) + "\n";
    }
    out += "  rank  A wait      B wait      A transfer  B transfer\n";
    for (const RankTimeRow& row : job.rankTimes) {
        out += "  " + padLeft(std::to_string(std::max(row.rank[0], row.rank[1])), 4);
        for (const double us : { row.collectiveWaitUs[0], row.collectiveWaitUs[1], row.collectiveTransferUs[0],
                 row.collectiveTransferUs[1] })
            out += padLeft(formatDuration(us), 12);
        out += "\n";
    }
    out += "  detailed report below: A rank " + std::to_string(job.detailedPair[0]) + " against B rank "
        + std::to_string(job.detailedPair[1]) + "\n";
    for (const std::string& note : job.notes)
        out += "  note: " + note + "\n";
    return out;
}

std::string jobMarkdown(const FusionReport& report)
{
    if (!report.job)
        return {};
    const JobReport& job = *report.job;
    std::string out = "\n## Jobs\n\n";
    out += "A: " + std::to_string(job.sides[0].worldSize) + " ranks, B: " + std::to_string(job.sides[1].worldSize)
        + " ranks; " + job.pairing + ". The detailed report compares A rank " + std::to_string(job.detailedPair[0])
        + " with B rank " + std::to_string(job.detailedPair[1]) + ".\n\n";
    out += "| Part (pace rank) | A | B | B \xE2\x88\x92 A |\n| --- | ---: | ---: | ---: |\n";
    for (size_t p = 0; p < job.partKeys.size(); ++p)
        out += "| " + job.partKeys[p] + " | " + formatDuration(job.partsUs[0][p]) + " | "
            + formatDuration(job.partsUs[1][p]) + " | " + formatDuration(job.partsUs[1][p] - job.partsUs[0][p])
            + " |\n";
    out += "| job time | " + formatDuration(job.timeUs[0]) + " | " + formatDuration(job.timeUs[1]) + " | "
        + formatDuration(job.timeUs[1] - job.timeUs[0]) + " |\n\n";
    if (job.phases.size() > 1) {
        out += "| Phase | Steps | A median step | B median step |\n| --- | ---: | ---: | ---: |\n";
        for (const JobPhaseRow& phase : job.phases)
            out += "| " + phase.phase + " | " + std::to_string(phase.steps) + " | " + formatDuration(phase.medianUs[0])
                + " | " + formatDuration(phase.medianUs[1]) + " |\n";
        out += "\n";
    }
    out += "| Rank | A wait | B wait | A transfer | B transfer | A straggler steps | B straggler steps |\n"
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const RankTimeRow& row : job.rankTimes)
        out += "| " + std::to_string(std::max(row.rank[0], row.rank[1])) + " | "
            + formatDuration(row.collectiveWaitUs[0]) + " | " + formatDuration(row.collectiveWaitUs[1]) + " | "
            + formatDuration(row.collectiveTransferUs[0]) + " | " + formatDuration(row.collectiveTransferUs[1]) + " | "
            + std::to_string(row.stepsLastToArrive[0]) + " | " + std::to_string(row.stepsLastToArrive[1]) + " |\n";
    for (const std::string& note : job.notes)
        out += "\n- " + note;
    return out + "\n";
}

} // namespace fusiondiff
