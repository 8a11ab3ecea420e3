#include "model/fusionreport.h"
#include "report/collectiveopportunity.h"
#include "report/graphtables.h"
#include "report/layersmarkdown.h"
#include "report/referencecaveat.h"
#include "report/reportefficiency.h"
#include "report/reportjob.h"
#include "report/reportnotes.h"
#include "report/reportsteptime.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

constexpr size_t kTopKernels = 25;
constexpr size_t kTopMatchedKernels = 15;
constexpr size_t kMaxNameLength = 160;
// Two names a row: shorter, so that the table stays readable.
constexpr size_t kMaxMatchedNameLength = 100;

// `text` escaped for a table cell, shortened to `maxLength` characters.
std::string cell(std::string_view text, size_t maxLength)
{
    std::string out;
    size_t length = 0;
    for (const char c : text) {
        if (length == maxLength) {
            out += "…";
            break;
        }
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>')
            out.push_back('\\');
        out.push_back(c == '\n' || c == '\r' ? ' ' : c);
        // Count characters, not UTF-8 continuation bytes.
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++length;
    }
    return out;
}

std::string cell(std::string_view text)
{
    return cell(text, kMaxNameLength);
}

// `text` escaped whole: sentences (the verdict, a noise reason, an entry's title and details) are
// never cut, so that they read as in the JSON and CSV; only names in table cells are shortened.
std::string prose(std::string_view text)
{
    return cell(text, std::string_view::npos);
}

// A kernel name without a trailing parameter list ("void k<4, F>(int, F)" -> "void k<4, F>"): it
// repeats the template arguments; a parenthesis after a space ("Memcpy DtoD (Device -> Device)")
// is part of the name and stays.
std::string_view withoutParameters(std::string_view name)
{
    if (!name.ends_with(')'))
        return name;
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
        if (name[i] == ')')
            ++depth;
        else if (name[i] == '(' && --depth == 0)
            return i > 0 && name[i - 1] != ' ' ? name.substr(0, i) : name;
    }
    return name;
}

std::string markdownNumber(double value, int decimals)
{
    return std::isinf(value) ? "∞" : fixed(value, decimals);
}

void row(std::string& out, std::initializer_list<std::string> cells)
{
    out += "|";
    for (const std::string& text : cells)
        out += " " + text + " |";
    out += "\n";
}

void header(std::string& out, std::initializer_list<std::string> cells, std::string_view alignment)
{
    row(out, cells);
    out += "|";
    for (const char a : alignment)
        out += a == 'r' ? " ---: |" : " --- |";
    out += "\n";
}

// The two traces side by side.
void writeTraces(std::string& out, const FusionReport& report)
{
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    header(out, { "", "A (trace1)", "B (trace2)" }, "lll");
    row(out, { "Label", cell(a.label), cell(b.label) });
    row(out, { "Named in findings", cell(report.sideNames[0]), cell(report.sideNames[1]) });
    row(out, { "Platform", platformName(a.platform), platformName(b.platform) });
    row(out, { "GPU", cell(a.gpuName), cell(b.gpuName) });
    row(out, { "Kernels", countWithThousands(a.kernels), countWithThousands(b.kernels) });
    if (const std::array<double, 2> notRecorded = report.graphComparison.unrecordedUs;
        notRecorded[0] > 0 || notRecorded[1] > 0) {
        const auto recorded = [&notRecorded](const TraceSummary& trace, size_t side) {
            return formatDuration(trace.kernelTimeUs)
                + (notRecorded[side] > 0 ? " (and " + formatDuration(notRecorded[side]) + " not recorded)" : "");
        };
        row(out, { "Recorded kernel time", recorded(a, 0), recorded(b, 1) });
    } else {
        row(out, { "GPU kernel time", formatDuration(a.kernelTimeUs), formatDuration(b.kernelTimeUs) });
    }
    row(out,
        { "Distinct kernel names", countWithThousands(a.distinctKernelNames),
            countWithThousands(b.distinctKernelNames) });
    row(out,
        { "Correlation groups", countWithThousands(a.correlationGroups), countWithThousands(b.correlationGroups) });
    row(out,
        { "Groups with " + std::to_string(report.options.minGroupSize) + "+ kernels", countWithThousands(a.largeGroups),
            countWithThousands(b.largeGroups) });
    row(out,
        { "Matched group pairs", countWithThousands(report.groupPairs.size()),
            countWithThousands(report.groupPairs.size()) });
    out += "\n" + timeGapMarkdown(report, prose);
    out += stepTimeMarkdown(report, cell);
}

void writeWhereToLookFirst(std::string& out, const FusionReport& report)
{
    out += "\n## Where to look first\n\n";
    const std::vector<LookFirst> first = whereToLookFirst(report);
    if (first.empty())
        out += nothingStandsOut(report) + "\n";
    for (size_t i = 0; i < first.size(); ++i) {
        if (first[i].againstGap && (i == 0 || !first[i - 1].againstGap))
            out += "\n" + prose(againstGapHeading(report)) + "\n\n";
        out += std::to_string(i + 1) + ". " + prose(first[i].headline) + "\n";
        for (const std::string& detail : first[i].details)
            out += "   - " + prose(detail) + "\n";
    }
}

