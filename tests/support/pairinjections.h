#pragma once

// Where and how the pair constructor injects its changes into B: the candidate operations, the
// region of the training step each runs in, kernels split and merged, operators fused.
#include "pairevents.h"

#include <string>
#include <utility>
#include <vector>

namespace fusiondiff {
class Classifier;
}

namespace fusiondiff::test::pairdetail {

constexpr const char* kRegionForward = "forward";
constexpr const char* kRegionBackward = "backward";
constexpr const char* kRegionOptimizer = "optimizer";
constexpr const char* kRegionCommunication = "communication";

// Calls of one launching operator under one outermost operator (splits), or calls of one
// outermost operator (merges: two consecutive kernels of the operation become one), with the
// kernels of each call in time order.
struct Candidate
{
    std::string launching; // "aten::addmm", or for merges "aten::fill_ + aten::_flash_attention_forward"
    std::string outer;
    std::vector<std::vector<size_t>> calls;
    bool forMerge = false;
    size_t firstOuterCall = 0; // the outermost operator event of the first call
};

std::vector<Candidate> candidatesOf(const std::vector<Event>& events, const TraceIndex& index);

// Where in a training step a candidate's operation runs: its outermost operator is an autograd
// node (backward), inside an `Optimizer.step#...` span on its thread (optimizer), or launches
// communication kernels (data-parallel communication); else the forward pass.
std::vector<size_t> optimizerSteps(const std::vector<Event>& events, const TraceIndex& index);
const char* regionOf(const std::vector<Event>& events, const std::vector<size_t>& optimizerSpans,
    const Classifier& classifier, const Candidate& candidate);

void split(
    std::vector<Event>& events, const TraceIndex& index, const std::vector<size_t>& kernels, int64_t correlation);
void merge(std::vector<Event>& events, const std::vector<size_t>& kernels);

// Two consecutive outermost operators on one thread, one kernel each, in the same module call:
// where they follow each other, B runs one custom operator with one kernel instead.
struct OperatorFusion
{
    std::string first, second;
    std::vector<std::pair<size_t, size_t>> calls; // operator events
};

std::vector<OperatorFusion> operatorFusionsOf(const std::vector<Event>& events, const TraceIndex& index);

// The two operators of a call become one named `name`, their two kernels one.
void fuseOperators(std::vector<Event>& events, const TraceIndex& index, size_t first, size_t second,
    const std::vector<size_t>& kernels, const std::string& name);

} // namespace fusiondiff::test::pairdetail
