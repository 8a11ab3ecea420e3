#include "util/atomicfile.h"

#include "util/inputerror.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h> // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace fusiondiff {

namespace {

constexpr size_t kBlockSize = size_t(1) << 20;
constexpr std::string_view kTempMarker = ".fusiondiff-";
constexpr std::string_view kTempSuffix = ".tmp";

std::atomic<AtomicWriteHook> g_hook { nullptr };
std::atomic<unsigned> g_counter { 0 };

int injected(AtomicWriteStep step, uint64_t written = 0)
{
    const AtomicWriteHook hook = g_hook.load();
    return hook ? hook(step, written) : 0;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error)
{
    throw InputError(path, "cannot write the output file: " + what + std::strerror(error));
}

// The folder and the file name of `path`.
std::pair<std::string, std::string> splitPath(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return { ".", path };
    return { slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1) };
}

// Removes ".NAME.fusiondiff-PID-N.tmp" files in `folder` whose process no longer runs: what a
// writer killed between creating and renaming its temporary file leaves behind.
void removeStaleTemporaries(const std::string& folder, const std::string& name)
{
    DIR* directory = ::opendir(folder.c_str());
    if (!directory)
        return;
    const std::string prefix = "." + name + std::string(kTempMarker);
    while (const dirent* entry = ::readdir(directory)) {
        const std::string_view file(entry->d_name);
        if (file.size() <= prefix.size() + kTempSuffix.size() || file.substr(0, prefix.size()) != prefix
            || file.substr(file.size() - kTempSuffix.size()) != kTempSuffix)
            continue;
        const std::string rest(file.substr(prefix.size()));
        char* end = nullptr;
        const long pid = std::strtol(rest.c_str(), &end, 10);
        if (pid <= 0 || *end != '-' || pid == ::getpid())
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)
            continue; // that writer is still running
        ::unlink((folder + "/" + std::string(file)).c_str());
    }
    ::closedir(directory);
}

void writeAll(int fd, const std::string& path, std::string_view contents)
{
    uint64_t written = 0;
    while (written < contents.size()) {
        const size_t block = std::min<size_t>(kBlockSize, contents.size() - written);
        ssize_t n;
        if (const int error = injected(AtomicWriteStep::Write, written)) {
            errno = error;
            n = -1;
        } else {
            n = ::write(fd, contents.data() + written, block);
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw InputError(path, std::string("cannot write the output file: ") + std::strerror(errno));
        }
        written += static_cast<uint64_t>(n);
    }
}

// /dev/null, a FIFO, a terminal: written in place.
void writeInPlace(const std::string& path, std::string_view contents)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        fail(path, "", errno);
    try {
        writeAll(fd, path, contents);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0)
        fail(path, "", errno);
}

} // namespace

void setAtomicWriteHookForTesting(AtomicWriteHook hook)
{
    g_hook = hook;
}

void writeFileAtomically(const std::string& requestedPath, std::string_view contents)
{
    std::string path = requestedPath;
    struct stat target
    {
    };
    bool exists = ::lstat(path.c_str(), &target) == 0;
    if (exists && S_ISLNK(target.st_mode)) {
        char resolved[PATH_MAX];
        if (::realpath(path.c_str(), resolved)) { // the link's target exists: replace that
            path = resolved;
            exists = ::lstat(path.c_str(), &target) == 0;
        } else {
            exists = false; // a dangling link: replaced by the file
        }
    }
    if (exists && S_ISDIR(target.st_mode))
        throw InputError(requestedPath, "cannot write the output file: it is a directory");
    if (exists && !S_ISREG(target.st_mode))
        return writeInPlace(path, contents);

    const auto [folder, name] = splitPath(path);
    removeStaleTemporaries(folder, name);
    const std::string temporary = folder + "/." + name + std::string(kTempMarker) + std::to_string(::getpid()) + "-"
        + std::to_string(g_counter++) + std::string(kTempSuffix);

    int error = injected(AtomicWriteStep::Create);
    const int fd = error ? -1 : ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        fail(requestedPath, "", error ? error : errno);

    bool fdOpen = true;
    try {
        if (exists)
            ::fchmod(fd, target.st_mode & 07777); // best effort, as a copy would
        writeAll(fd, requestedPath, contents);
        if ((error = injected(AtomicWriteStep::Sync)) != 0 || ::fsync(fd) != 0)
            fail(requestedPath, "flushing it to disk: ", error ? error : errno);
        fdOpen = false;
        error = injected(AtomicWriteStep::Close);
        if (::close(fd) != 0 || error)
            fail(requestedPath, "closing it: ", error ? error : errno);
        if ((error = injected(AtomicWriteStep::Rename)) != 0 || ::rename(temporary.c_str(), path.c_str()) != 0)
            fail(requestedPath, "renaming the temporary file over it: ", error ? error : errno);
    } catch (...) {
        if (fdOpen)
            ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    // Make the rename itself durable; the file is in place whatever this returns.
    const int directory = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        ::fsync(directory);
        ::close(directory);
    }
}

} // namespace fusiondiff
