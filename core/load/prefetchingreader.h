#pragma once

#include "load/bytereader.h"

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fusiondiff {

// Runs another ByteReader on a thread of its own, a few blocks ahead of whoever reads: gzip
// decompression then overlaps with parsing. Memory stays at `blocks` x `blockSize`. Errors of the
// inner reader are thrown by read() when the reader reaches the point where they happened.
class PrefetchingReader final : public ByteReader
{
public:
    explicit PrefetchingReader(
        std::unique_ptr<ByteReader> inner, size_t blockSize = size_t(4) << 20, size_t blocks = 3);
    ~PrefetchingReader() override;
    PrefetchingReader(const PrefetchingReader&) = delete;
    PrefetchingReader& operator=(const PrefetchingReader&) = delete;

    size_t read(char* destination, size_t size) override;
    // The file bytes behind the data read so far (not what the thread has read ahead).
    uint64_t fileBytesRead() const override { return m_consumedFileBytes; }
    bool isCompressed() const override { return m_inner->isCompressed(); }

private:
    struct Block
    {
        std::unique_ptr<char[]> data;
        size_t size = 0;
        uint64_t fileBytesAfter = 0; // the inner reader's progress once the block was filled
        bool last = false; // no data after this block
        std::exception_ptr error; // thrown once the block's data has been read
    };

    void produce();
    bool fetchBlock(); // makes m_current the next filled block; false at the end

    std::unique_ptr<ByteReader> m_inner;
    size_t m_blockSize;
    std::vector<Block> m_blocks;
    size_t m_produceIndex = 0; // the producer's next block
    size_t m_filled = 0; // filled blocks waiting for the reader
    bool m_stop = false;
    std::mutex m_mutex;
    std::condition_variable m_changed;

    // The reader's side (only touched by the reading thread).
    size_t m_consumeIndex = 0;
    Block* m_current = nullptr;
    size_t m_position = 0;
    bool m_finished = false;
    uint64_t m_consumedFileBytes = 0;

    std::thread m_thread; // last: started once everything else is ready
};

} // namespace fusiondiff