void writeNotes(std::string& out, const FusionReport& report)
{
    out += "\n## Notes\n\n";
    for (const std::string& note : reportNotes(report))
        out += "- " + note + "\n";
}

void writeOperationFindings(std::string& out, const FusionReport& report)
{
    out += "\n## Operations that run a different number of kernels\n\n";
    if (report.opFindings.empty()) {
        out += "None.\n";
        return;
    }
    // The layers column only where the traces were aligned layer by layer.
    const bool layers = std::any_of(
        report.opFindings.begin(), report.opFindings.end(), [](const OpFinding& f) { return !f.layers.empty(); });
    if (layers) {
        header(out,
            { "Operation", "Layers", "Fused by", "Calls", "A kernels", "B kernels", "A per call (median)",
                "B per call (median)", "Could save (slower side)" },
            "lllrrrrrr");
    } else {
        header(out,
            { "Operation", "Fused by", "Calls", "A kernels", "B kernels", "A per call (median)", "B per call (median)",
                "Could save (slower side)" },
            "llrrrrrr");
    }
    for (const OpFinding& f : report.opFindings) {
        const std::string fusedBy = cell(report.sideName(f.fusedSide));
        const std::string calls = countWithThousands(f.occurrences);
        const std::string kernelsA = countWithThousands(f.kernels[0].size());
        const std::string kernelsB = countWithThousands(f.kernels[1].size());
        const std::string timeA = formatDuration(f.timeUs[0].median);
        const std::string timeB = formatDuration(f.timeUs[1].median);
        const std::string saving = formatDuration(f.savingUs) + " (" + cell(report.sideName(f.slowerSide)) + ")";
        if (layers)
            row(out,
                { cell(f.op), f.layers.empty() ? "\xE2\x80\x94" : cell(f.layers), fusedBy, calls, kernelsA, kernelsB,
                    timeA, timeB, saving });
        else
            row(out, { cell(f.op), fusedBy, calls, kernelsA, kernelsB, timeA, timeB, saving });
    }
}

void writeLayers(std::string& out, const FusionReport& report)
{
    out += layersMarkdown(report, cell);
}

void writeGraphComparison(std::string& out, const FusionReport& report)
{
    out += graphComparisonMarkdown(report);
}

void writeCollectives(std::string& out, const FusionReport& report)
{
    if (!report.collectives.empty()) {
        out += "\n## Collectives\n\n";
        header(out,
            { "Collective", "A launches", "B launches", "A time", "B time", "A implementation", "B implementation" },
            "lrrrrll");
        for (const CollectiveComparison& c : report.collectives) {
            row(out,
                { c.collective, countWithThousands(c.count[0]), countWithThousands(c.count[1]),
                    formatDuration(c.timeUs[0]), formatDuration(c.timeUs[1]), cell(c.implementation[0]),
                    cell(c.implementation[1]) });
        }
    }
    out += collectiveCallsMarkdown(report, cell);
}

void writeEfficiency(std::string& out, const FusionReport& report)
{
    out += efficiencyMarkdown(report, cell);
}

void writeKernelTypes(std::string& out, const FusionReport& report)
{
    out += "\n## Kernel types\n\n";
    header(out, { "Type", "A kernels", "B kernels", "A/B", "A time", "B time", "A - B time" }, "lrrrrrr");
    for (const TypeCount& counts : report.globalCounts) {
        row(out,
            { cell(report.typeName(counts.type)), countWithThousands(counts.count[0]),
                countWithThousands(counts.count[1]), markdownNumber(counts.ratio(), 2),
                formatDuration(counts.timeUs[0]), formatDuration(counts.timeUs[1]),
                formatDuration(counts.timeUs[0] - counts.timeUs[1]) });
    }
}

void writeOpportunities(std::string& out, const FusionReport& report)
{
    out += "\n## Fusion opportunities\n\n";
    if (const std::string caveat = referenceAnalysisCaveat(report); !caveat.empty()) {
        out += "The reference analysis (the seed's) is " + caveat + ".\n\n";
    }
    if (report.opportunities.empty()) {
        out += "None passed the thresholds.\n";
    } else {
        header(out,
            { "Type", "A kernels", "B kernels", "A per group", "B per group", "Ratio", "Fused by", "A ms", "B ms",
                "Groups affected", "Source" },
            "lrrrrrlrrrl");
        for (const FusionOpportunity& o : report.opportunities) {
            row(out,
                { cell(report.typeName(o.kernelType)), countWithThousands(o.total[0]), countWithThousands(o.total[1]),
                    markdownNumber(o.avgPerGroup[0], 2), markdownNumber(o.avgPerGroup[1], 2),
                    markdownNumber(o.ratio, 2),
                    cell(isCollectiveOpportunity(report, o) ? kCollectiveNotFusion : report.sideName(o.fusedBy)),
                    markdownNumber(o.timeMs[0], 3), markdownNumber(o.timeMs[1], 3),
                    countWithThousands(o.groupsAffected) + " / " + countWithThousands(o.totalGroups),
                    o.source == OpportunitySource::MatchedGroups ? "matched groups" : "global counts" });
        }
    }
}

