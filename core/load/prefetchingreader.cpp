#include "load/prefetchingreader.h"

#include <cstring>

namespace fusiondiff {

PrefetchingReader::PrefetchingReader(std::unique_ptr<ByteReader> inner, size_t blockSize, size_t blocks)
    : ByteReader(inner->path(), inner->fileSize())
    , m_inner(std::move(inner))
    , m_blockSize(blockSize)
    , m_blocks(std::max<size_t>(blocks, 2))
{
    for (Block& block : m_blocks)
        block.data.reset(new char[blockSize]);
    m_thread = std::thread([this] { produce(); });
}

PrefetchingReader::~PrefetchingReader()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void PrefetchingReader::produce()
{
    for (;;) {
        Block* block = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return m_stop || m_filled < m_blocks.size(); });
            if (m_stop)
                return;
            block = &m_blocks[m_produceIndex];
        }
        // Fill the block outside the lock: this is the slow part (decompression).
        block->size = 0;
        block->last = false;
        block->error = nullptr;
        try {
            while (block->size < m_blockSize) {
                const size_t got = m_inner->read(block->data.get() + block->size, m_blockSize - block->size);
                if (got == 0) {
                    block->last = true;
                    break;
                }
                block->size += got;
            }
        } catch (...) {
            block->error = std::current_exception();
            block->last = true;
        }
        block->fileBytesAfter = m_inner->fileBytesRead();
        {
            const std::lock_guard lock(m_mutex);
            m_produceIndex = (m_produceIndex + 1) % m_blocks.size();
            ++m_filled;
        }
        m_changed.notify_all();
        if (block->last)
            return;
    }
}

bool PrefetchingReader::fetchBlock()
{
    if (m_current) {
        const bool last = m_current->last;
        const std::exception_ptr error = m_current->error;
        {
            const std::lock_guard lock(m_mutex);
            --m_filled; // give the block back
        }
        m_changed.notify_all();
        m_current = nullptr;
        if (error)
            std::rethrow_exception(error);
        if (last)
            return false;
    }
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_filled > 0; });
    }
    m_current = &m_blocks[m_consumeIndex];
    m_consumeIndex = (m_consumeIndex + 1) % m_blocks.size();
    m_position = 0;
    m_consumedFileBytes = m_current->fileBytesAfter;
    return true;
}

size_t PrefetchingReader::read(char* destination, size_t size)
{
    size_t copied = 0;
    while (copied < size && !m_finished) {
        if (!m_current || m_position == m_current->size) {
            if (!fetchBlock()) {
                m_finished = true;
                break;
            }
            continue;
        }
        const size_t count = std::min(size - copied, m_current->size - m_position);
        std::memcpy(destination + copied, m_current->data.get() + m_position, count);
        m_position += count;
        copied += count;
    }
    return copied;
}

} // namespace fusiondiff
