#pragma once

#include "tracewriter.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fusiondiff::test {

// Writes CUDA/HIP graph launches into a TraceWriter: each launch is the runtime call on the CPU
// (hipGraphLaunch or cudaGraphLaunch, 10 µs apart from 100 µs on) and its kernels back to back on
// the GPU, all under one correlation id (from 5000 on), as a replay trace records a graph.
class GraphWriter
{
public:
    GraphWriter(TraceWriter& writer, bool amd);

    // Kernels of one duration each.
    void launch(const std::vector<std::string>& kernels, double kernelDur = 4);
    // Kernels with a duration of their own.
    void launchTimed(const std::vector<std::pair<std::string, double>>& kernels);
    // Launch calls at the writer's host time from now on (10 µs each), so that they fall inside the
    // writer's steps and calls, rather than 10 µs apart from 100 µs on.
    void followWriterHost() { m_followHost = true; }

private:
    TraceWriter& m_writer;
    std::string m_launchName;
    int64_t m_nextCorrelation = 5000;
    double m_cpuTs = 100;
    bool m_followHost = false;
};

} // namespace fusiondiff::test
