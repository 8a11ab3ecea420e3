#pragma once

namespace fusiondiff {

// Gives memory the process has freed back to the system: the C library keeps freed pages of its
// heap (and of other threads' arenas) resident for reuse, and large vectors allocated later are
// mapped anew rather than placed in them, so without this the freed pages and the new ones add up
// in the peak RSS. Also after a cancelled or failed load, so that what the user sees in their system
// monitor drops too. A no-op where the C library has no way to do it.
void returnFreedMemoryToSystem();

} // namespace fusiondiff
