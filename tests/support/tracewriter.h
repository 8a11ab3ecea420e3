#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusiondiff::test {

// Builds small hand-made Kineto traces for tests.
class TraceWriter
{
public:
    struct Kernel
    {
        std::string name;
        double ts = 0;
        double dur = 1;
        std::optional<int64_t> correlation;
        std::optional<int64_t> externalId;
        int device = 0;
        int stream = 7;
    };

    // The seed's platform detection: roctracer_version for AMD, else deviceProperties.
    TraceWriter& amd(const std::string& gpuName = "AMD Instinct MI300X");
    TraceWriter& nvidia(const std::string& gpuName = "NVIDIA H100 80GB HBM3");
    TraceWriter& kernel(const Kernel& kernel);
    // Appends `count` kernels named `name` back to back, starting after the last kernel.
    TraceWriter& kernels(const std::string& name, int count, std::optional<int64_t> correlation = std::nullopt);
    // A raw JSON event object, for odd input.
    TraceWriter& rawEvent(const std::string& json);
    // The events so far in the reverse of the order they were written: a trace that does not list
    // its events in time order.
    TraceWriter& reverseEvents();

    // Eager execution as the PyTorch profiler records it: an operator (cpu_op) on the main thread,
    // inside the given nn.Module calls (outermost first, as python_function events), launching each
    // kernel with a runtime call whose correlation id the kernel carries. Kernels run on the GPU
    // timeline after their launch. An entry of `modules` that names a Python frame
    // ("models/llama.py(212): forward") is written as that frame instead of a module call.
    TraceWriter& launch(const std::string& op, const std::vector<std::string>& kernels,
        const std::vector<std::string>& modules = {}, double kernelDur = 3);
    // A user annotation (e.g. "ProfilerStep#3") around everything launched between begin and end;
    // a Python frame instead if the name is one ("worker.py(10): execute_model").
    TraceWriter& beginStep(const std::string& name);
    TraceWriter& endStep();
    // An nn.Module call (or a Python frame, if the name is one) around everything launched between
    // begin and end; calls nest.
    TraceWriter& beginCall(const std::string& name);
    TraceWriter& endCall();
    // The host runs for `us` (in the open calls, their own time) before what comes next: a
    // host-bound model, whose GPU waits for its launches.
    TraceWriter& host(double us);

    QByteArray json() const; // object format
    QByteArray arrayJson() const; // array format, with its final ']'
    // Writes json() to dir/name and returns the path.
    QString write(const QTemporaryDir& dir, const QString& name) const;

    double nextTs() const { return m_nextTs; }
    double cpuTs() const { return m_cpuTs; } // where the next operator starts on the host

private:
    std::string m_header;
    std::vector<std::string> m_events;
    double m_nextTs = 1000;
    int64_t m_nextCorrelation = 1;
    double m_cpuTs = 10;
    int64_t m_nextExternalId = 1;
    std::string m_stepName;
    double m_stepBegin = 0;
    std::vector<std::pair<std::string, double>> m_openCalls; // name, begin
};

// Writes `data` to dir/name (gzip-compressed if `gzip`) and returns the path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& data, bool gzip = false);
QByteArray gzipCompress(const QByteArray& data);

} // namespace fusiondiff::test
