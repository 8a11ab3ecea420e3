#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace fusiondiff {

// A streaming decoder of one gzip member at a time (header, deflate data, and the trailer's CRC-32
// and length, both checked), behind the gzip reader of bytereader.cpp. Two implementations, one
// chosen at build time by the CMake option FUSIONDIFF_GZIP: ISA-L's igzip (isalinflater.cpp, the
// default when libisal-dev is installed) and zlib (zlibinflater.cpp, the fallback).
class Inflater
{
public:
    enum class Status
    {
        Progress, // more input or output space is needed to go on
        MemberEnd, // the member's trailer matched; the input after it was not consumed
        Corrupt, // errorReason() says why
    };
    struct Step
    {
        size_t consumed = 0; // input bytes used
        size_t produced = 0; // output bytes written
        Status status = Status::Progress;
    };

    virtual ~Inflater() = default;

    // Prepares for a member whose gzip header starts at the next input byte.
    virtual void startMember() = 0;
    // Decompresses from `input` into `output` as far as both allow. Both sizes are at most 1 GiB.
    // With no input it still delivers what the decoder holds. Throws std::bad_alloc.
    virtual Step inflate(const unsigned char* input, size_t inputSize, unsigned char* output, size_t outputSize) = 0;
    // What is wrong with the data, after a Corrupt step.
    virtual const std::string& errorReason() const = 0;
};

std::unique_ptr<Inflater> makeInflater();

// The decoder this build uses and its version, e.g. "ISA-L 2.30.0" or "zlib 1.2.13".
std::string inflaterName();

} // namespace fusiondiff
