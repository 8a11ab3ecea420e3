#pragma once

#include <deque>
#include <string>
#include <string_view>

namespace fusiondiff {

struct PythonFrameEvent;
struct TraceStore;

// The name of a Python frame (a `python_function` event) as the analysis compares it: without
// what changes between versions and machines of the same code: the line number
// ("models/llama.py(212): forward" -> "models/llama.py: forward"), the installation prefix up to
// site-packages/ or dist-packages/, and object addresses ("<built-in method append of list object
// at 0x7f1b...>" -> "<built-in method append of list object>"). Returns `name` itself when nothing
// changes, else a view of `scratch`.
std::string_view pythonFrameKey(std::string_view name, std::string& scratch);

// Stores in `store.pythonFrames` those of `frames` within which something starts on their thread
// (an operator, a module or a runtime call). The others place nothing in the call
// stacks the analysis builds and are about half of a with_stack trace's frames (leaf calls such as
// "<built-in method ...>"). Thread by thread (in ThreadId order), each thread's frames in the
// order of `frames`. Runs once the whole file is read (the profiler writes the runtime
// calls after the Python frames); `frames` is a deque so that collecting a million frames never
// holds two copies of them, as a growing vector would.
void storePythonFramesThatHoldSomething(TraceStore& store, const std::deque<PythonFrameEvent>& frames);

} // namespace fusiondiff
