#include "report/reportefficiency.h"

#include "model/fusionreport.h"
#include "report/jsonwriter.h"
#include "report/tablejson.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

CellValue number(double value)
{
    if (value < 0)
        return std::monostate {};
    return value;
}

CellValue text(const std::string& value)
{
    if (value.empty())
        return std::monostate {};
    return value;
}

// "compute", "memory", or both where the two GPUs' ridges put the row on different sides.
std::string boundOf(const EfficiencyRow& row)
{
    const std::string& a = row.sides[0].bound;
    const std::string& b = row.sides[1].bound;
    if (a.empty() || b.empty() || a == b)
        return a.empty() ? b : a;
    return a + " on A, " + b + " on B";
}

std::string sideKey(size_t side, const char* name)
{
    return std::string(side == 0 ? "trace1_" : "trace2_") + name;
}

std::string sideHeader(size_t side, const char* name)
{
    return std::string(side == 0 ? "A " : "B ") + name;
}

std::string peakSharePercent(double share)
{
    return fixed(share * 100, 0) + "%";
}

} // namespace

ReportTable efficiencyTable(const FusionReport& report)
{
    const auto at = [&report](size_t row) -> const EfficiencyRow& { return report.efficiency.rows[row]; };
    ReportTable table { .id = ReportTableId::Efficiency, .rows = report.efficiency.rows.size(), .columns = {} };
    table.columns.push_back({ .key = "op", .header = "Operator", .value = [at](size_t row) { return at(row).op; } });
    table.columns.push_back(
        { .key = "shape", .header = "Shape", .value = [at](size_t row) { return text(at(row).shape); } });
    table.columns.push_back(
        { .key = "dtype", .header = "Type", .value = [at](size_t row) { return text(at(row).dtype); } });
    table.columns.push_back({ .key = "family",
        .header = "Family",
        .toolTip = "GEMM, attention, convolution (FLOPs and bytes), memory (bytes: normalisation, elementwise, "
                   "reductions)",
        .value = [at](size_t row) { return text(at(row).family); } });
    table.columns.push_back({ .key = "flops",
        .header = "FLOPs",
        .toolTip = "Floating-point operations per call, from the recorded shapes",
        .unit = Unit::Decimal,
        .decimals = 0,
        .value = [at](size_t row) { return number(at(row).flops); } });
    table.columns.push_back({ .key = "bytes",
        .header = "Bytes",
        .toolTip = "Bytes moved per call at least: each input read once, each output written once",
        .unit = Unit::Decimal,
        .decimals = 0,
        .value = [at](size_t row) { return number(at(row).bytes); } });
    table.columns.push_back({ .key = "work_note", .header = "Why no FLOPs", .value = [at](size_t row) {
                                 return text(at(row).workBlank);
                             } });
    for (size_t side = 0; side < 2; ++side) {
        const auto of = [at, side](size_t row) -> const EfficiencySide& { return at(row).sides[side]; };
        table.columns.push_back({ .key = sideKey(side, "calls"),
            .header = sideHeader(side, "calls"),
            .unit = Unit::Count,
            .largestFirst = true,
            .value = [of](size_t row) { return of(row).calls; } });
        table.columns.push_back({ .key = sideKey(side, "median_us"),
            .header = sideHeader(side, "median"),
            .toolTip = "The median call's GPU time: all the kernels the call launched",
            .unit = Unit::Microseconds,
            .largestFirst = true,
            .value = [of](size_t row) { return number(of(row).medianUs); } });
        table.columns.push_back({ .key = sideKey(side, "tflops"),
            .header = sideHeader(side, "TFLOPS"),
            .unit = Unit::Decimal,
            .decimals = 1,
            .value = [of](size_t row) { return number(of(row).tflops); } });
        table.columns.push_back({ .key = sideKey(side, "tbps"),
            .header = sideHeader(side, "TB/s"),
            .unit = Unit::Decimal,
            .decimals = 2,
            .value = [of](size_t row) { return number(of(row).tbps); } });
        table.columns.push_back({ .key = sideKey(side, "peak_tflops"),
            .header = sideHeader(side, "peak TFLOPS"),
            .toolTip = "The GPU's dense matrix peak for the row's data type (the peaks file)",
            .unit = Unit::Decimal,
            .decimals = 1,
            .value = [of](size_t row) { return number(of(row).peakTflops); } });
        table.columns.push_back({ .key = sideKey(side, "peak_tbps"),
            .header = sideHeader(side, "peak TB/s"),
            .unit = Unit::Decimal,
            .decimals = 2,
            .value = [of](size_t row) { return number(of(row).peakTbps); } });
        table.columns.push_back({ .key = sideKey(side, "peak_share"),
            .header = sideHeader(side, "of peak"),
            .toolTip = "Achieved against the roof that binds at this intensity: compute (TFLOPS) or memory (TB/s)",
            .unit = Unit::Decimal,
            .decimals = 3,
            .value = [of](size_t row) { return number(of(row).peakShare); } });
        table.columns.push_back({ .key = sideKey(side, "note"),
            .header = sideHeader(side, "note"),
            .toolTip = "Why this side's cells are blank",
            .value = [of](size_t row) { return text(of(row).blank); } });
    }
    table.columns.push_back({ .key = "bound",
        .header = "Bound",
        .toolTip = "The roof that binds at the row's intensity (FLOPs per byte) on each GPU",
        .value = [at](size_t row) { return text(boundOf(at(row))); } });
    table.columns.push_back({ .key = "stake_us",
        .header = "At stake",
        .toolTip = "The calls both run × (A's median − B's median); one side's calls × its median where only it "
                   "runs the shape",
        .unit = Unit::SignedMicroseconds,
        .largestFirst = true,
        .value = [at](size_t row) { return at(row).stakeUs; },
        .sortKey = [at](size_t row) { return std::fabs(at(row).stakeUs); } });
    return table;
}

