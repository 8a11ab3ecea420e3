#pragma once

#include "load/eventdecoder.h"
#include "model/tracestore.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace fusiondiff {

// The events of one chunk of an event array, decoded on a thread of their own into a store of the
// chunk's own: its names interned in its own StringTable, its Python frames' threads indices into
// its own pythonThreads. Once merged, a ChunkEvents is used again for a later chunk of the same
// array (clearRows): its names, Python threads and the decoder's table of raw names stay, with the
// trace store's ids for them, so that a name met in every chunk is decoded, interned and merged
// once per ChunkEvents rather than once per chunk. Every name and thread it holds is then in the
// trace store already, which keeps the store's ids in file order (ChunkMerger). Not movable: the
// decoder refers to the store.
struct ChunkEvents
{
    ChunkEvents();
    ChunkEvents(const ChunkEvents&) = delete;
    ChunkEvents& operator=(const ChunkEvents&) = delete;

    // Empties the rows, the Python frames and the counts; keeps the names and threads.
    void clearRows();
    // False once its names hold more memory than is worth keeping between chunks.
    bool worthReusing() const;

    TraceStore store;
    EventDecoder decoder; // into `store`
    // ChunkMerger's: the trace store's ids for the first storeNames.size() of store.strings, and
    // its indices for the first storeThreads.size() of store.pythonThreads.
    std::vector<StringId> storeNames;
    std::vector<uint32_t> storeThreads;
    std::vector<StringId> storeShapes; // the same for store.shapeTexts
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
};

} // namespace fusiondiff
