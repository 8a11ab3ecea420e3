#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fusiondiff {

// An open, read-only POSIX file that closes itself.
class FileDescriptor
{
public:
    // Throws InputError naming the path when the file cannot be opened or is not a regular file.
    explicit FileDescriptor(const std::string& path);
    ~FileDescriptor();
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;

    uint64_t size() const { return m_size; }

    // Reads up to `size` bytes, retrying on EINTR; 0 means end of file. Throws InputError.
    size_t read(char* destination, size_t size);

private:
    std::string m_path;
    int m_fd = -1;
    uint64_t m_size = 0;
};

} // namespace fusiondiff
