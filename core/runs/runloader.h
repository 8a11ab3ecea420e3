#pragma once

#include "model/jobreport.h"

#include <array>
#include <atomic>
#include <string>
#include <vector>

namespace fusiondiff {

class Classifier;

// A side's inputs as trace files: a folder gives its trace files (*.json, *.json.gz, by name), a
// file itself. Throws InputError for a folder without traces.
std::vector<std::string> runTraceFiles(const std::vector<std::string>& inputs);

// Whether the inputs are a multi-rank run (several files, or a folder) rather than one trace.
bool isMultiRankRun(const std::vector<std::string>& inputs);

// Each trace loaded and summarised (runs/ranksummary.h), `threads` ranks at a time (0: the
// machine's cores), each rank's store released once summarised, so memory is that of the ranks in
// flight. Throws the first load error (InputError names the file).
std::vector<RankSummary> summarizeRanks(const std::vector<std::string>& paths, const Classifier& classifier,
    size_t threads = 0, const std::atomic<bool>* cancel = nullptr);

// Two runs compared as jobs: the map (summarizeRanks) and the merge (jobside.h, jobcompare.h).
// Throws InputError for a bad rank set, before anything is written.
JobReport compareRuns(const std::array<std::vector<std::string>, 2>& paths, const Classifier& classifier,
    size_t threads = 0, const std::atomic<bool>* cancel = nullptr);

// The same from summaries made elsewhere (another process, another machine).
JobReport compareRankSummaries(std::array<std::vector<RankSummary>, 2> ranks);

} // namespace fusiondiff
