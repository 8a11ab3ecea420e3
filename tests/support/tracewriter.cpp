#include "tracewriter.h"

#include "report/jsonwriter.h"

#include <QFile>

#include <zlib.h>

#include <algorithm>
#include <cstdio>

namespace fusiondiff::test {

namespace {
std::string number(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}
} // namespace

TraceWriter& TraceWriter::amd(const std::string& gpuName)
{
    m_header = "\"roctracer_version\": 4.1, \"deviceProperties\": [{\"id\": 0, \"name\": " + jsonQuoted(gpuName)
        + ", \"warpSize\": 64}],";
    return *this;
}

TraceWriter& TraceWriter::nvidia(const std::string& gpuName)
{
    m_header = "\"deviceProperties\": [{\"id\": 0, \"name\": " + jsonQuoted(gpuName) + ", \"warpSize\": 32}],";
    return *this;
}

TraceWriter& TraceWriter::kernel(const Kernel& k)
{
    std::string args;
    if (k.externalId)
        args += "\"External id\": " + std::to_string(*k.externalId) + ", ";
    args += "\"device\": " + std::to_string(k.device) + ", \"stream\": " + std::to_string(k.stream);
    if (k.correlation)
        args += ", \"correlation\": " + std::to_string(*k.correlation);
    m_events.push_back("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " + jsonQuoted(k.name)
        + ", \"pid\": " + std::to_string(k.device) + ", \"tid\": " + std::to_string(k.stream)
        + ", \"ts\": " + number(k.ts) + ", \"dur\": " + number(k.dur) + ", \"args\": {" + args + "}}");
    m_nextTs = std::max(m_nextTs, k.ts + k.dur + 1);
    return *this;
}

TraceWriter& TraceWriter::kernels(const std::string& name, int count, std::optional<int64_t> correlation)
{
    for (int i = 0; i < count; ++i) {
        Kernel k;
        k.name = name;
        k.ts = m_nextTs;
        k.dur = 2;
        k.correlation = correlation ? *correlation : m_nextCorrelation++;
        kernel(k);
    }
    return *this;
}

TraceWriter& TraceWriter::rawEvent(const std::string& json)
{
    m_events.push_back(json);
    return *this;
}

TraceWriter& TraceWriter::reverseEvents()
{
    std::reverse(m_events.begin(), m_events.end());
    return *this;
}

namespace {

// "models/llama.py(212): forward": a Python frame, not a module's name.
bool isPythonFrame(const std::string& name)
{
    return name.find(".py(") != std::string::npos;
}

} // namespace

TraceWriter& TraceWriter::launch(const std::string& op, const std::vector<std::string>& kernelNames,
    const std::vector<std::string>& modules, double kernelDur)
{
    const double begin = m_cpuTs;
    const double opBegin = begin + double(modules.size());
    const int64_t externalId = m_nextExternalId++;
    double ts = opBegin + 1;
    for (const std::string& name : kernelNames) {
        const int64_t correlation = m_nextCorrelation++;
        m_events.push_back(
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" + number(ts)
            + R"(, "dur": 2, "args": {"External id": )" + std::to_string(externalId) + R"(, "correlation": )"
            + std::to_string(correlation) + "}}");
        Kernel k;
        k.name = name;
        k.ts = std::max(m_nextTs, ts + 100);
        k.dur = kernelDur;
        k.correlation = correlation;
        k.externalId = externalId;
        kernel(k);
        ts += 3;
    }
    const double opEnd = ts + 1;
    m_events.push_back(R"({"ph": "X", "cat": "cpu_op", "name": )" + jsonQuoted(op) + R"(, "pid": 1, "tid": 1, "ts": )"
        + number(opBegin) + R"(, "dur": )" + number(opEnd - opBegin) + R"(, "args": {"External id": )"
        + std::to_string(externalId) + "}}");
    for (size_t depth = 0; depth < modules.size(); ++depth) {
        const double moduleBegin = begin + double(depth);
        const double moduleEnd = opEnd + double(modules.size() - depth);
        m_events.push_back(R"({"ph": "X", "cat": "python_function", "name": )"
            + jsonQuoted(isPythonFrame(modules[depth]) ? modules[depth] : "nn.Module: " + modules[depth])
            + R"(, "pid": 1, "tid": 1, "ts": )" + number(moduleBegin) + R"(, "dur": )" + number(moduleEnd - moduleBegin)
            + "}");
    }
    m_cpuTs = opEnd + double(modules.size()) + 2;
    return *this;
}

TraceWriter& TraceWriter::beginStep(const std::string& name)
{
    m_stepName = name;
    m_stepBegin = m_cpuTs;
    m_cpuTs += 1;
    return *this;
}

TraceWriter& TraceWriter::endStep()
{
    const std::string category = isPythonFrame(m_stepName) ? "python_function" : "user_annotation";
    m_events.push_back(R"({"ph": "X", "cat": ")" + category + R"(", "name": )" + jsonQuoted(m_stepName)
        + R"(, "pid": 1, "tid": 1, "ts": )" + number(m_stepBegin) + R"(, "dur": )" + number(m_cpuTs - m_stepBegin)
        + "}");
    m_cpuTs += 1;
    return *this;
}

TraceWriter& TraceWriter::beginCall(const std::string& name)
{
    m_openCalls.emplace_back(isPythonFrame(name) ? name : "nn.Module: " + name, m_cpuTs);
    m_cpuTs += 1;
    return *this;
}

TraceWriter& TraceWriter::host(double us)
{
    m_cpuTs += us;
    return *this;
}

TraceWriter& TraceWriter::endCall()
{
    const auto [name, begin] = m_openCalls.back();
    m_openCalls.pop_back();
    m_events.push_back(R"({"ph": "X", "cat": "python_function", "name": )" + jsonQuoted(name)
        + R"(, "pid": 1, "tid": 1, "ts": )" + number(begin) + R"(, "dur": )" + number(m_cpuTs - begin) + "}");
    m_cpuTs += 1;
    return *this;
}

QByteArray TraceWriter::json() const
{
    std::string text = "{\"schemaVersion\": 1, " + m_header + "\n\"traceEvents\": [\n";
    for (size_t i = 0; i < m_events.size(); ++i)
        text += (i ? ",\n  " : "  ") + m_events[i];
    text += "\n], \"traceName\": \"test\"}\n";
    return QByteArray::fromStdString(text);
}

QByteArray TraceWriter::arrayJson() const
{
    std::string text = "[\n";
    for (size_t i = 0; i < m_events.size(); ++i)
        text += (i ? ",\n  " : "  ") + m_events[i];
    text += "\n]\n";
    return QByteArray::fromStdString(text);
}

QString TraceWriter::write(const QTemporaryDir& dir, const QString& name) const
{
    return writeFile(dir, name, json());
}

QByteArray gzipCompress(const QByteArray& data)
{
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<qsizetype>(deflateBound(&stream, static_cast<uLong>(data.size()))) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(static_cast<qsizetype>(stream.total_out));
    deflateEnd(&stream);
    return out;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& data, bool gzip)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(gzip ? gzipCompress(data) : data);
    return path;
}

} // namespace fusiondiff::test
