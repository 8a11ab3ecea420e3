#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace fusiondiff {

// Sequential access to the bytes of a trace file, decompressed if the file is gzip.
class ByteReader
{
public:
    virtual ~ByteReader() = default;

    // Reads up to `size` bytes into `destination`; returns 0 once all data has been read.
    // Throws InputError on read errors and on corrupt or truncated compressed data.
    virtual size_t read(char* destination, size_t size) = 0;

    // Bytes of the file on disk consumed so far (compressed bytes for gzip): drives progress.
    virtual uint64_t fileBytesRead() const = 0;

    virtual bool isCompressed() const = 0;

    const std::string& path() const { return m_path; }
    uint64_t fileSize() const { return m_fileSize; }

protected:
    ByteReader(std::string path, uint64_t fileSize)
        : m_path(std::move(path))
        , m_fileSize(fileSize)
    { }

private:
    std::string m_path;
    uint64_t m_fileSize;
};

// Opens a trace file after checking that it exists, is a regular file, is readable and is not
// empty. Gzip is recognised by its magic bytes, never by the file name. Throws InputError.
// `inflateAhead`: gzip is decompressed on a thread of its own, a few blocks ahead of the reader
// (PrefetchingReader), which pays when the reader also parses; a reader that hands its chunks to
// other threads (a LoadThreadPool) has the time to decompress itself, straight into its window,
// and is better off without the copy from the blocks (10 % of a gzip compare's CPU).
std::unique_ptr<ByteReader> openTraceFile(const std::string& path, bool inflateAhead = true);

// The same for bytes in memory (tests, fuzzing); `name` stands in for the path in messages. The
// bytes must outlive the reader.
std::unique_ptr<ByteReader> openTraceBuffer(const std::string& name, std::string_view bytes);

} // namespace fusiondiff
