#pragma once

#include "model/analysisoptions.h"
#include "model/categoryid.h"
#include "model/efficiencyreport.h"
#include "model/graphreport.h"
#include "model/opreport.h"
#include "model/steptime.h"
#include "model/timegap.h"
#include "model/tracestore.h"
#include "util/side.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff {

struct JobReport;

struct TraceSummary
{
    std::string path;
    std::string fileName;
    std::string label; // unique within the report
    Platform platform = Platform::NVIDIA;
    std::string gpuName;
    uint64_t kernels = 0;
    double kernelTimeUs = 0;
    uint64_t distinctKernelNames = 0;
    uint64_t kernelsWithoutCorrelation = 0;
    uint64_t correlationGroups = 0; // all groups
    uint64_t largeGroups = 0; // groups with at least min_group_size kernels
    uint64_t kernelsInLargeGroups = 0;
    uint64_t runtimeCalls = 0;
    uint64_t graphLaunches = 0;
    uint64_t cpuOps = 0;
    LoadStatistics statistics;
};

// Per kernel type over a whole trace.
struct TypeCount
{
    CategoryId type = 0;
    std::array<uint64_t, 2> count {};
    std::array<double, 2> timeUs {};
    // trace1 / trace2 count; +infinity when trace 2 has none (written as null).
    double ratio() const;
};

enum class OpportunitySource
{
    MatchedGroups, // from the kernels of matched correlation groups
    GlobalCounts, // from whole-trace counts, for types the groups did not show
};

struct FusionOpportunity
{
    CategoryId kernelType = 0;
    std::array<uint64_t, 2> total {};
    std::array<double, 2> avgPerGroup {};
    std::array<double, 2> timeMs {};
    double timeRatio = 0; // trace1 / trace2 time; may be +infinity
    double ratio = 0; // how many times more the unfused side runs; may be +infinity
    Side fusedBy = Side::Trace1; // the side with fewer kernels
    uint64_t groupsAffected = 0;
    uint64_t totalGroups = 0;
    OpportunitySource source = OpportunitySource::MatchedGroups;

    double impact() const { return ratio * static_cast<double>(total[0] + total[1]); }
};

enum class MappingKind
{
    GroupSequence, // sequence pattern inside one matched correlation group pair
    PartialFusion, // count imbalance across matched groups, with the types the other side has more of
    IntraTypeChain, // one side runs longer chains of consecutive kernels of one type
    GlobalSequence, // sequence pattern over all kernels of both traces
};
const char* mappingKindKey(MappingKind kind);

struct FusionMapping
{
    MappingKind kind = MappingKind::GroupSequence;
    Side fusedSide = Side::Trace1;
    CategoryId fusedKernelType = 0;
    uint64_t fusedCount = 0;
    std::vector<CategoryId> unfusedSequence;
    std::vector<std::pair<CategoryId, uint64_t>> unfusedCountPerType;
    int64_t patternCount = 0;
    double patternConfidence = 0;
    std::string evidence;
    std::optional<int64_t> correlationGroup1; // for GroupSequence: the matched pair
    std::optional<int64_t> correlationGroup2;

    Side unfusedSide() const { return otherSide(fusedSide); }
};

// A correlation group with at least min_group_size kernels.
struct LargeGroup
{
    int64_t correlation = 0;
    uint32_t size = 0;
    double timeUs = 0;
    std::vector<uint32_t> typeCounts; // indexed by category
    std::vector<double> typeTimesUs; // indexed by category, summed in file order
    std::vector<uint32_t> kernels; // indices into the trace's kernels, in time order
};

struct GroupPair
{
    uint32_t group1 = 0; // index into FusionReport::largeGroups[0]
    uint32_t group2 = 0;
    uint32_t sharedTypes = 0;
    int64_t score = 0; // |size difference| - 10 * shared types: the seed's matching score
};

// Every distinct kernel name with what each trace spends on it.
struct KernelNameRow
{
    std::string name;
    CategoryId type = 0;
    std::array<uint64_t, 2> count {};
    std::array<double, 2> timeUs {};
};

struct ClassifierSummary
{
    std::string name;
    std::string source;
    std::string description;
    std::vector<std::string> categories;
    CategoryId fallback = 0;
};

// Everything one comparison found: plain data that the writers (JSON, CSV, Markdown, text) and the
// GUI's models present without computing anything themselves.
struct FusionReport
{
    std::string toolVersion;
    ClassifierSummary classifier;
    AnalysisOptions options;
    std::array<TraceSummary, 2> traces;
    // How the evidence texts and fused_by name each trace: the platform ("AMD", "NVIDIA") when the
    // platforms differ, as the seed does; the labels when both traces are of one platform.
    std::array<std::string, 2> sideNames;

    std::vector<TypeCount> globalCounts; // types present in either trace, in category order
    std::vector<FusionOpportunity> opportunities; // by impact, largest first
    std::vector<FusionMapping> mappings;
    std::array<std::vector<LargeGroup>, 2> largeGroups; // in trace order
    std::vector<GroupPair> groupPairs; // in matching order
    std::vector<KernelNameRow> kernels; // by total time over both traces, largest first

    // Beyond the seed: kernels attributed to the operations that launched them and compared
    // operation by operation (and graph by graph), communication compared by collective.
    std::vector<std::string> tagNames; // the classifier's fusion tags
    OpAlignment opAlignment;
    std::array<Iterations, 2> iterations;
    std::vector<OpFinding> opFindings; // by the time the unfused side could save
    std::vector<OpSummary> opSummary;
    std::vector<ExtraKernels> extraKernels;
    // Kernels of A and B that the operation and graph comparison lined up, by pair of names: which
    // kernel of one trace does the work of which kernel of the other. By |B - A| time, largest first.
    std::vector<MatchedKernels> matchedKernels;
    std::vector<LayerTimes> layerTimes; // by index in the step; empty unless aligned layer by layer
    std::vector<CollectiveComparison> collectives;
    // Graphs compared as units: kinds, matched kinds, graphs that cover several of the other side's.
    // Their findings are among opFindings (isGraph).
    GraphComparison graphComparison;
    std::vector<CollectiveCallGroup> collectiveCalls; // by collective, then by calls

    // The gap between the two traces explained part by part, and the differences ranked by the
    // time at stake, whatever their kind (docs/operations.md).
    TimeGap timeGap;
    StepTimeReport stepTime; // each side's steps, their GPU busy and idle time by cause, the host code
    std::vector<LookFirstEntry> whereToLookFirst; // by stakeUs, largest first
    // Two multi-rank runs compared as jobs (model/jobreport.h); null for a single trace a side.
    std::shared_ptr<const JobReport> job;
    // Each operator, shape and data type against each GPU's peaks (ops/efficiency/).
    EfficiencyReport efficiency;

    const std::string& typeName(CategoryId type) const { return classifier.categories[type]; }
    const std::string& sideName(Side side) const { return sideNames[sideIndex(side)]; }
};

// The time of an opportunity's kernels on each side, as a sentence names it: "12.3 ms on AMD vs
// 4.6 ms on NVIDIA", or where one side runs none of them "139 ms on AMD; NVIDIA has no such kernels".
std::string opportunityTimeText(const FusionReport& report, const FusionOpportunity& opportunity);

} // namespace fusiondiff
