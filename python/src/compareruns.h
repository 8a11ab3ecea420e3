#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {
struct JobReport;
}

namespace fusiondiff::python {

// fusiondiff.compare_runs' map: one rank trace loaded and summarised (runs/ranksummary.h), as the
// JSON of runs/ranksummaryjson.h (plain bytes that any executor can send back).
std::string summarizeRankJson(const std::string& path, const std::string& classifier);

// Its merge: the summaries of each side as one job (InputError for a bad rank set), compared; the
// detailed pair is `rankPair` or the job's default (the straggler's). The job and the pair's files.
struct RunComparison
{
    std::shared_ptr<const JobReport> job;
    std::array<std::string, 2> detailedFiles;
};
RunComparison mergeRankSummaries(
    const std::array<std::vector<std::string>, 2>& summaries, const std::optional<std::array<int32_t, 2>>& rankPair);

} // namespace fusiondiff::python
