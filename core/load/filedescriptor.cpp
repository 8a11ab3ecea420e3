#include "load/filedescriptor.h"

#include "util/inputerror.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fusiondiff {

namespace {
std::string systemReason(int error)
{
    switch (error) {
    case ENOENT:
        return "no such file";
    case EACCES:
    case EPERM:
        return "permission denied: the file is not readable";
    case EISDIR:
        return "is a directory, not a trace file";
    default:
        return std::strerror(error);
    }
}
} // namespace

FileDescriptor::FileDescriptor(const std::string& path)
    : m_path(path)
{
    struct stat info
    {
    };
    if (::stat(path.c_str(), &info) != 0)
        throw InputError(path, systemReason(errno));
    if (S_ISDIR(info.st_mode))
        throw InputError(path, "is a directory, not a trace file (give the .json or .json.gz file inside it)");
    if (!S_ISREG(info.st_mode))
        throw InputError(path, "is not a regular file");
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0)
        throw InputError(path, systemReason(errno));
    m_size = static_cast<uint64_t>(info.st_size);
    ::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

FileDescriptor::~FileDescriptor()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

size_t FileDescriptor::read(char* destination, size_t size)
{
    for (;;) {
        const ssize_t got = ::read(m_fd, destination, size);
        if (got >= 0)
            return static_cast<size_t>(got);
        if (errno != EINTR)
            throw InputError(m_path, std::string("read error: ") + systemReason(errno));
    }
}

} // namespace fusiondiff
