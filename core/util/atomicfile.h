#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fusiondiff {

// Replaces the file at `path` with `contents` so that it is never seen half-written: the bytes go
// to a temporary file in the same folder (".NAME.fusiondiff-PID-N.tmp"), which is flushed to disk
// (fsync), closed, then renamed over `path`. On any failure the temporary file is removed, the old
// file at `path` is left as it was, and InputError(path, "cannot write the output file: ...")
// is thrown. The new file keeps the old one's permissions (a new one gets 0666 less the umask); a
// symbolic link is followed and its target replaced. A path that is not a regular file (/dev/null,
// a FIFO) is written in place: there is nothing to rename over.
// A temporary file left by a killed writer cannot be removed by it; the next write of the same
// file removes those whose process is gone.
void writeFileAtomically(const std::string& path, std::string_view contents);

// For tests: the steps of writeFileAtomically that can fail. The hook is called before each one
// (for Write: before each block, with the bytes written so far); a non-zero return is taken as
// that system call failing with this errno. nullptr (the default) injects nothing.
enum class AtomicWriteStep
{
    Create,
    Write,
    Sync,
    Close,
    Rename,
};
using AtomicWriteHook = int (*)(AtomicWriteStep step, uint64_t bytesWritten);
void setAtomicWriteHookForTesting(AtomicWriteHook hook);

} // namespace fusiondiff
