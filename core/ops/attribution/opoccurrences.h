#pragma once

#include "model/opreport.h"
#include "ops/attribution/opattribution.h"

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// Operation names as small ids shared by both traces, so that their sequences can be aligned.
class SymbolTable
{
public:
    uint32_t intern(const std::string& name);
    const std::string& name(uint32_t symbol) const { return m_names[symbol]; }
    // Interns `other`'s names in the order it gave them ids and returns their ids here, by their
    // ids there: after it this table is the one that interning `other`'s calls here would have made.
    std::vector<uint32_t> adopt(const SymbolTable& other);

private:
    std::unordered_map<std::string, uint32_t> m_ids;
    std::vector<std::string> m_names;
};

// One call of one operation (at the chosen level) and the kernels it launched.
struct OpOccurrence
{
    int32_t frame = -1; // in the trace's KernelAttribution
    uint32_t symbol = 0; // its name
    double ts = 0; // when it started on the CPU
    std::vector<uint32_t> kernels; // indices into TraceStore::kernels, in time order
    int32_t step = -1; // profiler step it belongs to, -1 if none
};

// Groups the attributed kernels by the operation occurrence they belong to at `level`, in the
// order the occurrences started. Module names stand for their class ("nn.Module: Qwen2RMSNorm").
std::vector<OpOccurrence> groupByOperation(
    const TraceStore& store, const KernelAttribution& attribution, OpLevel level, SymbolTable& symbols);

// The name at `level` of the operation that launched each of `kernels`, as groupByOperation names
// its occurrences; "" for a kernel whose launch is not attributed.
std::vector<std::string> operationNamesOf(
    const TraceStore& store, const KernelAttribution& attribution, OpLevel level, std::span<const uint32_t> kernels);

// The display name of a frame: the operator's name, or "nn.Module: <instance>".
std::string frameName(const TraceStore& store, const OpFrame& frame);

} // namespace fusiondiff
