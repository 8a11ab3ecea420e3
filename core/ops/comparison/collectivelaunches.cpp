#include "ops/comparison/collectivelaunches.h"

#include "model/fusionreport.h"
#include "model/tracestore.h"
#include "ops/comparison/collectivecalls.h"
#include "ops/comparison/opcomparison.h"
#include "util/plural.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fusiondiff {

std::vector<CollectiveLaunchDifference> collectiveLaunchDifferences(const KernelRoles& roles,
    const std::array<const std::vector<CollectiveCall>*, 2>& collectiveCalls,
    const std::array<const TraceStore*, 2>& stores)
{
    struct Sums
    {
        std::array<uint64_t, 2> kernels {};
        std::array<double, 2> timeUs {};
        std::array<std::set<std::string>, 2> collectives;
    };
    std::map<int32_t, Sums> byOp;
    for (size_t side = 0; side < 2; ++side) {
        if (!collectiveCalls[side] || roles.op[side].empty())
            continue;
        for (const CollectiveCall& call : *collectiveCalls[side]) {
            for (const uint32_t k : call.kernels) {
                if (k >= roles.op[side].size() || roles.op[side][k] < 0)
                    continue;
                const KernelRole role = roles.role[side][k];
                if (role != KernelRole::Paired && role != KernelRole::Aligned && role != KernelRole::Extra)
                    continue; // not in a matched pair
                Sums& sums = byOp[roles.op[side][k]];
                ++sums.kernels[side];
                sums.timeUs[side] += stores[side]->kernels[k].dur;
                sums.collectives[side].insert(call.collective);
            }
        }
    }
    std::vector<CollectiveLaunchDifference> result;
    for (const auto& [op, sums] : byOp) {
        // Both sides communicate in it, in a different number of kernels: where one side runs no
        // collective there at all, the difference is the collective's, not the operation's.
        if (sums.kernels[0] == sums.kernels[1] || sums.kernels[0] == 0 || sums.kernels[1] == 0
            || size_t(op) >= roles.opNames.size())
            continue;
        CollectiveLaunchDifference difference;
        difference.op = roles.opNames[size_t(op)];
        difference.kernels = sums.kernels;
        difference.timeUs = sums.timeUs;
        for (size_t side = 0; side < 2; ++side)
            difference.collectives[side].assign(sums.collectives[side].begin(), sums.collectives[side].end());
        result.push_back(std::move(difference));
    }
    std::stable_sort(result.begin(), result.end(), [](const auto& a, const auto& b) {
        return std::abs(a.timeUs[0] - a.timeUs[1]) > std::abs(b.timeUs[0] - b.timeUs[1]);
    });
    return result;
}

LookFirstEntry collectiveLaunchEntry(const FusionReport& report, const CollectiveLaunchDifference& difference)
{
    LookFirstEntry entry;
    entry.kind = LookFirstKind::Fusion;
    entry.op = difference.op;
    entry.timeUs = difference.timeUs;
    const double delta = entry.timeUs[0] - entry.timeUs[1];
    entry.stakeUs = std::fabs(delta);
    entry.slowerSide = delta >= 0 ? Side::Trace1 : Side::Trace2;
    entry.savingUs = entry.stakeUs;
    entry.savingExtraKernelsUs = entry.stakeUs;
    const auto summary = std::find_if(report.opSummary.begin(), report.opSummary.end(),
        [&](const OpSummary& row) { return row.op == difference.op; });
    entry.calls = summary != report.opSummary.end() ? summary->occurrences : 0;
    const size_t more = difference.kernels[0] > difference.kernels[1] ? 0 : 1;
    auto kernelsText = [&](size_t side) {
        std::string names;
        for (const std::string& collective : difference.collectives[side])
            names += (names.empty() ? "" : ", ") + collective;
        return countedNoun(difference.kernels[side], "communication kernel", "communication kernels")
            + (names.empty() ? "" : " (" + names + ")") + " in " + formatDuration(difference.timeUs[side]);
    };
    entry.title = difference.op + ": " + report.sideNames[more] + " launches " + kernelsText(more) + " where "
        + report.sideNames[1 - more] + " launches " + kernelsText(1 - more)
        + (entry.calls > 0 ? ", in " + withThousands(int64_t(entry.calls)) + " paired calls" : "");
    entry.details.emplace_back(
        "the same operation sends its data in more collective calls on one side (gradients in more buckets, or one "
        "collective run as two); their kernels are part of the collectives' time in the time gap");
    return entry;
}

} // namespace fusiondiff
