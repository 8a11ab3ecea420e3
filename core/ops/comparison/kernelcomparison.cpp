#include "ops/comparison/kernelcomparison.h"

#include "ops/alignment/sequencealignment.h"
#include "ops/comparison/kernelwork.h"
#include "util/kernelname.h"

#include <algorithm>

namespace fusiondiff {

namespace {

// The kernels of both sides as symbols of (type, work), with the score of pairing any two: the same
// type +2, another type of the same work -1 (as likely as a gap), different work -3 (worse than
// leaving both out: a layout transform never stands in for the GEMM it prepares).
struct WorkSymbols
{
    std::array<std::vector<uint16_t>, 2> ofKernel;
    PairScores scores;
};

WorkSymbols workSymbols(const std::array<std::vector<FindingKernel>, 2>& kernels, const NamingContext& naming)
{
    WorkSymbols symbols;
    std::vector<std::pair<CategoryId, KernelWork>> distinct;
    for (size_t side = 0; side < 2; ++side) {
        for (const FindingKernel& kernel : kernels[side]) {
            const std::pair key { kernel.type,
                kernelWork(kernel.type < naming.typeNames.size() ? naming.typeNames[kernel.type] : std::string_view(),
                    kernel.name) };
            auto it = std::find(distinct.begin(), distinct.end(), key);
            if (it == distinct.end())
                it = distinct.insert(distinct.end(), key);
            symbols.ofKernel[side].push_back(uint16_t(it - distinct.begin()));
        }
    }
    PairScores& scores = symbols.scores;
    scores.size = distinct.size();
    scores.score.resize(scores.size * scores.size);
    for (size_t a = 0; a < scores.size; ++a) {
        for (size_t b = 0; b < scores.size; ++b) {
            const auto& [typeA, workA] = distinct[a];
            const auto& [typeB, workB] = distinct[b];
            const bool sameWork = workA == workB || workA == KernelWork::Any || workB == KernelWork::Any;
            scores.score[a * scores.size + b] = typeA == typeB && workA == workB ? 2 : sameWork ? -1 : -3;
        }
    }
    return symbols;
}

std::string tagList(uint64_t tags, const std::vector<std::string>& names)
{
    std::string text;
    for (size_t t = 0; t < names.size(); ++t) {
        if (tags >> t & 1)
            text += (text.empty() ? "" : "+") + names[t];
    }
    return text;
}

std::string kernelWord(size_t count)
{
    return count == 1 ? "kernel" : "kernels";
}

// The explanation of one run, given the other side's kernels just before and after it (null
// where there is none). Kernels of the run whose work a neighbour carries (a shared fusion tag)
// are explained by it; the others are described with where they run.
std::string explainRun(const ExtraRun& run, const std::array<std::vector<FindingKernel>, 2>& kernels,
    const FindingKernel* before, const FindingKernel* after, const NamingContext& naming)
{
    const Side side = run.side;
    const std::vector<FindingKernel>& own = kernels[sideIndex(side)];
    const std::string& runner = naming.sideNames[sideIndex(side)];
    const std::string& fuser = naming.sideNames[sideIndex(otherSide(side))];

    std::vector<std::string> sentences;
    std::vector<uint32_t> carried;
    std::vector<uint32_t> rest;
    const FindingKernel* carrier = nullptr;
    uint64_t carriedTags = 0;
    for (const uint32_t k : run.kernels) {
        const FindingKernel* neighbour = nullptr;
        for (const FindingKernel* candidate : { before, after }) {
            // A kernel of another type that does what the run's kernel does has fused it.
            if (candidate && candidate->type != own[k].type && (candidate->tags & own[k].tags)
                && (!carrier || candidate == carrier)) {
                neighbour = candidate;
                break;
            }
        }
        if (neighbour) {
            carrier = neighbour;
            carriedTags |= neighbour->tags & own[k].tags;
            carried.push_back(k);
        } else {
            rest.push_back(k);
        }
    }
    if (carrier) {
        sentences.push_back(fuser + "'s " + naming.typeNames[carrier->type] + " kernel ("
            + shortKernelName(carrier->name) + ") carries the " + tagList(carriedTags, naming.tagNames) + " that "
            + runner + " runs as a separate " + describeTypes(own, carried, naming.typeNames) + " "
            + kernelWord(carried.size()) + " (" + shortKernelName(own[carried.front()].name) + ")");
    }
    if (!rest.empty()) {
        std::string where;
        if (before && after)
            where = "between " + fuser + "'s " + naming.typeNames[before->type] + " and "
                + naming.typeNames[after->type] + " kernels";
        else if (before)
            where = "after " + fuser + "'s last kernel (" + naming.typeNames[before->type] + ")";
        else if (after)
            where = "before " + fuser + "'s first kernel (" + naming.typeNames[after->type] + ")";
        sentences.push_back(runner + " runs " + std::to_string(rest.size()) + " more " + kernelWord(rest.size()) + " ("
            + describeTypes(own, rest, naming.typeNames) + ": " + shortKernelName(own[rest.front()].name) + ")"
            + (where.empty() ? "" : " " + where));
    }
    std::string text;
    for (const std::string& sentence : sentences)
        text += (text.empty() ? "" : "; ") + sentence;
    return text;
}

} // namespace

std::string shortKernelName(const std::string& name)
{
    std::string text = withoutReturnType(demangledKernelName(name));
    // "at::native::(anonymous namespace)::cunn_SoftMaxForward<...>": keep the name after it.
    for (size_t at = text.find("(anonymous namespace)::"); at != std::string::npos;
         at = text.find("(anonymous namespace)::"))
        text.erase(at, 23);
    // Cut at the first template argument list or parameter list.
    const size_t cut = text.find_first_of("<(");
    if (cut != std::string::npos && cut > 0)
        text.resize(cut);
    if (text.size() > 60)
        text = text.substr(0, 57) + "...";
    return text;
}

std::string describeTypes(const std::vector<FindingKernel>& kernels, std::span<const uint32_t> which,
    const std::vector<std::string>& typeNames, size_t maxParts)
{
    std::string text;
    size_t parts = 0;
    for (size_t i = 0; i < which.size();) {
        if (parts++ == maxParts) {
            text += ", ...";
            break;
        }
        size_t same = i;
        while (same < which.size() && kernels[which[same]].type == kernels[which[i]].type)
            ++same;
        text += (text.empty() ? "" : ", ") + typeNames[kernels[which[i]].type];
        if (same - i > 1)
            text += " x" + std::to_string(same - i);
        i = same;
    }
    return text;
}

KernelListComparison compareKernelLists(
    const std::array<std::vector<FindingKernel>, 2>& kernels, const NamingContext& naming, size_t maxCells)
{
    const WorkSymbols symbols = workSymbols(kernels, naming);
    BoundedAlignment alignment = alignScoredWithin(symbols.ofKernel[0], symbols.ofKernel[1], symbols.scores, maxCells);
    KernelListComparison result = compareKernelLists(kernels, std::move(alignment.pairs), naming);
    result.inChunks = alignment.inChunks;
    return result;
}

KernelListComparison compareKernelLists(const std::array<std::vector<FindingKernel>, 2>& kernels,
    std::vector<AlignedPair> alignment, const NamingContext& naming)
{
    KernelListComparison result;
    result.alignment = std::move(alignment);
    const std::vector<AlignedPair>& columns = result.alignment;
    for (size_t c = 0; c < columns.size();) {
        if (columns[c].isMatch()) {
            ++c;
            continue;
        }
        const Side side = columns[c].first >= 0 ? Side::Trace1 : Side::Trace2;
        ExtraRun run { side, {}, {} };
        size_t end = c;
        while (end < columns.size() && !columns[end].isMatch()
            && (side == Side::Trace1 ? columns[end].first >= 0 : columns[end].second >= 0)) {
            run.kernels.push_back(uint32_t(side == Side::Trace1 ? columns[end].first : columns[end].second));
            ++end;
        }
        // The other side's kernels just before and after the run.
        const std::vector<FindingKernel>& other = kernels[sideIndex(otherSide(side))];
        auto otherIndex = [&](const AlignedPair& p) { return side == Side::Trace1 ? p.second : p.first; };
        const FindingKernel* before = nullptr;
        const FindingKernel* after = nullptr;
        for (size_t b = c; b-- > 0 && !before;) {
            if (otherIndex(columns[b]) >= 0)
                before = &other[size_t(otherIndex(columns[b]))];
        }
        for (size_t a = end; a < columns.size() && !after; ++a) {
            if (otherIndex(columns[a]) >= 0)
                after = &other[size_t(otherIndex(columns[a]))];
        }
        run.explanation = explainRun(run, kernels, before, after, naming);
        // The same run again (the next layer of a graph): count it instead of listing it twice.
        const auto same = std::find_if(result.runs.begin(), result.runs.end(), [&](const ExtraRun& earlier) {
            return earlier.side == run.side && earlier.explanation == run.explanation
                && earlier.kernels.size() == run.kernels.size();
        });
        if (same != result.runs.end())
            ++same->repeats;
        else
            result.runs.push_back(std::move(run));
        c = end;
    }
    return result;
}

} // namespace fusiondiff
