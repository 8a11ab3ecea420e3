// The gzip decoder when FusionDiff is built with ISA-L (FUSIONDIFF_GZIP=isal, the default when
// libisal-dev is installed): igzip decodes 2-4 times as fast as zlib (docs/performance.md).

#include "load/inflater.h"

#include <isa-l.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace fusiondiff {

namespace {

// isal_inflate's error codes in zlib's words, so messages read the same with either decoder (the
// header's errors come from GzipHeader below).
const char* describe(int status)
{
    switch (status) {
    case ISAL_INVALID_BLOCK:
        return "invalid block type or block header";
    case ISAL_INVALID_SYMBOL:
        return "invalid code in the compressed data";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check: the CRC-32 or the length in the trailer does not match the data";
    case ISAL_NEED_DICT:
        return "the data needs a preset dictionary, which gzip files do not have";
    default:
        return "invalid compressed data";
    }
}

// The gzip member header (RFC 1952), read here rather than by isal_inflate: ISA-L 2.30 computes the
// header CRC (FHCRC) over the wrong bytes when the header arrives in more than one piece, and so
// rejects valid files. Checks what zlib checks, with zlib's words.
class GzipHeader
{
public:
    enum class Result
    {
        NeedMore,
        Done,
        Bad,
    };

    // Consumes header bytes from the front of `input`; Done once the whole header is read.
    Result read(const unsigned char*& input, size_t& size)
    {
        for (;;) {
            switch (m_field) {
            case Field::Fixed:
                if (!collect(input, size, 10))
                    return Result::NeedMore;
                if (m_bytes[0] != 0x1f || m_bytes[1] != 0x8b)
                    return bad("incorrect header check");
                if (m_bytes[2] != 8)
                    return bad("unknown compression method");
                if (m_bytes[3] & 0xe0)
                    return bad("unknown header flags set");
                m_flags = m_bytes[3];
                next(Field::ExtraLength);
                break;
            case Field::ExtraLength:
                if (m_flags & kExtra) {
                    if (!collect(input, size, 2))
                        return Result::NeedMore;
                    m_extraLeft = m_bytes[0] | (size_t(m_bytes[1]) << 8);
                }
                next(Field::Extra);
                break;
            case Field::Extra: {
                const size_t count = std::min(m_extraLeft, size);
                consume(input, size, count);
                m_extraLeft -= count;
                if (m_extraLeft > 0)
                    return Result::NeedMore;
                next(Field::Name);
                break;
            }
            case Field::Name:
                if ((m_flags & kName) && !skipString(input, size))
                    return Result::NeedMore;
                next(Field::Comment);
                break;
            case Field::Comment:
                if ((m_flags & kComment) && !skipString(input, size))
                    return Result::NeedMore;
                next(Field::HeaderCrc);
                break;
            case Field::HeaderCrc:
                if (m_flags & kHeaderCrc) {
                    const uint32_t expected = m_crc & 0xffff; // of the header bytes before the field
                    if (!collect(input, size, 2, false))
                        return Result::NeedMore;
                    if ((m_bytes[0] | (uint32_t(m_bytes[1]) << 8)) != expected)
                        return bad("header crc mismatch");
                }
                return Result::Done;
            }
        }
    }

    const char* error() const { return m_error; }

private:
    enum class Field
    {
        Fixed, // magic, method, flags, time, extra flags, OS
        ExtraLength,
        Extra,
        Name,
        Comment,
        HeaderCrc,
    };
    static constexpr unsigned char kHeaderCrc = 2, kExtra = 4, kName = 8, kComment = 16;

    void consume(const unsigned char*& input, size_t& size, size_t count, bool checksum = true)
    {
        if (checksum)
            m_crc = crc32_gzip_refl(m_crc, input, count);
        input += count;
        size -= count;
    }

    // Gathers a field of `count` bytes in m_bytes, however the input is split.
    bool collect(const unsigned char*& input, size_t& size, size_t count, bool checksum = true)
    {
        const size_t take = std::min(count - m_have, size);
        std::copy_n(input, take, m_bytes + m_have);
        m_have += take;
        consume(input, size, take, checksum);
        return m_have == count;
    }

