#include "load/chunkmerger.h"

namespace fusiondiff {

namespace {

template<typename Event>
void appendRenamed(std::vector<Event>& to, const std::vector<Event>& from, const std::vector<StringId>& names)
{
    const size_t first = to.size();
    to.insert(to.end(), from.begin(), from.end());
    for (size_t i = first; i < to.size(); ++i)
        to[i].name = names[to[i].name];
}

void addCounts(LoadStatistics& to, const LoadStatistics& from)
{
    to.nonObjectEvents += from.nonObjectEvents;
    to.eventsMissingFields += from.eventsMissingFields;
    to.eventsMissingDuration += from.eventsMissingDuration;
    to.coercedFields += from.coercedFields;
    to.ignoredFields += from.ignoredFields;
}

// A ChunkEvents whose names take more than this is not used again: they were kept to spare work on
// names that repeat, and a trace of ever new names would only make them pile up (with the decoder's
// raw copies of them, about twice this, for each of the few ChunkEvents of a load: about what the
// chunk buffers take).
constexpr size_t kReusedNamesBytes = size_t(2) << 20;

} // namespace

ChunkEvents::ChunkEvents()
    : decoder(store)
{ }

void ChunkEvents::clearRows()
{
    store.kernels.clear();
    store.gpuCopies.clear();
    store.runtimeCalls.clear();
    store.cpuOps.clear();
    store.annotations.clear();
    store.modules.clear();
    store.commMessages.clear();
    store.opShapes.clear();
    store.statistics = LoadStatistics();
    decoder.clearPythonFrames();
}

bool ChunkEvents::worthReusing() const
{
    return store.strings.memoryUsage() + store.shapeTexts.memoryUsage() <= kReusedNamesBytes;
}

ChunkMerger::ChunkMerger(TraceStore& store)
    : m_store(store)
{
    for (uint32_t i = 0; i < store.pythonThreads.size(); ++i)
        m_threadIndex.emplace(store.pythonThreads[i], i);
}

void ChunkMerger::append(ChunkEvents& chunk)
{
    // The names the chunk met first, in the order it met them (those of the chunks before it on
    // the same ChunkEvents are in the store already).
    const TraceStore& from = chunk.store;
    std::vector<StringId>& names = chunk.storeNames;
    for (auto id = static_cast<StringId>(names.size()); id < from.strings.size(); ++id)
        names.push_back(m_store.strings.intern(from.strings.get(id)));

    const auto firstCpuOp = static_cast<uint32_t>(m_store.cpuOps.size());
    appendRenamed(m_store.kernels, from.kernels, names);
    m_store.gpuCopies.insert(m_store.gpuCopies.end(), from.gpuCopies.begin(), from.gpuCopies.end());
    appendRenamed(m_store.runtimeCalls, from.runtimeCalls, names);
    appendRenamed(m_store.cpuOps, from.cpuOps, names);
    appendRenamed(m_store.annotations, from.annotations, names);
    appendRenamed(m_store.modules, from.modules, names);
    for (CommMessage message : from.commMessages) {
        message.cpuOp += firstCpuOp;
        m_store.commMessages.push_back(message);
    }
    std::vector<StringId>& shapes = chunk.storeShapes;
    for (auto id = static_cast<StringId>(shapes.size()); id < from.shapeTexts.size(); ++id)
        shapes.push_back(m_store.shapeTexts.intern(from.shapeTexts.get(id)));
    for (const OpShapes& shape : from.opShapes)
        m_store.opShapes.push_back({ shape.cpuOp + firstCpuOp, shapes[shape.text] });

    std::vector<uint32_t>& threads = chunk.storeThreads;
    for (size_t i = threads.size(); i < from.pythonThreads.size(); ++i) {
        const auto [known, added]
            = m_threadIndex.try_emplace(from.pythonThreads[i], uint32_t(m_store.pythonThreads.size()));
        if (added)
            m_store.pythonThreads.push_back(from.pythonThreads[i]);
        threads.push_back(known->second);
    }
    for (const PythonFrameEvent& frame : chunk.decoder.pythonFrames())
        m_pythonFrames.push_back({ frame.ts, frame.dur, threads[frame.thread], names[frame.name] });

    addCounts(m_store.statistics, from.statistics);
}

} // namespace fusiondiff
