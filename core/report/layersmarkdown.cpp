#include "report/layersmarkdown.h"

#include "model/fusionreport.h"
#include "report/layerphases.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace fusiondiff {

namespace {

LayerRun runOf(std::span<const LayerTimes> layers)
{
    LayerRun run { .first = layers.front().index,
        .last = layers.back().index,
        .calls = layers.front().calls,
        .kernels = layers.front().kernels };
    for (const LayerTimes& layer : layers) {
        for (size_t side = 0; side < 2; ++side)
            run.meanUs[side] += layer.timeUs[side] / double(layers.size());
        run.totalDifferenceUs += layer.differenceUs();
    }
    return run;
}

std::string percent(double share)
{
    return fixed(share * 100, 0) + "%";
}

std::string layerRange(const LayerRun& run)
{
    return run.layers() == 1 ? std::to_string(run.first)
                             : std::to_string(run.first) + "\xE2\x80\x93" + std::to_string(run.last);
}

// Which blocks were paired, how many calls, and how much of the work they hold (opAlignment.layers).
std::string layersSentence(const FusionReport& report, MarkdownCell cell)
{
    const LayerAlignment& layers = report.opAlignment.layers;
    const std::string perStep = std::to_string(layers.perStep);
    const std::string one = layerNoun(layers, false);
    std::string text = "The traces were aligned " + one + " by " + one
        + (layers.graphPieces ? " (torch.compile graph pieces, not the model's layers)" : "") + ": ";
    text += layers.unit[0] == layers.unit[1]
        ? "the " + perStep + " calls a step of " + cell(layers.unit[0]) + " on each side"
        : "A's " + perStep + " calls a step of " + cell(layers.unit[0]) + " and B's " + perStep + " of "
            + cell(layers.unit[1]);
    text += " were paired in order and the operations inside each pair of calls aligned with each other (";
    text += layers.calls[0] == layers.calls[1]
        ? countedNoun(layers.calls[0], "call", "calls") + " compared on each side"
        : countedNoun(layers.calls[0], "call", "calls") + " compared in A, " + countWithThousands(layers.calls[1])
            + " in B";
    text += "). ";
    text += percent(layers.share[0]) == percent(layers.share[1])
        ? percent(layers.share[0]) + " of the compared operations on each side run inside a layer"
        : percent(layers.share[0]) + " of A's compared operations and " + percent(layers.share[1])
            + " of B's run inside a layer";
    text += "; " + countWithThousands(layers.matched) + " operation pairs were made inside paired layers.";
    return text;
}

// How the table below was cut down, if it was.
std::string tableSentence(const std::vector<LayerRun>& runs, size_t shownRows, size_t layerCount)
{
    const auto folded = std::find_if(runs.begin(), runs.end(), [](const LayerRun& run) { return run.layers() > 1; });
    std::string text;
    const std::string alike = "the same calls and kernel counts on each side and times within "
        + percent(kLayerFoldTolerance) + " of their average";
    if (folded == runs.end())
        text = "One row per layer (its index in the step)";
    else if (runs.size() == 1)
        text = "All " + std::to_string(layerCount) + " layers look alike (" + alike
            + ") and share one row, which gives each layer's calls and kernels and the average layer's times";
    else
        text = "Consecutive layers that look alike (" + alike + ") share a row, such as " + layerRange(*folded)
            + ", which gives each layer's calls and kernels and the average layer's times: the "
            + std::to_string(layerCount) + " layers fold into " + std::to_string(runs.size()) + " rows";
    if (shownRows < runs.size())
        text += ". Shown: the " + std::to_string(shownRows) + " rows whose layers differ most in total, in layer order";
    text += ". Times are the GPU time of each layer's kernels over its calls; the last row sums all layers";
    if (shownRows < runs.size() || folded != runs.end())
        text += "; every layer is in the layer\\_times table of the JSON and CSV reports";
    return text + ".";
}

// The rows to show, in layer order: all of them, or the kMaxLayerRows whose layers differ most in
// total.
std::vector<LayerRun> shownRuns(std::vector<LayerRun> runs)
{
    if (runs.size() <= kMaxLayerRows)
        return runs;
    std::stable_sort(runs.begin(), runs.end(), [](const LayerRun& x, const LayerRun& y) {
        return std::fabs(x.totalDifferenceUs) > std::fabs(y.totalDifferenceUs);
    });
    runs.resize(kMaxLayerRows);
    std::sort(runs.begin(), runs.end(), [](const LayerRun& x, const LayerRun& y) { return x.first < y.first; });
    return runs;
}

void tableRow(std::string& out, const std::string& layers, const std::array<uint64_t, 2>& calls,
    const std::array<uint64_t, 2>& kernels, const std::array<double, 2>& timeUs)
{
    out += "| " + layers + " | " + countWithThousands(calls[0]) + " | " + countWithThousands(calls[1]) + " | "
        + countWithThousands(kernels[0]) + " | " + countWithThousands(kernels[1]) + " | " + formatDuration(timeUs[0])
        + " | " + formatDuration(timeUs[1]) + " | " + signedDuration(timeUs[1] - timeUs[0]) + " |\n";
}

} // namespace

