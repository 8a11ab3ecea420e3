#include "ops/attribution/opoccurrences.h"

#include "model/tracestore.h"
#include "util/sortedruns.h"

#include <algorithm>

namespace fusiondiff {

uint32_t SymbolTable::intern(const std::string& name)
{
    const auto [it, inserted] = m_ids.try_emplace(name, uint32_t(m_names.size()));
    if (inserted)
        m_names.push_back(name);
    return it->second;
}

std::vector<uint32_t> SymbolTable::adopt(const SymbolTable& other)
{
    std::vector<uint32_t> ids;
    ids.reserve(other.m_names.size());
    for (const std::string& name : other.m_names)
        ids.push_back(intern(name));
    return ids;
}

std::string frameName(const TraceStore& store, const OpFrame& frame)
{
    const std::string_view name = store.name(frame.name);
    return frame.isModule ? "nn.Module: " + std::string(name) : std::string(name);
}

namespace {

// The frame that stands for the occurrence of a launching frame at a level.
class GroupingFrames
{
public:
    GroupingFrames(const KernelAttribution& attribution, OpLevel level)
        : m_frames(attribution.frames)
        , m_level(level)
    {
        if (level == OpLevel::Operator || level == OpLevel::Auto)
            m_outermost.assign(m_frames.size(), kUnknown);
    }

    int32_t of(int32_t launching)
    {
        switch (m_level) {
        case OpLevel::LaunchingOperator:
            for (int32_t f = launching; f >= 0; f = m_frames[size_t(f)].parent) {
                if (isOperator(f))
                    return f;
            }
            return launching;
        case OpLevel::Module: {
            for (int32_t f = launching; f >= 0; f = m_frames[size_t(f)].parent) {
                if (m_frames[size_t(f)].isModule)
                    return f;
            }
            // No module around it: its outermost operator.
            int32_t outermost = -1;
            for (int32_t f = launching; f >= 0; f = m_frames[size_t(f)].parent) {
                if (isOperator(f))
                    outermost = f;
            }
            return outermost >= 0 ? outermost : launching;
        }
        case OpLevel::Operator:
        case OpLevel::Auto: {
            // The outermost operator around the launching one, up to the innermost module around it
            // (a module does not stop the walk before the first operator).
            int32_t op = launching;
            while (op >= 0 && !isOperator(op))
                op = m_frames[size_t(op)].parent;
            if (op < 0)
                return launching;
            const int32_t above = outermostOperatorBelowModule(m_frames[size_t(op)].parent);
            return above >= 0 ? above : op;
        }
        }
        return launching;
    }

private:
    static constexpr int32_t kUnknown = -2;

    bool isOperator(int32_t f) const { return !m_frames[size_t(f)].isModule && !m_frames[size_t(f)].isPython; }

    // The outermost operator from `frame` up to the first module at or above it (not included),
    // -1 if none; each frame decided once from the one above it, as the operations of a
    // with_stack trace share long chains of Python frames up to the root.
    int32_t outermostOperatorBelowModule(int32_t frame)
    {
        m_pending.clear();
        int32_t above = -1;
        for (int32_t f = frame; f >= 0; f = m_frames[size_t(f)].parent) {
            if (m_outermost[size_t(f)] != kUnknown) {
                above = m_outermost[size_t(f)];
                break;
            }
            if (m_frames[size_t(f)].isModule) {
                m_outermost[size_t(f)] = -1;
                break;
            }
            m_pending.push_back(f);
        }
        for (size_t k = m_pending.size(); k-- > 0;) { // outermost first
            const int32_t f = m_pending[k];
            if (above < 0 && isOperator(f))
                above = f;
            m_outermost[size_t(f)] = above;
        }
        return above;
    }

    const std::vector<OpFrame>& m_frames;
    OpLevel m_level;
    std::vector<int32_t> m_outermost; // per frame: outermostOperatorBelowModule, or kUnknown
    std::vector<int32_t> m_pending;
};

std::string symbolName(const TraceStore& store, const OpFrame& frame)
{
    if (frame.isModule)
        return "nn.Module: " + moduleClassName(store.name(frame.name));
    return std::string(store.name(frame.name));
}

} // namespace

std::vector<OpOccurrence> groupByOperation(
    const TraceStore& store, const KernelAttribution& attribution, OpLevel level, SymbolTable& symbols)
{
    GroupingFrames groupingFrames(attribution, level);
    std::vector<int32_t> groupOfFrame(attribution.frames.size(), -2); // -2: not computed yet
    std::vector<int32_t> occurrenceOfFrame(attribution.frames.size(), -1);
    // A symbol per name, module calls apart (by name * 2 + isModule): interned once a name.
    constexpr uint32_t kNotInterned = UINT32_MAX;
    std::vector<uint32_t> symbolOfName(store.strings.size() * 2, kNotInterned);
    const auto symbolOf = [&](const OpFrame& frame) {
        uint32_t& symbol = symbolOfName[size_t(frame.name) * 2 + (frame.isModule ? 1 : 0)];
        if (symbol == kNotInterned)
            symbol = symbols.intern(symbolName(store, frame));
        return symbol;
    };
    std::vector<OpOccurrence> occurrences;
    for (size_t k = 0; k < store.kernels.size(); ++k) {
        const int32_t launching = attribution.launchingFrame[k];
        if (launching < 0)
            continue;
        int32_t& group = groupOfFrame[size_t(launching)];
        if (group == -2)
            group = groupingFrames.of(launching);
        int32_t& occurrence = occurrenceOfFrame[size_t(group)];
        if (occurrence < 0) {
            occurrence = int32_t(occurrences.size());
            const OpFrame& frame = attribution.frames[size_t(group)];
            occurrences.push_back({ group, symbolOf(frame), frame.ts, {}, -1 });
        }
        occurrences[size_t(occurrence)].kernels.push_back(uint32_t(k));
    }
    const auto kernelEarlier = [&](uint32_t a, uint32_t b) { return store.kernels[a].ts < store.kernels[b].ts; };
    for (OpOccurrence& occurrence : occurrences)
        stableSortWhereOutOfOrder(occurrence.kernels.begin(), occurrence.kernels.end(), kernelEarlier);
    stableSortWhereOutOfOrder(occurrences.begin(), occurrences.end(),
        [](const OpOccurrence& a, const OpOccurrence& b) { return a.ts < b.ts; });
    return occurrences;
}

std::vector<std::string> operationNamesOf(
    const TraceStore& store, const KernelAttribution& attribution, OpLevel level, std::span<const uint32_t> kernels)
{
    GroupingFrames groupingFrames(attribution, level);
    std::vector<std::string> names;
    names.reserve(kernels.size());
    for (const uint32_t kernel : kernels) {
        const int32_t launching = kernel < attribution.launchingFrame.size() ? attribution.launchingFrame[kernel] : -1;
        names.push_back(launching < 0 ? std::string()
                                      : symbolName(store, attribution.frames[size_t(groupingFrames.of(launching))]));
    }
    return names;
}

} // namespace fusiondiff
