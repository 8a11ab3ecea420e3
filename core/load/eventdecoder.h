#pragma once

#include "load/rawnametable.h"
#include "model/tracestore.h"

#include <simdjson.h>

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>

namespace fusiondiff {

struct PendingEvent;

// Turns one element of a trace's event array into a row of the TraceStore, reading only the
// fields the analyses use. Events of other categories (flows, instant events, ...) are left as
// soon as their `cat` is known, Python frames as soon as their name, times and thread are. Fields of the wrong type are
// coerced or ignored and counted in the store's LoadStatistics; only malformed JSON is an error.
class EventDecoder
{
public:
    explicit EventDecoder(TraceStore& store);

    // Decodes `element` and sets `end` to the first byte after it (the ',' or ']' that follows,
    // possibly preceded by whitespace). Returns the simdjson error if the element is malformed,
    // and INCOMPLETE_ARRAY_OR_OBJECT, recording nothing, if it would end past `limit`: an array
    // left open in the data that the bracket closing the parsed chunk closed instead. `element` by
    // reference: passed by value (through the stack) the call costs ~5% of a load's CPU.
    simdjson::error_code decode(simdjson::ondemand::value& element, const char* limit, const char*& end);

    // The Python frames decoded so far (TraceStore::pythonFrames holds those the loader keeps).
    std::deque<PythonFrameEvent> takePythonFrames() { return std::move(m_pythonFrames); }
    const std::deque<PythonFrameEvent>& pythonFrames() const { return m_pythonFrames; }
    void clearPythonFrames() { m_pythonFrames.clear(); }

private:
    // A value that is not an object: counted and skipped.
    simdjson::error_code skipNonObject(simdjson::ondemand::value element, const char* limit, const char*& end);
    // Adds the event to the store if its kind is one the analyses read.
    simdjson::error_code store(PendingEvent& event);
    simdjson::error_code storePythonFrame(const PendingEvent& event);
    void storeCpuOp(const PendingEvent& event, StringId nameId);
    // The name `raw` (still escaped) decodes to, in m_scratch; false if its escapes are malformed.
    bool decodeName(std::string_view raw, std::string_view& name);
    // The interned id of key(the name `raw` decodes to), found raw in `table` after the first time,
    // so that a name is decoded and interned once; false if the name is malformed.
    template<typename Key>
    bool internOnce(RawNameTable& table, std::string_view raw, Key&& key, StringId& id);
    // The index of (pid, tid) in the store's pythonThreads, added if new.
    uint32_t pythonThread(int64_t pid, int64_t tid);

    TraceStore& m_store;
    std::string m_scratch;
    std::string m_frameKey; // a Python frame's name as pythonFrameKey() writes it
    std::string m_shapeText; // an operator's shapes as OpShapes keeps them

    // Python frame names as they appear in the file (still escaped) -> the interned frame key.
    RawNameTable m_pythonFrameNames;
    // The names of the other events stored, as they appear in the file -> the interned name.
    RawNameTable m_eventNames;
    std::deque<PythonFrameEvent> m_pythonFrames;
    std::map<ThreadId, uint32_t> m_pythonThreadIndex;
    uint32_t m_lastPythonThread = 0; // consecutive frames are mostly on one thread
};

} // namespace fusiondiff