std::vector<LayerRun> foldLayers(const std::vector<LayerTimes>& layers, double tolerance)
{
    std::vector<LayerRun> runs;
    for (size_t begin = 0; begin < layers.size();) {
        std::array<double, 2> sumUs = layers[begin].timeUs;
        size_t end = begin + 1;
        for (; end < layers.size(); ++end) {
            const LayerTimes& layer = layers[end];
            const double size = double(end - begin);
            const bool alike = layer.index == layers[end - 1].index + 1 && layer.phase == layers[begin].phase
                && layer.calls == layers[begin].calls && layer.kernels == layers[begin].kernels
                && std::fabs(layer.timeUs[0] - sumUs[0] / size) <= tolerance * sumUs[0] / size
                && std::fabs(layer.timeUs[1] - sumUs[1] / size) <= tolerance * sumUs[1] / size;
            if (!alike)
                break;
            sumUs[0] += layer.timeUs[0];
            sumUs[1] += layer.timeUs[1];
        }
        runs.push_back(runOf(std::span(layers).subspan(begin, end - begin)));
        begin = end;
    }
    return runs;
}

namespace {

// One phase's layer table, with the sentence that says how it was cut down.
std::string phaseTable(const std::vector<LayerTimes>& layers)
{
    const std::vector<LayerRun> runs = foldLayers(layers);
    const std::vector<LayerRun> shown = shownRuns(runs);
    const size_t layerCount = layers.size();
    std::string out = tableSentence(runs, shown.size(), layerCount) + "\n\n";
    out += "| Layer | A calls | B calls | A kernels | B kernels | A time | B time | B \xE2\x88\x92 A |\n";
    out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const LayerRun& run : shown)
        tableRow(out, layerRange(run), run.calls, run.kernels, run.meanUs);
    std::array<uint64_t, 2> calls {}, kernels {};
    std::array<double, 2> timeUs {};
    for (const LayerTimes& layer : layers) {
        for (size_t side = 0; side < 2; ++side) {
            calls[side] += layer.calls[side];
            kernels[side] += layer.kernels[side];
            timeUs[side] += layer.timeUs[side];
        }
    }
    tableRow(out, "All " + std::to_string(layerCount), calls, kernels, timeUs);
    return out;
}

} // namespace

std::string layersMarkdown(const FusionReport& report, MarkdownCell cell)
{
    if (report.layerTimes.empty())
        return {};
    std::string out = "\n## Layers\n\n" + layersSentence(report, cell) + "\n";
    const std::vector<LayerPhaseSummary> phases = layerPhaseSummaries(report.layerTimes);
    for (const LayerPhaseSummary& phase : phases) {
        // A table per phase: a prefill step's layers and a decode step's are different work.
        if (phases.size() > 1)
            out += "\n### " + cell(phase.phase) + "\n";
        const auto first = report.layerTimes.begin() + std::ptrdiff_t(phase.firstRow);
        out += "\n" + phaseTable(std::vector<LayerTimes>(first, first + std::ptrdiff_t(phase.rows)));
    }
    return out;
}

} // namespace fusiondiff
