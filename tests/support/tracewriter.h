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

    QByteArray json() const; // object format
    QByteArray arrayJson() const; // array format, with its final ']'
    // Writes json() to dir/name and returns the path.
    QString write(const QTemporaryDir& dir, const QString& name) const;

    double nextTs() const { return m_nextTs; }

private:
    std::string m_header;
    std::vector<std::string> m_events;
    double m_nextTs = 1000;
    int64_t m_nextCorrelation = 1;
};

// Writes `data` to dir/name (gzip-compressed if `gzip`) and returns the path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& data, bool gzip = false);
QByteArray gzipCompress(const QByteArray& data);

} // namespace fusiondiff::test