void writeMappings(std::string& out, const FusionReport& report)
{
    out += "\n## Fusion mappings\n\n";
    if (const std::string caveat = referenceAnalysisCaveat(report); !caveat.empty()) {
        out += "The reference analysis (the seed's) is " + caveat + ".\n\n";
    }
    if (report.mappings.empty()) {
        out += "None passed the thresholds.\n";
    } else {
        header(out, { "Kind", "Evidence", "Fused by", "Pattern count", "Confidence", "Groups (A / B)" }, "llrrrl");
        for (const FusionMapping& m : report.mappings) {
            const std::string groups = m.correlationGroup1
                ? std::to_string(*m.correlationGroup1) + " / " + std::to_string(*m.correlationGroup2)
                : "";
            row(out,
                { mappingKindKey(m.kind), cell(m.evidence), cell(report.sideName(m.fusedSide)),
                    std::to_string(m.patternCount), markdownNumber(m.patternConfidence, 2), groups });
        }
    }
}

void writeTopKernels(std::string& out, const FusionReport& report)
{
    out += "\n## Top kernels by time\n\n";
    header(out, { "Kernel", "Type", "A count", "B count", "A time", "B time" }, "llrrrr");
    for (size_t i = 0; i < std::min(kTopKernels, report.kernels.size()); ++i) {
        const KernelNameRow& k = report.kernels[i];
        row(out,
            { cell(k.name), cell(report.typeName(k.type)), countWithThousands(k.count[0]),
                countWithThousands(k.count[1]), formatDuration(k.timeUs[0]), formatDuration(k.timeUs[1]) });
    }
    if (report.kernels.size() > kTopKernels)
        out += "\n" + std::to_string(report.kernels.size() - kTopKernels)
            + " more kernel names are in the JSON and CSV reports.\n";
}

// Which kernel of A does the work of which kernel of B, the pairs that differ most in time first.
void writeMatchedKernels(std::string& out, const FusionReport& report)
{
    if (report.matchedKernels.empty())
        return;
    out += "\n## Matched kernels\n\n";
    const size_t shown = std::min(kTopMatchedKernels, report.matchedKernels.size());
    out += "Which kernel of A does the work of which kernel of B: kernels at the same place in matched operations "
           "and graphs, of one kernel type, summed by their two names. ";
    if (shown < report.matchedKernels.size())
        out += "The " + std::to_string(shown) + " pairs of names (of "
            + countWithThousands(report.matchedKernels.size()) + ") whose totals differ most";
    else
        out += "Every pair of names, those whose totals differ most first";
    out += "; B \xE2\x88\x92 A is positive where B's kernels take longer. Names are shown without their parameter "
           "lists and cut at "
        + std::to_string(kMaxMatchedNameLength) + " characters.\n\n";
    header(out, { "A kernel", "B kernel", "Type", "Pairs", "A total", "B total", "B \xE2\x88\x92 A" }, "lllrrrr");
    for (size_t i = 0; i < shown; ++i) {
        const MatchedKernels& k = report.matchedKernels[i];
        row(out,
            { cell(withoutParameters(k.names[0]), kMaxMatchedNameLength),
                cell(withoutParameters(k.names[1]), kMaxMatchedNameLength), cell(report.typeName(k.types[0])),
                countWithThousands(k.pairs), formatDuration(k.timeUs[0]), formatDuration(k.timeUs[1]),
                signedDuration(k.differenceUs()) });
    }
    if (report.matchedKernels.size() > shown)
        out += "\n" + std::to_string(report.matchedKernels.size() - shown)
            + " more pairs of names are in the matched\\_kernels table of the JSON and CSV reports.\n";
}

} // namespace

std::string reportToMarkdown(const FusionReport& report)
{
    std::string out = "# FusionDiff report\n\n";
    out += "FusionDiff " + report.toolVersion + ", classifier `" + report.classifier.name + "` ("
        + report.classifier.source + "), minimum group size " + std::to_string(report.options.minGroupSize) + ".\n\n";

    for (const auto write : { writeTraces, writeWhereToLookFirst, writeNotes, writeOperationFindings, writeLayers,
             writeGraphComparison, writeCollectives, writeEfficiency, writeKernelTypes, writeMatchedKernels,
             writeOpportunities, writeMappings, writeTopKernels })
        write(out, report);
    return out + jobMarkdown(report);
}

} // namespace fusiondiff
