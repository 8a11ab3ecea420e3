#include "load/bytereader.h"

#include "load/filedescriptor.h"
#include "load/inflater.h"
#include "load/prefetchingreader.h"
#include "util/inputerror.h"

#include <algorithm>
#include <array>

namespace fusiondiff {

namespace {

constexpr unsigned char kGzipMagic0 = 0x1f;
constexpr unsigned char kGzipMagic1 = 0x8b;
constexpr size_t kCompressedBlockSize = size_t(1) << 18;

// Where the raw bytes come from: a file or memory.
class ByteSource
{
public:
    virtual ~ByteSource() = default;
    virtual size_t read(char* destination, size_t size) = 0;
    virtual uint64_t size() const = 0;
};

class FileSource final : public ByteSource
{
public:
    explicit FileSource(const std::string& path)
        : m_file(path)
    { }
    size_t read(char* destination, size_t size) override { return m_file.read(destination, size); }
    uint64_t size() const override { return m_file.size(); }

private:
    FileDescriptor m_file;
};

class MemorySource final : public ByteSource
{
public:
    explicit MemorySource(std::string_view bytes)
        : m_bytes(bytes)
    { }
    size_t read(char* destination, size_t size) override
    {
        const size_t count = std::min(size, m_bytes.size() - m_position);
        std::copy_n(m_bytes.data() + m_position, count, destination);
        m_position += count;
        return count;
    }
    uint64_t size() const override { return m_bytes.size(); }

private:
    std::string_view m_bytes;
    size_t m_position = 0;
};

class PlainFileReader final : public ByteReader
{
public:
    PlainFileReader(std::string path, std::unique_ptr<ByteSource> file, std::string_view prefix)
        : ByteReader(std::move(path), file->size())
        , m_file(std::move(file))
        , m_prefix(prefix)
    { }

    size_t read(char* destination, size_t size) override
    {
        size_t copied = 0;
        if (m_prefixUsed < m_prefix.size()) {
            copied = std::min(size, m_prefix.size() - m_prefixUsed);
            std::copy_n(m_prefix.data() + m_prefixUsed, copied, destination);
            m_prefixUsed += copied;
        }
        if (copied < size)
            copied += m_file->read(destination + copied, size - copied);
        m_bytesRead += copied;
        return copied;
    }

    uint64_t fileBytesRead() const override { return m_bytesRead; }
    bool isCompressed() const override { return false; }

private:
    std::unique_ptr<ByteSource> m_file;
    std::string m_prefix; // the bytes read to detect gzip, handed out first
    size_t m_prefixUsed = 0;
    uint64_t m_bytesRead = 0;
};

// Streaming gzip decompression (the Inflater of this build: ISA-L or zlib): memory stays at one
// compressed block plus the decoder's state, whatever the size of the file. Concatenated gzip
// members are decompressed one after the other; zero bytes between members are skipped.
class GzipFileReader final : public ByteReader
{
public:
    GzipFileReader(std::string path, std::unique_ptr<ByteSource> file, std::string_view prefix)
        : ByteReader(std::move(path), file->size())
        , m_file(std::move(file))
        , m_inflater(makeInflater())
        , m_input(new unsigned char[kCompressedBlockSize])
    {
        std::copy(prefix.begin(), prefix.end(), m_input.get());
        m_next = m_input.get();
        m_available = prefix.size();
        m_fileBytesRead = prefix.size();
        m_inflater->startMember();
    }