void writeEfficiencyJson(JsonWriter& json, const FusionReport& report)
{
    const EfficiencyReport& efficiency = report.efficiency;
    json.beginObject();
    json.field("peaks_definition", efficiency.peaksDefinition);
    json.field("peaks_origin", efficiency.peaksOrigin);
    json.key("gpus");
    json.beginArray();
    for (size_t side = 0; side < 2; ++side) {
        json.beginObject();
        json.field("side", side == 0 ? "trace1" : "trace2");
        json.key("gpu");
        if (efficiency.gpus[side].gpu.empty())
            json.null();
        else
            json.value(efficiency.gpus[side].gpu);
        json.field("detected", efficiency.gpus[side].how);
        json.field("source", efficiency.gpus[side].source);
        json.field("kernel_us", efficiency.kernelUs[side]);
        json.field("modelled_us", efficiency.modelledUs[side]);
        json.endObject();
    }
    json.endArray();
    json.key("rows");
    writeTableJson(json, efficiencyTable(report));
    json.endObject();
}

std::string efficiencyMarkdown(const FusionReport& report, std::string (*cell)(std::string_view))
{
    const EfficiencyReport& efficiency = report.efficiency;
    std::string out = "\n## Kernel speed against each GPU's peaks\n\n";
    out += "Peaks: " + cell(efficiency.peaksDefinition) + " (" + cell(efficiency.peaksOrigin) + ").\n\n";
    for (size_t side = 0; side < 2; ++side) {
        const EfficiencyGpu& gpu = efficiency.gpus[side];
        const double kernelUs = efficiency.kernelUs[side];
        out += std::string("- ") + (side == 0 ? "A" : "B") + ": "
            + (gpu.gpu.empty() ? "no peaks: " + cell(gpu.how) : cell(gpu.gpu) + ", " + cell(gpu.how)) + "; "
            + (kernelUs > 0 ? peakSharePercent(efficiency.modelledUs[side] / kernelUs) : std::string("0%"))
            + " of the kernel time is in calls with a FLOPs or bytes model.\n";
    }
    if (efficiency.modelledUs[0] < efficiency.kernelUs[0] / 2 || efficiency.modelledUs[1] < efficiency.kernelUs[1] / 2)
        out += "\nThe rest ran under no operator with recorded shapes (kernels replayed by CUDA/HIP graphs, Triton "
               "kernels launched from Python) or under operators without a model; the table `efficiency` gives the "
               "reason per operator.\n";
    std::vector<const EfficiencyRow*> rows;
    for (const EfficiencyRow& row : efficiency.rows) {
        if (row.workBlank.empty() && rows.size() < 15)
            rows.push_back(&row);
    }
    if (rows.empty()) {
        out += "\nNo operator with shapes ran kernels: the table `efficiency` says why per operator.\n";
        return out;
    }
    out += "\n| Operator | Shape | Type | A median | A of peak | B median | B of peak | Bound | At stake |\n"
           "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: |\n";
    for (const EfficiencyRow* row : rows) {
        const auto median = [](const EfficiencySide& side) {
            return side.medianUs < 0 ? std::string("—") : formatDuration(side.medianUs);
        };
        const auto share = [](const EfficiencySide& side) {
            return side.peakShare < 0 ? std::string("—") : peakSharePercent(side.peakShare);
        };
        out += "| " + cell(row->op) + " | " + cell(row->shape) + " | " + cell(row->dtype) + " | "
            + median(row->sides[0]) + " | " + share(row->sides[0]) + " | " + median(row->sides[1]) + " | "
            + share(row->sides[1]) + " | " + cell(boundOf(*row)) + " | " + (row->stakeUs < 0 ? "-" : "+")
            + formatDuration(std::fabs(row->stakeUs)) + " |\n";
    }
    return out;
}

} // namespace fusiondiff
