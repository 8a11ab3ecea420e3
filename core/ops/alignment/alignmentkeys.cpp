#include "ops/alignment/alignmentkeys.h"

#include "classify/kerneltypes.h"
#include "model/tracestore.h"
#include "ops/alignment/cascadealignment.h"
#include "util/textmatch.h"

#include <algorithm>
#include <functional>

namespace fusiondiff {

namespace {

enum Level : size_t
{
    Stack,
    Python,
    ModuleOperator,
    Module,
    Operator,
    RenamedOperator,
    Kernels,
    FirstKernel,
    LevelCount,
};

constexpr AlignmentLevelSpec kLevels[] = {
    { "stack", "the whole call stack: Python frames (without line numbers), modules and operator", SIZE_MAX, false, 0 },
    { "python", "Python frames and modules, whatever the operator is called", SIZE_MAX, false, 0 },
    { "module_operator", "operator names inside the same module path", SIZE_MAX, false, 0 },
    { "module", "module paths, whatever the operators are called (only where both sides run as many calls in them)",
        SIZE_MAX, true, 0 },
    { "operator", "operator names, whatever the modules are called", SIZE_MAX, false, 0 },
    { "renamed_operator",
        "operator names as the other trace calls them, learned from the pairs the other levels made (a vendor's "
        "custom operator for a standard one)",
        SIZE_MAX, false, 0 },
    { "kernels", "kernel signatures: the category and role of each kernel", SIZE_MAX, false, 16, true },
    { "first_kernel", "the category of the first kernel, between neighbours already paired", 16, false, 0 },
};
static_assert(std::size(kLevels) == LevelCount);

uint64_t mix(uint64_t hash, uint64_t value)
{
    hash ^= value + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
    return hash * 0xff51afd7ed558ccdull;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// Hashes of the Python frames and of the module classes above each frame, computed once a frame.
// The Python path starts again at each module: the frames far above the model (the process's
// bootstrap, a benchmark harness) are the least reliable part of a recorded stack (frames that
// outlive their parent by clock rounding are not nested) and say nothing the module path does not.
class FramePaths
{
public:
    FramePaths(const TraceStore& store, const KernelAttribution& attribution)
        : m_store(store)
        , m_frames(attribution.frames)
        , m_python(m_frames.size(), 0)
        , m_module(m_frames.size(), 0)
        , m_known(m_frames.size(), false)
    { }

    uint64_t python(int32_t frame) { return frame < 0 ? 0 : (compute(frame), m_python[size_t(frame)]); }
    uint64_t module(int32_t frame) { return frame < 0 ? 0 : (compute(frame), m_module[size_t(frame)]); }

private:
    void compute(int32_t frame)
    {
        m_pending.clear();
        for (int32_t f = frame; f >= 0 && !m_known[size_t(f)]; f = m_frames[size_t(f)].parent)
            m_pending.push_back(f);
        for (size_t k = m_pending.size(); k-- > 0;) {
            const auto f = size_t(m_pending[k]);
            const OpFrame& own = m_frames[f];
            const int32_t parent = own.parent;
            uint64_t python = parent >= 0 ? m_python[size_t(parent)] : 0;
            uint64_t module = parent >= 0 ? m_module[size_t(parent)] : 0;
            if (own.isPython)
                python = mix(python, std::hash<std::string_view>()(m_store.name(own.name)));
            if (own.isModule) {
                module = mix(module, std::hash<std::string>()(moduleClassName(m_store.name(own.name))));
                python = 0; // the module path stands for what is above: only Python frames inside it count
            }
            m_python[f] = python;
            m_module[f] = module;
            m_known[f] = true;
        }
    }

    const TraceStore& m_store;
    const std::vector<OpFrame>& m_frames;
    std::vector<uint64_t> m_python;
    std::vector<uint64_t> m_module;
    std::vector<bool> m_known;
    std::vector<int32_t> m_pending;
};

// A kernel as the kernel levels see it: its category and its role.
class KernelTokens
{
public:
    KernelTokens(const TraceStore& store, const KernelTypes& types)
        : m_store(store)
        , m_types(types)
        , m_roleOfName(store.strings.size(), -1)
    { }

    uint32_t operator()(uint32_t kernel)
    {
        const StringId name = m_store.kernels[kernel].name;
        if (m_roleOfName[name] < 0)
            m_roleOfName[name] = int16_t(kernelNameRole(m_store.name(name)));
        return uint32_t(m_types.ofKernel[kernel]) << 8 | uint32_t(m_roleOfName[name]);
    }

private:
    const TraceStore& m_store;
    const KernelTypes& m_types;
    std::vector<int16_t> m_roleOfName;
};

// Longer signatures are compared for equality only (the table below grows with their product).
constexpr size_t kLongestComparedSignature = 64;

} // namespace

KernelNameRole kernelNameRole(std::string_view kernelName)
{
    const std::string name = asciiLower(kernelName);
    if (contains(name, "splitkreduce") || contains(name, "split_k_reduce") || contains(name, "reduce_1block")
        || (contains(name, "splitk") && contains(name, "reduce")))
        return KernelNameRole::SplitKReduce;
    if (contains(name, "transpose") || contains(name, "nchwtonhwc") || contains(name, "nhwctonchw")
        || contains(name, "layout") || contains(name, "permute"))
        return KernelNameRole::LayoutConversion;
    if (contains(name, "fill") || contains(name, "zero_"))
        return KernelNameRole::Fill;
    if (contains(name, "copy"))
        return KernelNameRole::Copy;
    return KernelNameRole::None;
}

std::span<const AlignmentLevelSpec> autoAlignmentLevels()
{
    return kLevels;
}

size_t renamedOperatorLevel()
{
    return RenamedOperator;
}

uint32_t AlignmentKeyTable::intern(uint64_t hash)
{
    const uint32_t id = m_ids.findOrInsert(int64_t(hash), uint32_t(m_hashes.size()));
    if (id == m_hashes.size())
        m_hashes.push_back(hash);
    return id;
}

std::vector<uint32_t> AlignmentKeyTable::adopt(const AlignmentKeyTable& other)
{
    std::vector<uint32_t> ids;
    ids.reserve(other.m_hashes.size());
    for (const uint64_t hash : other.m_hashes)
        ids.push_back(intern(hash));
    return ids;
}

std::vector<std::vector<uint32_t>> alignmentKeys(const TraceStore& store, const KernelTypes& types,
    const KernelAttribution& attribution, const std::vector<OpOccurrence>& occurrences, std::span<const uint32_t> which,
    AlignmentKeyTable& table)
{
    std::vector<std::vector<uint32_t>> keys(LevelCount, std::vector<uint32_t>(which.size(), kNoKey));
    FramePaths paths(store, attribution);
    KernelTokens tokenOf(store, types);
    for (size_t i = 0; i < which.size(); ++i) {
        const OpOccurrence& occurrence = occurrences[which[i]];
        const uint64_t python = paths.python(occurrence.frame);
        const uint64_t module = paths.module(occurrence.frame);
        const uint64_t op = occurrence.symbol;
        auto key = [&](size_t level, uint64_t hash) { keys[level][i] = table.intern(mix(hash, level)); };
        key(Stack, mix(mix(python, module), op));
        if (python != 0)
            key(Python, mix(python, module));
        key(ModuleOperator, mix(module, op));
        if (module != 0)
            key(Module, module);
        key(Operator, op);
        uint64_t signature = 0;
        for (const uint32_t k : occurrence.kernels)
            signature = mix(signature, tokenOf(k));
        key(Kernels, signature);
        if (!occurrence.kernels.empty())
            key(FirstKernel, types.ofKernel[occurrence.kernels.front()]);
    }
    return keys;
}

std::vector<KernelSignature> kernelSignatures(
    const TraceStore& store, const KernelTypes& types, const std::vector<OpOccurrence>& occurrences)
{
    KernelTokens tokenOf(store, types);
    std::vector<KernelSignature> signatures(occurrences.size());
    for (size_t i = 0; i < occurrences.size(); ++i) {
        signatures[i].reserve(occurrences[i].kernels.size());
        for (const uint32_t k : occurrences[i].kernels)
            signatures[i].push_back(tokenOf(k));
    }
    return signatures;
}

uint32_t sharedKernels(std::span<const uint32_t> first, std::span<const uint32_t> second)
{
    if (first.empty() || second.empty())
        return 0;
    if (first.size() > kLongestComparedSignature || second.size() > kLongestComparedSignature)
        return std::equal(first.begin(), first.end(), second.begin(), second.end()) ? uint32_t(first.size()) : 0;
    if (first.size() == 1 || second.size() == 1) {
        // One kernel (most calls, and what long runs score cell by cell): shared if the other has it.
        const std::span<const uint32_t> one = first.size() == 1 ? first : second;
        const std::span<const uint32_t> other = first.size() == 1 ? second : first;
        const bool shared = std::find(other.begin(), other.end(), one.front()) != other.end();
        return shared && 2 >= other.size() ? 1 : 0;
    }
    // A longest common subsequence, one row at a time.
    std::vector<uint32_t> previous(second.size() + 1, 0), row(second.size() + 1, 0);
    for (const uint32_t token : first) {
        for (size_t j = 1; j <= second.size(); ++j)
            row[j] = token == second[j - 1] ? previous[j - 1] + 1 : std::max(previous[j], row[j - 1]);
        std::swap(previous, row);
    }
    const uint32_t shared = previous[second.size()];
    return 2 * size_t(shared) >= std::max(first.size(), second.size()) ? shared : 0;
}

} // namespace fusiondiff
