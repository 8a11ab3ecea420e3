#include "compareruns.h"

#include "classify/classifier.h"
#include "load/traceloader.h"
#include "model/jobreport.h"
#include "runs/ranksummary.h"
#include "runs/ranksummaryjson.h"
#include "runs/runloader.h"
#include "util/inputerror.h"

namespace fusiondiff::python {

std::string summarizeRankJson(const std::string& path, const std::string& classifier)
{
    const Classifier rules = Classifier::load(classifier);
    LoadOptions options;
    options.threads = 1; // the executor runs one rank a worker
    return rankSummaryToJson(summarizeRank(loadTrace(path, options), rules));
}

RunComparison mergeRankSummaries(
    const std::array<std::vector<std::string>, 2>& summaries, const std::optional<std::array<int32_t, 2>>& rankPair)
{
    std::array<std::vector<RankSummary>, 2> ranks;
    for (size_t side = 0; side < 2; ++side) {
        for (size_t i = 0; i < summaries[side].size(); ++i)
            ranks[side].push_back(rankSummaryFromJson(
                summaries[side][i], std::string(side == 0 ? "a" : "b") + " summary " + std::to_string(i + 1)));
    }
    auto job = std::make_shared<JobReport>(compareRankSummaries(std::move(ranks)));
    if (rankPair)
        job->detailedPair = *rankPair;
    RunComparison out;
    for (size_t side = 0; side < 2; ++side) {
        const std::vector<RankSummary>& sideRanks = job->sides[side].ranks;
        const int32_t rank = job->detailedPair[side];
        if (rank < 0 || size_t(rank) >= sideRanks.size())
            throw InputError(side == 0 ? "a" : "b", "the run has no rank " + std::to_string(rank) + " (rank_pair)");
        out.detailedFiles[side] = sideRanks[size_t(rank)].path;
    }
    out.job = std::move(job);
    return out;
}

} // namespace fusiondiff::python
