#pragma once

#include <string>
#include <string_view>

namespace fusiondiff {

// The name of a Python frame (a `python_function` event) as the analysis compares it: without
// what changes between versions and machines of the same code: the line number
// ("models/llama.py(212): forward" -> "models/llama.py: forward"), the installation prefix up to
// site-packages/ or dist-packages/, and object addresses ("<built-in method append of list object
// at 0x7f1b...>" -> "<built-in method append of list object>"). Returns `name` itself when nothing
// changes, else a view of `scratch`.
std::string_view pythonFrameKey(std::string_view name, std::string& scratch);

} // namespace fusiondiff
