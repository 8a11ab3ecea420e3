#include "model/opreport.h"

#include "util/textformat.h"
#include "util/textmatch.h"

#include <algorithm>

namespace fusiondiff {

const char* opLevelKey(OpLevel level)
{
    switch (level) {
    case OpLevel::Operator:
        return "operator";
    case OpLevel::Module:
        return "module";
    case OpLevel::LaunchingOperator:
        return "launching_operator";
    case OpLevel::Auto:
        return "auto";
    }
    return "";
}

std::string savingText(const std::array<std::string, 2>& sideNames, Side slower, double totalUs, double extraKernelsUs,
    double speedUs, std::string_view scope)
{
    const std::string& slow = sideNames[sideIndex(slower)];
    const std::string& fast = sideNames[sideIndex(otherSide(slower))];
    if (totalUs <= 0 && extraKernelsUs == 0 && speedUs == 0)
        return "both sides take as long " + std::string(scope);
    std::string text = slow + " takes " + formatDuration(totalUs) + " longer " + std::string(scope) + ": ";
    std::vector<std::string> parts;
    if (extraKernelsUs > 0)
        parts.push_back("the kernels it runs in addition cost it " + formatDuration(extraKernelsUs));
    else if (extraKernelsUs < 0)
        parts.push_back("the kernels " + fast + " runs in addition cost " + fast + " " + formatDuration(-extraKernelsUs)
            + " (this part works the other way)");
    if (speedUs > 0)
        parts.push_back("the kernels both run take " + formatDuration(speedUs) + " longer on " + slow);
    else if (speedUs < 0)
        parts.push_back("the kernels both run take " + formatDuration(-speedUs) + " less on " + slow
            + " (this part works the other way)");
    for (size_t i = 0; i < parts.size(); ++i)
        text += (i == 0 ? "" : "; ") + parts[i];
    return text;
}

std::string layerNoun(const LayerAlignment& layers, bool plural)
{
    return layers.graphPieces ? (plural ? "graph pieces" : "graph piece") : (plural ? "layers" : "layer");
}

bool isCompiledGraphPiece(std::string_view unit)
{
    if (unit.starts_with("nn.Module: "))
        return unit.find("GraphModule") != std::string_view::npos;
    return containsAny(asciiLower(unit),
        { "torch/_dynamo", "torch/_inductor", "torch/_functorch", "torch/fx/", "eval_with_key", "compiledfxgraph",
            "compiled_fn", "compiledfunction", "/compilation/", "piecewise", "cudagraph", "cuda_graph" });
}

Spread spreadOf(std::vector<double> values)
{
    Spread spread;
    spread.count = values.size();
    if (values.empty())
        return spread;
    std::sort(values.begin(), values.end());
    for (const double value : values)
        spread.total += value;
    // Quantiles by linear interpolation between the closest ranks (numpy's default).
    auto quantile = [&](double q) {
        const double position = q * double(values.size() - 1);
        const auto below = size_t(position);
        const size_t above = std::min(below + 1, values.size() - 1);
        return values[below] + (values[above] - values[below]) * (position - double(below));
    };
    spread.median = quantile(0.5);
    spread.q1 = quantile(0.25);
    spread.q3 = quantile(0.75);
    return spread;
}

Spread pairedDifferenceSpread(const std::vector<double>& a, const std::vector<double>& b)
{
    std::vector<double> differences;
    differences.reserve(std::min(a.size(), b.size()));
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        differences.push_back(a[i] - b[i]);
    return spreadOf(std::move(differences));
}

} // namespace fusiondiff
