#include "graphwriter.h"

namespace fusiondiff::test {

GraphWriter::GraphWriter(TraceWriter& writer, bool amd)
    : m_writer(writer)
    , m_launchName(amd ? "hipGraphLaunch" : "cudaGraphLaunch")
{ }

void GraphWriter::launch(const std::vector<std::string>& kernels, double kernelDur)
{
    std::vector<std::pair<std::string, double>> timed;
    timed.reserve(kernels.size());
    for (const std::string& name : kernels)
        timed.emplace_back(name, kernelDur);
    launchTimed(timed);
}

void GraphWriter::launchTimed(const std::vector<std::pair<std::string, double>>& kernels)
{
    const int64_t correlation = m_nextCorrelation++;
    if (m_followHost) {
        m_cpuTs = m_writer.cpuTs();
        m_writer.host(10);
    }
    m_writer.rawEvent(R"({"ph": "X", "cat": "cuda_runtime", "name": ")" + m_launchName
        + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(m_cpuTs) + R"(, "dur": 5, "args": {"correlation": )"
        + std::to_string(correlation) + "}}");
    m_cpuTs += 10;
    for (const auto& [name, dur] : kernels)
        m_writer.kernel({ name, m_writer.nextTs(), dur, correlation, std::nullopt });
}

} // namespace fusiondiff::test