    size_t read(char* destination, size_t size) override
    {
        auto* output = reinterpret_cast<unsigned char*>(destination);
        const size_t requested = std::min<size_t>(size, size_t(1) << 30);
        size_t produced = 0;
        while (produced < requested && !m_finished) {
            if (m_available == 0 && !m_endOfFile && !fetchInput())
                m_endOfFile = true;
            if (!m_insideMember) {
                if (m_available == 0) {
                    m_finished = true;
                    break;
                }
                if (!startNextMember())
                    continue;
            }
            const Inflater::Step step
                = m_inflater->inflate(m_next, m_available, output + produced, requested - produced);
            m_next += step.consumed;
            m_available -= step.consumed;
            produced += step.produced;
            if (step.status == Inflater::Status::Corrupt)
                throw InputError(path(), "corrupt gzip data: " + m_inflater->errorReason(), consumedFileBytes(),
                    InputError::OffsetKind::File);
            if (step.status == Inflater::Status::MemberEnd) {
                m_insideMember = false;
            } else if (step.consumed == 0 && step.produced == 0) {
                if (m_endOfFile)
                    throw InputError(path(),
                        "the gzip data is truncated: the file ends before the compressed stream does", m_fileBytesRead,
                        InputError::OffsetKind::File);
                if (m_available > 0) // neither decoder does this; a loop forever if one ever did
                    throw InputError(path(), "corrupt gzip data: the decoder stopped making progress",
                        consumedFileBytes(), InputError::OffsetKind::File);
            }
        }
        return produced;
    }

    uint64_t fileBytesRead() const override { return consumedFileBytes(); }
    bool isCompressed() const override { return true; }

private:
    uint64_t consumedFileBytes() const { return m_fileBytesRead - m_available; }

    bool fetchInput()
    {
        const size_t got = m_file->read(reinterpret_cast<char*>(m_input.get()), kCompressedBlockSize);
        if (got == 0)
            return false;
        m_fileBytesRead += got;
        m_next = m_input.get();
        m_available = got;
        return true;
    }

    // Between members: another member starts with the gzip magic; zero padding is skipped;
    // anything else is not gzip data. Returns false when it consumed padding instead.
    bool startNextMember()
    {
        if (*m_next == 0) {
            ++m_next;
            --m_available;
            return false;
        }
        if (*m_next != kGzipMagic0)
            throw InputError(path(), "unexpected data after the end of the gzip stream", consumedFileBytes(),
                InputError::OffsetKind::File);
        m_inflater->startMember();
        m_insideMember = true;
        return true;
    }

    std::unique_ptr<ByteSource> m_file;
    std::unique_ptr<Inflater> m_inflater;
    std::unique_ptr<unsigned char[]> m_input;
    const unsigned char* m_next = nullptr; // the input not yet given to the decoder
    size_t m_available = 0;
    uint64_t m_fileBytesRead = 0;
    bool m_insideMember = true;
    bool m_endOfFile = false;
    bool m_finished = false;
};

std::unique_ptr<ByteReader> openSource(const std::string& path, std::unique_ptr<ByteSource> file)
{
    std::array<char, 2> magic {};
    size_t got = 0;
    while (got < magic.size()) {
        const size_t n = file->read(magic.data() + got, magic.size() - got);
        if (n == 0)
            break;
        got += n;
    }
    if (got == 0)
        throw InputError(path, "the file is empty");
    const std::string_view prefix(magic.data(), got);
    if (got == 2 && static_cast<unsigned char>(magic[0]) == kGzipMagic0
        && static_cast<unsigned char>(magic[1]) == kGzipMagic1)
        return std::make_unique<GzipFileReader>(path, std::move(file), prefix);
    return std::make_unique<PlainFileReader>(path, std::move(file), prefix);
}

} // namespace

std::unique_ptr<ByteReader> openTraceFile(const std::string& path, bool inflateAhead)
{
    std::unique_ptr<ByteReader> reader = openSource(path, std::make_unique<FileSource>(path));
    // Decompression is as slow as parsing: let it run ahead on a thread of its own.
    if (reader->isCompressed() && inflateAhead)
        return std::make_unique<PrefetchingReader>(std::move(reader));
    return reader;
}

std::unique_ptr<ByteReader> openTraceBuffer(const std::string& name, std::string_view bytes)
{
    return openSource(name, std::make_unique<MemorySource>(bytes));
}

} // namespace fusiondiff
