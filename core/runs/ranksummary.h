#pragma once

#include "model/jobreport.h"

#include <optional>
#include <string>
#include <string_view>

namespace fusiondiff {

class Classifier;
struct TraceStore;

// The rank a trace file's name gives ("worker3", "rank3", "rank_3", "rank-3"), if any.
std::optional<int32_t> rankFromFileName(std::string_view fileName);

// The map step of a job comparison: one rank trace into its summary (model/jobreport.h): its
// steps with busy and idle time by cause as the step time measures them, its kernel time by type
// and host-caused idle by code per step, and its collective calls. The rank comes from the trace's
// distributedInfo, else from its file name (-1 if neither says).
RankSummary summarizeRank(const TraceStore& store, const Classifier& classifier);

} // namespace fusiondiff
