#include "model/fusionreport.h"
#include "report/collectiveopportunity.h"
#include "report/referencecaveat.h"
#include "report/reportjob.h"
#include "report/reportnotes.h"
#include "report/reportsteptime.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

std::string pad(std::string text, size_t width)
{
    // Pads by characters, not bytes, so that UTF-8 names line up.
    size_t characters = 0;
    for (const char c : text)
        characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (characters < width)
        text.append(width - characters, ' ');
    return text;
}

std::string summaryNumber(double value, int decimals)
{
    return std::isinf(value) ? "inf" : fixed(value, decimals);
}

void line(std::string& out, const std::string& name, const std::string& a, const std::string& b)
{
    out += "  " + pad(name, 22) + padLeft(a, 12) + padLeft(b, 14) + "\n";
}

} // namespace

std::string reportSummary(const FusionReport& report)
{
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    std::string out = "FusionDiff " + report.toolVersion + " - classifier " + report.classifier.name + " ("
        + report.classifier.source + ")\n\n";
    out += "  A (trace1): " + a.label + ", " + platformName(a.platform) + "\n";
    out += "  B (trace2): " + b.label + ", " + platformName(b.platform) + "\n\n";
    if (const std::string job = jobSummaryText(report); !job.empty())
        out += job + "\n";
    out += timeGapText(report) + "\n";
    if (const std::string steps = stepTimeText(report); !steps.empty())
        out += steps + "\n";
    line(out, "", "A", "B");
    line(out, "kernels", countWithThousands(a.kernels), countWithThousands(b.kernels));
    // A trace that holds only part of its GPU work: these are the kernels it records (the time gap counts the rest).
    const bool partlyRecorded
        = report.graphComparison.unrecordedUs[0] > 0 || report.graphComparison.unrecordedUs[1] > 0;
    line(out, partlyRecorded ? "recorded kernel time" : "GPU kernel time", formatDuration(a.kernelTimeUs),
        formatDuration(b.kernelTimeUs));
    line(out, "correlation groups", countWithThousands(a.correlationGroups), countWithThousands(b.correlationGroups));
    line(out, "  with " + std::to_string(report.options.minGroupSize) + "+ kernels", countWithThousands(a.largeGroups),
        countWithThousands(b.largeGroups));
    line(out, "matched group pairs", countWithThousands(report.groupPairs.size()),
        countWithThousands(report.groupPairs.size()));
    line(out, "operations compared", countWithThousands(report.opAlignment.matched),
        countWithThousands(report.opAlignment.matched));
    const GraphComparison& graphs = report.graphComparison;
    if (graphs.launches[0] + graphs.launches[1] > 0) {
        line(out, "graph launches", countWithThousands(graphs.launches[0]), countWithThousands(graphs.launches[1]));
        line(out, "  kinds", countWithThousands(graphs.kinds[0].size()), countWithThousands(graphs.kinds[1].size()));
        line(out, "  matched kind pairs", countWithThousands(graphs.pairs.size()),
            countWithThousands(graphs.pairs.size()));
    }
    out += "\nWhere to look first:\n";
    const std::vector<LookFirst> first = whereToLookFirst(report);
    if (first.empty())
        out += "  " + nothingStandsOut(report) + "\n";
    for (size_t i = 0; i < first.size(); ++i) {
        if (first[i].againstGap && (i == 0 || !first[i - 1].againstGap))
            out += "  " + againstGapHeading(report) + "\n";
        out += "  " + std::to_string(i + 1) + ". " + first[i].headline + "\n";
        for (const std::string& detail : first[i].details)
            out += "     " + detail + "\n";
    }

    out += "\nNotes:\n";
    for (const std::string& note : reportNotes(report))
        out += "  - " + note + "\n";

    out += "\nKernel types:\n";
    out += "  " + pad("type", 20) + padLeft("A kernels", 11) + padLeft("B kernels", 11) + padLeft("A/B", 8)
        + padLeft("A time", 11) + padLeft("B time", 11) + "\n";
    for (const TypeCount& counts : report.globalCounts) {
        out += "  " + pad(report.typeName(counts.type), 20) + padLeft(countWithThousands(counts.count[0]), 11)
            + padLeft(countWithThousands(counts.count[1]), 11) + padLeft(summaryNumber(counts.ratio(), 2), 8)
            + padLeft(formatDuration(counts.timeUs[0]), 11) + padLeft(formatDuration(counts.timeUs[1]), 11) + "\n";
    }

    if (!report.extraKernels.empty()) {
        out += "\nKernels one side runs in addition, by type (over the findings above):\n";
        for (const ExtraKernels& extra : report.extraKernels) {
            out += "  " + pad(report.typeName(extra.type), 20) + "A +" + countWithThousands(extra.kernels[0]) + " ("
                + formatDuration(extra.timeUs[0]) + "), B +" + countWithThousands(extra.kernels[1]) + " ("
                + formatDuration(extra.timeUs[1]) + ")\n";
        }
    }

    const std::string caveat = referenceAnalysisCaveat(report);
    out += "\nReference analysis (the seed's" + (caveat.empty() ? "" : "; " + caveat) + "):\n";
    out += "\nFusion opportunities (" + std::to_string(report.opportunities.size()) + "):\n";
    for (const FusionOpportunity& o : report.opportunities) {
        out += "  - " + report.typeName(o.kernelType) + ": " + countWithThousands(o.total[0]) + " vs "
            + countWithThousands(o.total[1]) + " kernels (ratio " + summaryNumber(o.ratio, 1) + "), "
            + (isCollectiveOpportunity(report, o) ? kCollectiveNotFusion : "fused by " + report.sideName(o.fusedBy))
            + "; " + opportunityTimeText(report, o) + " ["
            + (o.source == OpportunitySource::MatchedGroups ? "matched groups" : "global counts") + "]\n";
    }
    out += "\nFusion mappings (" + std::to_string(report.mappings.size()) + "):\n";
    for (const FusionMapping& m : report.mappings)
        out += "  - " + m.evidence + " [" + mappingKindKey(m.kind) + ", confidence " + fixed(m.patternConfidence, 2)
            + "]\n";
    out += "\nFor every table: --json FILE, --csv DIR or --markdown FILE.\n";
    return out;
}

} // namespace fusiondiff
