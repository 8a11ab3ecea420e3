#include "ops/comparison/findingparts.h"

#include "util/side.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

// Below this share of kernels that line up by type, two graphs probably run different models.
constexpr double kSameModelAgreement = 0.5;

// The median of `values` (reordered), as spreadOf computes it, without sorting all of them: a
// graph kind pair of thousands of launches takes one per kernel position.
double medianOf(std::vector<double>& values)
{
    if (values.empty())
        return 0;
    const size_t middle = (values.size() - 1) / 2;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(middle), values.end());
    const double lower = values[middle];
    if (values.size() % 2 == 1)
        return lower;
    const double upper = *std::min_element(values.begin() + std::ptrdiff_t(middle) + 1, values.end());
    return lower + (upper - lower) * 0.5;
}

} // namespace

std::vector<double> occurrenceTimes(
    const TraceStore& store, const std::vector<std::vector<uint32_t>>& occurrences, const std::vector<bool>& leftOut)
{
    std::vector<double> times;
    times.reserve(occurrences.size());
    for (const auto& kernels : occurrences) {
        double total = 0;
        for (size_t position = 0; position < kernels.size(); ++position) {
            if (position >= leftOut.size() || !leftOut[position])
                total += store.kernels[kernels[position]].dur;
        }
        times.push_back(total);
    }
    return times;
}

std::vector<FindingKernel> findingKernels(
    const TraceStore& store, const KernelTypes& types, const std::vector<std::vector<uint32_t>>& occurrences)
{
    std::vector<FindingKernel> kernels;
    if (occurrences.empty())
        return kernels;
    const std::vector<uint32_t>& first = occurrences.front();
    kernels.reserve(first.size());
    std::vector<double> durations(occurrences.size());
    for (size_t position = 0; position < first.size(); ++position) {
        const KernelEvent& kernel = store.kernels[first[position]];
        for (size_t o = 0; o < occurrences.size(); ++o)
            durations[o] = store.kernels[occurrences[o][position]].dur;
        kernels.push_back({ std::string(store.name(kernel.name)), types.ofKernel[first[position]],
            types.tagsOfName[kernel.name], medianOf(durations) });
    }
    return kernels;
}

double typeAgreement(
    const std::array<std::vector<FindingKernel>, 2>& kernels, const std::vector<AlignedPair>& alignment)
{
    const auto sameType = std::count_if(alignment.begin(), alignment.end(), [&](const AlignedPair& p) {
        return p.isMatch() && kernels[0][size_t(p.first)].type == kernels[1][size_t(p.second)].type;
    });
    return double(sameType) / double(std::max<size_t>(1, std::max(kernels[0].size(), kernels[1].size())));
}

void setFusedSideAndSaving(OpFinding& finding, const std::array<std::vector<double>, 2>& times)
{
    const std::array<int64_t, 2> counts { int64_t(finding.kernels[0].size() - finding.collectiveKernels[0]),
        int64_t(finding.kernels[1].size() - finding.collectiveKernels[1]) };
    finding.fusedSide = counts[0] > counts[1] ? Side::Trace2 : Side::Trace1;
    const size_t unfused = sideIndex(otherSide(finding.fusedSide));
    const size_t fused = sideIndex(finding.fusedSide);
    finding.launchDifference = counts[unfused] - counts[fused];
    std::array<double, 2> total {};
    for (size_t side = 0; side < 2; ++side) {
        for (const double t : times[side])
            total[side] += t;
    }
    finding.slowerSide = total[0] >= total[1] ? Side::Trace1 : Side::Trace2;
    finding.savingUs = std::fabs(total[0] - total[1]);
    finding.differenceUs = pairedDifferenceSpread(times[0], times[1]);
}

std::array<double, 2> addExtraKernels(const OpFinding& finding, const std::array<const TraceStore*, 2>& stores,
    const std::array<std::vector<std::vector<uint32_t>>, 2>& occurrences, std::vector<ExtraKernels>& extras,
    const std::array<std::vector<bool>, 2>& leftOut, const std::function<void(size_t side, uint32_t kernel)>& onExtra)
{
    std::array<double, 2> extraTime {};
    for (const AlignedPair& pair : finding.alignment) {
        if (pair.isMatch())
            continue;
        const size_t side = pair.first >= 0 ? 0 : 1;
        const auto position = size_t(side == 0 ? pair.first : pair.second);
        const CategoryId type = finding.kernels[side][position].type;
        extras[type].kernels[side] += finding.occurrences;
        const bool counted = position >= leftOut[side].size() || !leftOut[side][position];
        for (const auto& kernels : occurrences[side]) {
            const uint32_t k = kernels[position];
            const double dur = stores[side]->kernels[k].dur;
            extras[type].timeUs[side] += dur;
            if (counted)
                extraTime[side] += dur;
            if (onExtra)
                onExtra(side, k);
        }
    }
    return extraTime;
}

void splitSaving(
    OpFinding& finding, const std::array<std::vector<double>, 2>& times, const std::array<double, 2>& extraTime)
{
    const size_t slow = sideIndex(finding.slowerSide);
    const size_t fast = sideIndex(otherSide(finding.slowerSide));
    std::array<double, 2> total {};
    for (size_t side = 0; side < 2; ++side) {
        for (const double t : times[side])
            total[side] += t;
    }
    finding.savingExtraKernelsUs = extraTime[slow] - extraTime[fast];
    // The rest of the difference, so that the two parts add up to savingUs whatever the rounding.
    finding.savingSpeedUs = (total[slow] - total[fast]) - finding.savingExtraKernelsUs;
}

std::string findingSummary(const OpFinding& finding, const NamingContext& naming, OccurrenceNoun noun, bool wholeGraphs)
{
    const Side fused = finding.fusedSide;
    const Side unfused = otherSide(fused);
    const auto& u = finding.kernels[sideIndex(unfused)];
    const auto& f = finding.kernels[sideIndex(fused)];
    std::vector<uint32_t> allU(u.size()), allF(f.size());
    for (uint32_t i = 0; i < allU.size(); ++i)
        allU[i] = i;
    for (uint32_t i = 0; i < allF.size(); ++i)
        allF[i] = i;
    const std::string& uName = naming.sideNames[sideIndex(unfused)];
    const std::string& fName = naming.sideNames[sideIndex(fused)];
    // "where NVIDIA runs none", not "runs 0 ()".
    const std::string fusedKernels
        = f.empty() ? "none" : withThousands(int64_t(f.size())) + " (" + describeTypes(f, allF, naming.typeNames) + ")";
    return finding.op + ": " + uName + " runs " + withThousands(int64_t(u.size()))
        + (u.size() == 1 ? " kernel (" : " kernels (") + describeTypes(u, allU, naming.typeNames) + ") where " + fName
        + " runs " + fusedKernels + ", in " + withThousands(int64_t(finding.occurrences)) + " "
        + std::string(finding.occurrences == 1 ? noun.one : noun.many) + "; " + uName + " takes "
        + formatDuration(finding.timeUs[sideIndex(unfused)].median) + " and " + fName + " "
        + formatDuration(finding.timeUs[sideIndex(fused)].median) + " per " + std::string(noun.one) + " (median)"
        + (wholeGraphs && finding.typeAgreement < kSameModelAgreement
                ? "; only " + fixed(finding.typeAgreement * 100, 0)
                    + "% of the kernels line up by type: these graphs may not run the same model"
                : "");
}

} // namespace fusiondiff
