#include "util/inputerror.h"

namespace fusiondiff {

namespace {
std::string describe(const std::string& path, const std::string& reason, uint64_t offset, InputError::OffsetKind kind)
{
    std::string text = path + ": " + reason;
    switch (kind) {
    case InputError::OffsetKind::None:
        break;
    case InputError::OffsetKind::File:
        text += " (at byte " + std::to_string(offset) + ")";
        break;
    case InputError::OffsetKind::Decompressed:
        text += " (at byte " + std::to_string(offset) + " of the decompressed data)";
        break;
    }
    return text;
}
} // namespace

InputError::InputError(std::string path, std::string reason)
    : InputError(std::move(path), std::move(reason), 0, OffsetKind::None)
{ }

InputError::InputError(std::string path, std::string reason, uint64_t byteOffset, OffsetKind kind)
    : std::runtime_error(describe(path, reason, byteOffset, kind))
    , m_path(std::move(path))
    , m_reason(std::move(reason))
    , m_byteOffset(byteOffset)
    , m_offsetKind(kind)
{ }

std::optional<uint64_t> InputError::byteOffset() const
{
    if (m_offsetKind == OffsetKind::None)
        return std::nullopt;
    return m_byteOffset;
}

Cancelled::Cancelled()
    : std::runtime_error("cancelled")
{ }

} // namespace fusiondiff
