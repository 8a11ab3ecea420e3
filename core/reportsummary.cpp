#include "fusionreport.h"
#include "reportnotes.h"
#include "reportwriters.h"
#include "textformat.h"

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

std::string padLeft(const std::string& text, size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string count(uint64_t value)
{
    return withThousands(static_cast<int64_t>(value));
}

std::string number(double value, int decimals)
{
    return std::isinf(value) ? "inf" : fixed(value, decimals);
}

void line(std::string& out, const std::string& name, const std::string& a, const std::string& b)
{
    out += "  " + pad(name, 22) + pad(a, 44) + " " + b + "\n";
}

} // namespace

std::string reportSummary(const FusionReport& report)
{
    const TraceSummary& a = report.traces[0];
    const TraceSummary& b = report.traces[1];
    std::string out = "FusionDiff " + report.toolVersion + " - classifier " + report.classifier.name + " ("
        + report.classifier.source + ")\n\n";
    line(out, "", "A (trace1)", "B (trace2)");
    line(out, "label", a.label, b.label);
    line(out, "platform / GPU", std::string(platformName(a.platform)) + " / " + a.gpuName,
        std::string(platformName(b.platform)) + " / " + b.gpuName);
    line(out, "kernels", count(a.kernels), count(b.kernels));
    line(out, "GPU kernel time", formatDuration(a.kernelTimeUs), formatDuration(b.kernelTimeUs));
    line(out, "correlation groups", count(a.correlationGroups), count(b.correlationGroups));
    line(out, "  with " + std::to_string(report.options.minGroupSize) + "+ kernels", count(a.largeGroups),
        count(b.largeGroups));
    line(out, "matched group pairs", count(report.groupPairs.size()), "");

    out += "\nWhere to look first:\n";
    for (const std::string& note : reportNotes(report))
        out += "  - " + note + "\n";

    out += "\nKernel types:\n";
    out += "  " + pad("type", 20) + padLeft("A kernels", 11) + padLeft("B kernels", 11) + padLeft("A/B", 8)
        + padLeft("A time", 11) + padLeft("B time", 11) + "\n";
    for (const TypeCount& counts : report.globalCounts) {
        out += "  " + pad(report.typeName(counts.type), 20) + padLeft(count(counts.count[0]), 11)
            + padLeft(count(counts.count[1]), 11) + padLeft(number(counts.ratio(), 2), 8)
            + padLeft(formatDuration(counts.timeUs[0]), 11) + padLeft(formatDuration(counts.timeUs[1]), 11) + "\n";
    }

    out += "\nFusion opportunities (" + std::to_string(report.opportunities.size()) + "):\n";
    for (const FusionOpportunity& o : report.opportunities) {
        out += "  - " + report.typeName(o.kernelType) + ": " + count(o.total[0]) + " vs " + count(o.total[1])
            + " kernels (ratio " + number(o.ratio, 1) + "), fused by " + report.sideName(o.fusedBy) + "; time "
            + number(o.timeMs[0], 3) + " ms vs " + number(o.timeMs[1], 3) + " ms ["
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