    // Skips a zero-terminated string; true once its terminator is consumed.
    bool skipString(const unsigned char*& input, size_t& size)
    {
        const auto* end = static_cast<const unsigned char*>(std::memchr(input, 0, size));
        consume(input, size, end ? size_t(end - input) + 1 : size);
        return end != nullptr;
    }

    void next(Field field)
    {
        m_field = field;
        m_have = 0;
    }

    Result bad(const char* reason)
    {
        m_error = reason;
        return Result::Bad;
    }

    Field m_field = Field::Fixed;
    unsigned char m_bytes[10] {};
    size_t m_have = 0; // bytes of the current fixed-size field gathered so far
    unsigned char m_flags = 0;
    size_t m_extraLeft = 0;
    uint32_t m_crc = 0; // of the header bytes so far (gzip's CRC-32)
    const char* m_error = "";
};

class IsalInflater final : public Inflater
{
public:
    IsalInflater()
        : m_state(std::make_unique<inflate_state>())
    {
        startMember();
    }

    void startMember() override
    {
        isal_inflate_init(m_state.get());
        m_header = GzipHeader();
        m_headerDone = false;
    }

    Step inflate(const unsigned char* input, size_t inputSize, unsigned char* output, size_t outputSize) override
    {
        Step step;
        if (!m_headerDone) {
            const unsigned char* next = input;
            size_t left = inputSize;
            const GzipHeader::Result result = m_header.read(next, left);
            step.consumed = inputSize - left;
            if (result == GzipHeader::Result::Bad) {
                m_error = m_header.error();
                step.status = Status::Corrupt;
                return step;
            }
            if (result == GzipHeader::Result::NeedMore)
                return step;
            m_headerDone = true;
            // The deflate data follows; isal_inflate checks the trailer's CRC-32 and length
            // (ISIZE) after it and returns ISAL_INCORRECT_CHECKSUM when either differs.
            m_state->crc_flag = ISAL_GZIP_NO_HDR_VER;
            input = next;
            inputSize = left;
        }
        inflate_state& state = *m_state;
        state.next_in = const_cast<uint8_t*>(input);
        state.avail_in = static_cast<uint32_t>(inputSize);
        state.next_out = output;
        state.avail_out = static_cast<uint32_t>(outputSize);
        const int status = isal_inflate(&state);
        step.produced = outputSize - state.avail_out;
        // Where the decoder stopped, from next_in and never outside the input: after some errors on
        // damaged data ISA-L 2.30 leaves avail_in wrapped below zero (found by the fuzzer,
        // tests/data/fuzz-regressions/gzip-error-wraps-isal-avail-in.json.gz).
        const auto stoppedAt
            = reinterpret_cast<std::uintptr_t>(state.next_in) - reinterpret_cast<std::uintptr_t>(input);
        step.consumed += std::min<size_t>(stoppedAt, inputSize);
        if (status < 0 || status == ISAL_NEED_DICT) {
            m_error = describe(status);
            step.status = Status::Corrupt;
        } else if (stoppedAt > inputSize || state.avail_in != inputSize - stoppedAt) {
            m_error = "the decoder lost its place in the compressed data";
            step.status = Status::Corrupt;
        } else if (state.block_state == ISAL_BLOCK_FINISH) {
            // isal_inflate hands back the input bytes it had read past the trailer.
            step.status = Status::MemberEnd;
        }
        return step;
    }

    const std::string& errorReason() const override { return m_error; }

private:
    std::unique_ptr<inflate_state> m_state; // large (tens of KB): on the heap
    GzipHeader m_header;
    bool m_headerDone = false;
    std::string m_error;
};

} // namespace

std::unique_ptr<Inflater> makeInflater()
{
    return std::make_unique<IsalInflater>();
}

std::string inflaterName()
{
    return "ISA-L " + std::to_string(ISAL_MAJOR_VERSION) + "." + std::to_string(ISAL_MINOR_VERSION) + "."
        + std::to_string(ISAL_PATCH_VERSION);
}

} // namespace fusiondiff
