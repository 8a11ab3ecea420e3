#pragma once

#include "model/tracestore.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace fusiondiff {

// The events of one chunk of an event array, decoded on a thread of their own into a store of the
// chunk's own: its names interned in its own StringTable, its Python frames' threads indices into
// its own pythonThreads.
struct ChunkEvents
{
    TraceStore store;
    std::deque<PythonFrameEvent> pythonFrames;
};

// Appends chunks, in file order, to the trace's store, so that the store is the one a single
// decoder reading the whole array would have made: the chunk's names are interned in the order the
// chunk met them (so ids are given in file order), its Python threads are renumbered likewise, its
// communication messages point at the operators' new indices, and its counts are added.
class ChunkMerger
{
public:
    explicit ChunkMerger(TraceStore& store);

    void append(ChunkEvents& chunk);
    std::deque<PythonFrameEvent> takePythonFrames() { return std::move(m_pythonFrames); }

private:
    TraceStore& m_store;
    std::map<ThreadId, uint32_t> m_threadIndex;
    std::deque<PythonFrameEvent> m_pythonFrames;
    std::vector<StringId> m_names; // the chunk's string ids -> the store's
    std::vector<uint32_t> m_threads; // the chunk's Python threads -> the store's
};

} // namespace fusiondiff
