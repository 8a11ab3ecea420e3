#include "ops/efficiency/rooflinewords.h"

#include "model/fusionreport.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <cmath>

namespace fusiondiff {

namespace {

std::string percent(double share)
{
    return fixed(share * 100, share < 0.1 ? 1 : 0) + "%";
}

std::string roofText(const EfficiencyRow& row, const EfficiencySide& side)
{
    return side.bound == "compute" ? "of its " + row.dtype + " peak" : "of its memory bandwidth";
}

std::string rowName(const EfficiencyRow& row)
{
    return row.op + " " + row.shape + (row.dtype.empty() ? "" : " (" + row.dtype + ")");
}

std::string verdict(const EfficiencyRow& row, size_t slow)
{
    const double slowShare = row.sides[slow].peakShare;
    const double fastShare = row.sides[1 - slow].peakShare;
    if (slowShare < 0.8 * fastShare)
        return "the kernel, not the hardware: the slower side reaches a smaller share of its own roof";
    if (fastShare < 0.8 * slowShare)
        return "the hardware more than the kernel: the slower side is nearer its roof, which is lower";
    return "both reach a similar share of their roofs: the gap follows the GPUs' peaks";
}

} // namespace

bool operationCoversOperator(std::string_view operation, std::string_view op)
{
    if (operation == op)
        return true;
    if (operation == "aten::linear")
        return op == "aten::addmm" || op == "aten::mm" || op == "aten::bmm" || op == "aten::matmul";
    if (operation == "aten::matmul")
        return op == "aten::mm" || op == "aten::bmm";
    if (operation.starts_with("aten::conv"))
        return op == "aten::convolution";
    if (operation == "aten::scaled_dot_product_attention")
        return op.starts_with("aten::_scaled_dot_product_");
    if (operation == "aten::layer_norm")
        return op == "aten::native_layer_norm";
    return false;
}

std::vector<std::string> rooflineDetails(
    const FusionReport& report, std::string_view operation, double minStakeUs, size_t limit)
{
    std::vector<std::string> details;
    const EfficiencyReport& efficiency = report.efficiency;
    for (const EfficiencyRow& row : efficiency.rows) {
        if (details.size() >= limit)
            break;
        if (!operationCoversOperator(operation, row.op) || !row.workBlank.empty() || row.stakeUs == 0
            || std::fabs(row.stakeUs) < minStakeUs)
            continue;
        const EfficiencySide& a = row.sides[0];
        const EfficiencySide& b = row.sides[1];
        if (a.calls == 0 || b.calls == 0) {
            const size_t only = a.calls > 0 ? 0 : 1;
            details.push_back("only " + report.sideNames[only] + " runs " + rowName(row) + " ("
                + countedNoun(row.sides[only].calls, "call", "calls") + ", " + formatDuration(row.sides[only].medianUs)
                + " each): the other side runs this work with other shapes or operators");
            continue;
        }
        if (a.peakShare < 0 || b.peakShare < 0)
            continue;
        const size_t slow = a.medianUs >= b.medianUs ? 0 : 1;
        const size_t fast = 1 - slow;
        const EfficiencySide& s = row.sides[slow];
        const EfficiencySide& f = row.sides[fast];
        details.push_back(rowName(row) + ": " + report.sideNames[slow] + " runs it at " + percent(s.peakShare) + " "
            + roofText(row, s) + " (" + efficiency.gpus[slow].gpu + ", " + formatDuration(s.medianUs) + "), "
            + report.sideNames[fast] + " at " + percent(f.peakShare) + " " + roofText(row, f) + " ("
            + efficiency.gpus[fast].gpu + ", " + formatDuration(f.medianUs) + "): " + verdict(row, slow) + " ("
            + efficiency.peaksDefinition + " peaks)");
    }
    return details;
}

} // namespace fusiondiff
