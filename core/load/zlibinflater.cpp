// The gzip decoder when FusionDiff is built with FUSIONDIFF_GZIP=zlib (or without libisal-dev).

#include "load/inflater.h"

#include <new>
#include <zlib.h>

namespace fusiondiff {

namespace {

class ZlibInflater final : public Inflater
{
public:
    ZlibInflater()
    {
        // 16 + MAX_WBITS: the gzip wrapper only; inflate() checks the trailer's CRC-32 and length.
        if (inflateInit2(&m_stream, 16 + MAX_WBITS) != Z_OK)
            throw std::bad_alloc();
    }
    ~ZlibInflater() override { inflateEnd(&m_stream); }
    ZlibInflater(const ZlibInflater&) = delete;
    ZlibInflater& operator=(const ZlibInflater&) = delete;

    void startMember() override { inflateReset(&m_stream); }

    Step inflate(const unsigned char* input, size_t inputSize, unsigned char* output, size_t outputSize) override
    {
        m_stream.next_in = const_cast<Bytef*>(input);
        m_stream.avail_in = static_cast<uInt>(inputSize);
        m_stream.next_out = output;
        m_stream.avail_out = static_cast<uInt>(outputSize);
        const int status = ::inflate(&m_stream, Z_NO_FLUSH);
        Step step;
        step.consumed = inputSize - m_stream.avail_in;
        step.produced = outputSize - m_stream.avail_out;
        switch (status) {
        case Z_OK:
        case Z_BUF_ERROR: // no progress possible: more input or output space needed
            break;
        case Z_STREAM_END:
            step.status = Status::MemberEnd;
            break;
        case Z_MEM_ERROR:
            throw std::bad_alloc();
        case Z_NEED_DICT:
            m_error = "the data needs a preset dictionary, which gzip files do not have";
            step.status = Status::Corrupt;
            break;
        default: // Z_DATA_ERROR
            m_error = m_stream.msg ? m_stream.msg : "invalid compressed data";
            step.status = Status::Corrupt;
            break;
        }
        return step;
    }

    const std::string& errorReason() const override { return m_error; }

private:
    z_stream m_stream {};
    std::string m_error;
};

} // namespace

std::unique_ptr<Inflater> makeInflater()
{
    return std::make_unique<ZlibInflater>();
}

std::string inflaterName()
{
    return std::string("zlib ") + zlibVersion();
}

} // namespace fusiondiff
