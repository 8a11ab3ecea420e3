#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace fusiondiff {

// A file the user gave us cannot be used. Carries the file, the reason and, where known, the byte
// offset of the problem, so that every front end can tell the user exactly what to fix.
class InputError : public std::runtime_error
{
public:
    enum class OffsetKind
    {
        None,
        File, // offset into the file as stored on disk
        Decompressed, // offset into the decompressed data of a gzip file
    };

    InputError(std::string path, std::string reason);
    InputError(std::string path, std::string reason, uint64_t byteOffset, OffsetKind kind);

    const std::string& path() const { return m_path; }
    const std::string& reason() const { return m_reason; }
    std::optional<uint64_t> byteOffset() const;
    OffsetKind offsetKind() const { return m_offsetKind; }

private:
    std::string m_path;
    std::string m_reason;
    uint64_t m_byteOffset = 0;
    OffsetKind m_offsetKind = OffsetKind::None;
};

// The user asked to stop; thrown out of the loaders and analyses when their cancel flag is set.
class Cancelled : public std::runtime_error
{
public:
    Cancelled();
};

} // namespace fusiondiff
