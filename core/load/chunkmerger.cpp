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

} // namespace

ChunkMerger::ChunkMerger(TraceStore& store)
    : m_store(store)
{
    for (uint32_t i = 0; i < store.pythonThreads.size(); ++i)
        m_threadIndex.emplace(store.pythonThreads[i], i);
}

void ChunkMerger::append(ChunkEvents& chunk)
{
    const TraceStore& from = chunk.store;
    m_names.resize(from.strings.size());
    for (StringId id = 0; id < from.strings.size(); ++id)
        m_names[id] = m_store.strings.intern(from.strings.get(id));

    const auto firstCpuOp = static_cast<uint32_t>(m_store.cpuOps.size());
    appendRenamed(m_store.kernels, from.kernels, m_names);
    m_store.gpuCopies.insert(m_store.gpuCopies.end(), from.gpuCopies.begin(), from.gpuCopies.end());
    appendRenamed(m_store.runtimeCalls, from.runtimeCalls, m_names);
    appendRenamed(m_store.cpuOps, from.cpuOps, m_names);
    appendRenamed(m_store.annotations, from.annotations, m_names);
    appendRenamed(m_store.modules, from.modules, m_names);
    for (CommMessage message : from.commMessages) {
        message.cpuOp += firstCpuOp;
        m_store.commMessages.push_back(message);
    }

    m_threads.resize(from.pythonThreads.size());
    for (size_t i = 0; i < from.pythonThreads.size(); ++i) {
        const auto [known, added]
            = m_threadIndex.try_emplace(from.pythonThreads[i], uint32_t(m_store.pythonThreads.size()));
        if (added)
            m_store.pythonThreads.push_back(from.pythonThreads[i]);
        m_threads[i] = known->second;
    }
    for (const PythonFrameEvent& frame : chunk.pythonFrames)
        m_pythonFrames.push_back({ frame.ts, frame.dur, m_threads[frame.thread], m_names[frame.name] });

    addCounts(m_store.statistics, from.statistics);
}

} // namespace fusiondiff
