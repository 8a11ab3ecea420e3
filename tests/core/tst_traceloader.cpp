#include "load/traceloader.h"
#include "load/traceset.h"
#include "testdata.h"
#include "tracewriter.h"
#include "util/inputerror.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <limits>

#include <optional>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace fusiondiff;
using test::TraceWriter;

namespace {

QString real(const char* name)
{
    return test::dataPath(QStringLiteral("real/") + QString::fromUtf8(name));
}

TraceStore load(const QString& path, size_t chunkBytes = LoadOptions().chunkBytes)
{
    LoadOptions options;
    options.chunkBytes = chunkBytes;
    return loadTrace(path.toStdString(), options);
}

// The InputError loading `path` throws; none if it loads, for the caller to fail on with
// QVERIFY2(error, kLoaded): a Qt Test failure ends that test function, not the whole suite.
std::optional<InputError> loadError(const QString& path)
{
    try {
        load(path);
    } catch (const InputError& error) {
        return error;
    }
    return std::nullopt;
}
constexpr const char* kLoaded = "loaded without an error";

// The reason of loadError(path), or "(loaded without an error)" for a QCOMPARE to fail on.
std::string loadErrorReason(const QString& path)
{
    const std::optional<InputError> error = loadError(path);
    return error ? error->reason() : std::string("(") + kLoaded + ")";
}

void verifySameEvents(const TraceStore& a, const TraceStore& b)
{
    QCOMPARE(a.kernels.size(), b.kernels.size());
    for (size_t i = 0; i < a.kernels.size(); ++i) {
        const KernelEvent& x = a.kernels[i];
        const KernelEvent& y = b.kernels[i];
        QCOMPARE(a.name(x.name), b.name(y.name));
        QCOMPARE(x.ts, y.ts);
        QCOMPARE(x.dur, y.dur);
        QCOMPARE(x.correlation, y.correlation);
        QCOMPARE(x.externalId, y.externalId);
        QCOMPARE(x.device, y.device);
        QCOMPARE(x.stream, y.stream);
    }
    QCOMPARE(a.runtimeCalls.size(), b.runtimeCalls.size());
    for (size_t i = 0; i < a.runtimeCalls.size(); ++i) {
        QCOMPARE(a.name(a.runtimeCalls[i].name), b.name(b.runtimeCalls[i].name));
        QCOMPARE(a.runtimeCalls[i].correlation, b.runtimeCalls[i].correlation);
        QCOMPARE(a.runtimeCalls[i].graphLaunch, b.runtimeCalls[i].graphLaunch);
    }
    QCOMPARE(a.cpuOps.size(), b.cpuOps.size());
    for (size_t i = 0; i < a.cpuOps.size(); ++i) {
        QCOMPARE(a.name(a.cpuOps[i].name), b.name(b.cpuOps[i].name));
        QCOMPARE(a.cpuOps[i].externalId, b.cpuOps[i].externalId);
        QCOMPARE(a.cpuOps[i].ts, b.cpuOps[i].ts);
    }
    QCOMPARE(a.annotations.size(), b.annotations.size());
    QCOMPARE(a.statistics.events, b.statistics.events);
    QCOMPARE(a.platform, b.platform);
    QCOMPARE(a.gpuName, b.gpuName);
}

// Events whose strings and args look like event boundaries, to trip the chunker at every cut.
QByteArray trickyTrace(bool arrayFormat, bool closeArray = true)
{
    TraceWriter writer;
    writer.nvidia();
    for (int i = 0; i < 40; ++i) {
        writer.rawEvent(
            R"({"ph": "X", "cat": "cpu_op", "name": "op },{ \"x\": [{\"y\": 1}]}, {", "pid": 1, "tid": 2, "ts": )"
            + std::to_string(100 + i) + R"(, "dur": 1, "args": {"External id": )" + std::to_string(i)
            + R"(, "Concrete Inputs": ["}, {", "]", "},\n{"], "nested": [{"a": {"b": [1, {"c": "}"}]}}, {"d": 2}]}})");
        TraceWriter::Kernel k;
        k.name = "kernel_" + std::to_string(i) + " \"quoted\" \\ back\\slash },{ \xc3\xa9 }]";
        k.ts = 1000 + i * 10;
        k.dur = 3.5;
        k.correlation = 500 + i;
        k.externalId = i;
        writer.kernel(k);
        writer.rawEvent(R"({"name": "ac2g", "ph": "f", "id": )" + std::to_string(i)
            + R"(, "pid": 0, "tid": 7, "ts": 1, "cat": "ac2g", "bp": "e", "args": [{"x": 1}, {"y": 2}]})");
        writer.rawEvent(
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel\u0020", "pid": 1, "tid": 2, "ts": )"
            + std::to_string(990 + i * 10) + R"(, "dur": 2, "args": {"correlation": )" + std::to_string(500 + i)
            + R"(, "External id": )" + std::to_string(i) + "}}");
    }
    if (!arrayFormat)
        return writer.json();
    QByteArray json = writer.arrayJson();
    if (!closeArray)
        json.chop(json.size() - json.lastIndexOf(']'));
    return json;
}

} // namespace

class TestTraceLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Counts from Python's json module on the same files (tests/data/real/README.md).
    void realTraces_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("runtime");
        QTest::addColumn<int>("cpuOps");
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("label");
        QTest::newRow("H100 eager") << test::sampleB() << 1465 << 1922 << 4186 << "NVIDIA"
                                    << "NVIDIA H100 80GB HBM3"
                                    << "Qwen1.5-0.5B-Chat.h100 (NVIDIA H100 80GB HBM3)";
        QTest::newRow("MI300X eager") << test::sampleA() << 1516 << 1707 << 4619 << "AMD"
                                      << "AMD Instinct MI300X VF"
                                      << "Qwen1.5-0.5B-Chat.mi300x (AMD Instinct MI300X VF)";
        QTest::newRow("2021 schema") << real("resnet50_2021_schema.worker0.pt.trace.json.gz") << 9564 << 10920 << 33384
                                     << "NVIDIA"
                                     << "Unknown GPU"
                                     << "resnet50_2021_schema.worker0 (Unknown GPU)";
        QTest::newRow("plain json") << real("dlrm_worker0.v100.pt.trace.json") << 245 << 525 << 1633 << "NVIDIA"
                                    << "Tesla V100-SXM2-32GB"
                                    << "dlrm_worker0.v100 (Tesla V100-SXM2-32GB)";
        QTest::newRow("no kernels") << real("no_kernels.a100.json.gz") << 0 << 1862 << 375 << "NVIDIA"
                                    << "NVIDIA A100-PG509-200"
                                    << "no_kernels.a100 (NVIDIA A100-PG509-200)";
        QTest::newRow("AMD by warpSize only") << real("minitoy_train_rocm6.2.mi250.json.gz") << 14 << 21 << 70 << "AMD"
                                              << "AMD Radeon Graphics"
                                              << "minitoy_train_rocm6.2.mi250 (AMD Radeon Graphics)";
        QTest::newRow("empty GPU name") << real("vllm_decode_full_graph.mi300x.json.gz") << 425 << 20 << 100 << "AMD"
                                        << ""
                                        << "vllm_decode_full_graph.mi300x (AMD)";
        QTest::newRow("CUDA graphs") << real("hta_trace_diff_test.v100.json.gz") << 9876 << 21167 << 31236 << "NVIDIA"
                                     << "Tesla V100-SXM2-16GB"
                                     << "hta_trace_diff_test.v100 (Tesla V100-SXM2-16GB)";
    }

    void realTraces()
    {
        QFETCH(QString, path);
        QFETCH(int, kernels);
        QFETCH(int, runtime);
        QFETCH(int, cpuOps);
        QFETCH(QString, platform);
        QFETCH(QString, gpu);
        QFETCH(QString, label);
        const TraceStore store = load(path);
        QCOMPARE(static_cast<int>(store.kernels.size()), kernels);
        QCOMPARE(static_cast<int>(store.runtimeCalls.size()), runtime);
        QCOMPARE(static_cast<int>(store.cpuOps.size()), cpuOps);
        QCOMPARE(QString::fromUtf8(platformName(store.platform)), platform);
        QCOMPARE(QString::fromStdString(store.gpuName), gpu);
        QCOMPARE(QString::fromStdString(store.label), label);
        QCOMPARE(store.statistics.eventsMissingFields, uint64_t(0));
        QCOMPARE(store.statistics.nonObjectEvents, uint64_t(0));
    }

    void graphLaunchesShareTheirCorrelation()
    {
        const TraceStore store = load(real("vllm_decode_full_graph.mi300x.json.gz"));
        int64_t graphCorrelation = kNoId;
        for (const RuntimeEvent& call : store.runtimeCalls) {
            if (call.graphLaunch) {
                QCOMPARE(store.name(call.name), std::string_view("hipGraphLaunch"));
                graphCorrelation = call.correlation;
            }
        }
        QVERIFY(graphCorrelation != kNoId);
        const auto replayed = std::count_if(store.kernels.begin(), store.kernels.end(),
            [&](const KernelEvent& k) { return k.correlation == graphCorrelation; });
        QCOMPARE(replayed, 421);
    }

    void kernelFieldsFromTheFile()
    {
        const TraceStore store = load(test::sampleB());
        const KernelEvent& first = store.kernels.front();
        QVERIFY(store.name(first.name)
                    .starts_with(
                        "void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda("));
        QCOMPARE(first.ts, 1428625731622.25);
        QCOMPARE(first.dur, 18.112);
        QCOMPARE(first.correlation, int64_t(675771));
        QCOMPARE(first.device, int32_t(0));
        QCOMPARE(first.stream, int32_t(7));
        QCOMPARE(first.externalId, kNoId); // this kernel has none in the file
    }

    void oldSchemaUsesArgsStreamAndLowerCaseExternalId()
    {
        const TraceStore store = load(real("resnet50_2021_schema.worker0.pt.trace.json.gz"));
        // "tid": "stream 7" in the file; args.stream is 7.
        QCOMPARE(store.kernels.front().stream, int32_t(7));
        QCOMPARE(store.kernels.front().correlation, int64_t(31255));
        const auto withExternal = std::count_if(store.runtimeCalls.begin(), store.runtimeCalls.end(),
            [](const RuntimeEvent& call) { return call.externalId != kNoId && call.externalId != 0; });
        QVERIFY(withExternal > 1000);
    }

    void gzipAndPlainGiveTheSameStore()
    {
        QTemporaryDir dir;
        QFile plain(real("dlrm_worker0.v100.pt.trace.json"));
        QVERIFY(plain.open(QIODevice::ReadOnly));
        const QByteArray bytes = plain.readAll();
        // A misleading name: gzip is recognised by its magic bytes.
        const QString gz = test::writeFile(dir, QStringLiteral("trace.json"), bytes, true);
        const TraceStore a = load(real("dlrm_worker0.v100.pt.trace.json"));
        const TraceStore b = load(gz);
        verifySameEvents(a, b);
        QVERIFY(b.statistics.gzip);
        QCOMPARE(b.statistics.dataBytes, uint64_t(bytes.size()));
    }

    // Windows tools may start a file with a UTF-8 byte-order mark; it is skipped, plain or gzip.
    void byteOrderMarkIsSkipped_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<bool>("arrayFormat");
        QTest::newRow("plain") << QByteArray("\xEF\xBB\xBF") << false << false;
        QTest::newRow("gzip") << QByteArray("\xEF\xBB\xBF") << true << false;
        QTest::newRow("then whitespace") << QByteArray("\xEF\xBB\xBF \r\n\t") << false << false;
        QTest::newRow("then whitespace, gzip, array format") << QByteArray("\xEF\xBB\xBF\n") << true << true;
    }

    void byteOrderMarkIsSkipped()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(bool, gzip);
        QFETCH(bool, arrayFormat);
        QTemporaryDir dir;
        TraceWriter writer;
        writer.nvidia().kernels("k", 40);
        const QByteArray json = arrayFormat ? writer.arrayJson() : writer.json();
        const TraceStore plain = load(test::writeFile(dir, QStringLiteral("plain.json"), json));
        const TraceStore marked = load(test::writeFile(dir, QStringLiteral("marked.json"), prefix + json, gzip));
        verifySameEvents(plain, marked);
        QCOMPARE(marked.kernels.size(), size_t(40));
        QCOMPARE(marked.statistics.arrayFormat, arrayFormat);
        QCOMPARE(marked.statistics.dataBytes, uint64_t(prefix.size() + json.size()));
    }

    void concatenatedGzipMembers()
    {
        QTemporaryDir dir;
        const QByteArray json = TraceWriter().nvidia().kernels("k", 3).json();
        const qsizetype half = json.size() / 2;
        const QByteArray twoMembers = test::gzipCompress(json.left(half)) + test::gzipCompress(json.mid(half));
        const QString path = test::writeFile(dir, QStringLiteral("members.json.gz"), twoMembers);
        QCOMPARE(load(path).kernels.size(), size_t(3));
    }

    // The chunker must give the same events whatever the chunk size: tiny chunks force cuts
    // everywhere, including inside strings and nested objects that look like event boundaries.
    void chunkSizeDoesNotChangeTheResult_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("eager") << test::sampleA();
        QTest::newRow("graphs") << real("sglang_qwen3-8b_decode.mi300x.json.gz");
        QTest::newRow("2021") << real("resnet50_2021_schema.worker0.pt.trace.json.gz");
    }

    void chunkSizeDoesNotChangeTheResult()
    {
        QFETCH(QString, path);
        const TraceStore reference = load(path);
        for (const size_t chunk : { size_t(512), size_t(4099), size_t(65536) }) {
            const TraceStore chunked = load(path, chunk);
            verifySameEvents(reference, chunked);
        }
    }

    void trickyStringsAtEveryCut()
    {
        QTemporaryDir dir;
        for (const bool arrayFormat : { false, true }) {
            const QString path = test::writeFile(dir, QStringLiteral("tricky.json"), trickyTrace(arrayFormat));
            const TraceStore reference = load(path);
            QCOMPARE(reference.kernels.size(), size_t(40));
            QCOMPARE(reference.cpuOps.size(), size_t(40));
            QCOMPARE(reference.runtimeCalls.size(), size_t(40));
            QCOMPARE(reference.statistics.events, uint64_t(160));
            QCOMPARE(reference.name(reference.kernels[3].name),
                std::string_view("kernel_3 \"quoted\" \\ back\\slash },{ \xc3\xa9 }]"));
            QCOMPARE(reference.name(reference.cpuOps[0].name), std::string_view("op },{ \"x\": [{\"y\": 1}]}, {"));
            QCOMPARE(reference.name(reference.runtimeCalls[0].name), std::string_view("cudaLaunchKernel "));
            for (size_t chunk = 64; chunk < 2048; chunk += 37)
                verifySameEvents(reference, load(path, chunk));
        }
    }

    void arrayFormat()
    {
        QTemporaryDir dir;
        const QString closed = test::writeFile(dir, QStringLiteral("closed.json"), trickyTrace(true));
        const QString open = test::writeFile(dir, QStringLiteral("open.json"), trickyTrace(true, false));
        const QString trailingComma
            = test::writeFile(dir, QStringLiteral("comma.json"), trickyTrace(true, false).trimmed() + ",\n");
        const TraceStore a = load(closed);
        QVERIFY(a.statistics.arrayFormat);
        QVERIFY(!a.statistics.missingClosingBracket);
        for (const QString& path : { open, trailingComma }) {
            for (const size_t chunk : { size_t(100), size_t(1) << 20 }) {
                const TraceStore b = load(path, chunk);
                QVERIFY(b.statistics.missingClosingBracket);
                verifySameEvents(a, b);
            }
        }
        // Platform defaults as the seed decides them without deviceProperties.
        QCOMPARE(a.platform, Platform::NVIDIA);
        QCOMPARE(a.gpuName, std::string("Unknown GPU"));
    }

    void emptyEventArrays()
    {
        QTemporaryDir dir;
        QCOMPARE(
            load(test::writeFile(dir, QStringLiteral("a.json"), "{\"traceEvents\": []}")).kernels.size(), size_t(0));
        QCOMPARE(load(test::writeFile(dir, QStringLiteral("b.json"), " [ ] ")).statistics.events, uint64_t(0));
        QCOMPARE(load(test::writeFile(dir, QStringLiteral("c.json"), "[")).statistics.events, uint64_t(0));
    }

    void oddFieldsAreCoercedOrSkippedAndCounted()
    {
        QTemporaryDir dir;
        TraceWriter writer;
        writer.amd();
        writer.rawEvent(
            R"({"ph": "X", "cat": "kernel", "name": "ts_as_string", "pid": "0", "tid": "7", "ts": "12.5", "dur": 2, "args": {"correlation": 1}})");
        writer.rawEvent(
            R"({"ph": "X", "cat": "kernel", "name": "no_dur", "pid": 0, "tid": 7, "ts": 20, "args": {"correlation": 2.0}})");
        writer.rawEvent(
            R"({"ph": "X", "cat": "kernel", "name": "args_not_object", "pid": 0, "tid": 7, "ts": 30, "dur": 1, "args": [1, 2]})");
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 40, "dur": 1, "args": {}})");
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": "no_ts", "pid": 0, "tid": 7, "dur": 1})");
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": "bad_ts", "ts": "soon", "dur": 1})");
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": 42, "ts": 50, "dur": 1})");
        writer.rawEvent(R"("a string where an event should be")");
        writer.rawEvent(R"([1, {"cat": "kernel"}])");
        writer.rawEvent(R"(null)");
        writer.rawEvent(
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": "thread 3", "ts": 5, "dur": 9, "args": {"External id": "77"}})");
        writer.rawEvent(R"({"ph": "X", "cat": 5, "name": "cat is a number", "ts": 1})");
        const TraceStore store = load(writer.write(dir, QStringLiteral("odd.json")));
        QCOMPARE(store.kernels.size(), size_t(3));
        QCOMPARE(store.kernels[0].ts, 12.5);
        QCOMPARE(store.kernels[0].device, int32_t(0));
        QCOMPARE(store.kernels[0].stream, int32_t(7));
        QCOMPARE(store.kernels[1].dur, 0.0);
        QCOMPARE(store.kernels[1].correlation, int64_t(2));
        QCOMPARE(store.kernels[2].correlation, kNoId);
        QCOMPARE(store.cpuOps.size(), size_t(1));
        QCOMPARE(store.cpuOps[0].externalId, int64_t(77));
        QCOMPARE(store.cpuOps[0].tid, int64_t(-1));
        const LoadStatistics& s = store.statistics;
        QCOMPARE(s.events, uint64_t(12));
        QCOMPARE(s.nonObjectEvents, uint64_t(3));
        QCOMPARE(s.eventsMissingFields, uint64_t(4)); // no name, no ts, bad ts, numeric name
        QCOMPARE(s.eventsMissingDuration, uint64_t(1));
        QCOMPARE(s.coercedFields, uint64_t(5)); // "12.5", "0", "7", 2.0, "77"
        QCOMPARE(s.ignoredFields, uint64_t(2)); // args [1, 2], "thread 3"
    }

    void gpuIdsBeyond32BitsAreClamped()
    {
        // Kernels and copies keep device and stream in 32 bits (48 bytes a kernel): profilers write
        // small numbers there; a larger one is kept as the nearest 32-bit value, not wrapped.
        QTemporaryDir dir;
        TraceWriter writer;
        writer.rawEvent(
            R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {"device": 5000000000, "stream": -5000000000}})");
        writer.rawEvent(
            R"({"ph": "X", "cat": "gpu_memcpy", "name": "c", "pid": 2147483647, "tid": -2147483648, "ts": 3, "dur": 1})");
        writer.rawEvent(
            R"({"ph": "X", "cat": "gpu_memset", "name": "s", "pid": 3, "tid": 2147483648, "ts": 5, "dur": 1})");
        const TraceStore store = load(writer.write(dir, QStringLiteral("ids.json")));
        QCOMPARE(store.kernels.size(), size_t(1));
        QCOMPARE(store.kernels[0].device, std::numeric_limits<int32_t>::max());
        QCOMPARE(store.kernels[0].stream, std::numeric_limits<int32_t>::min());
        QCOMPARE(store.gpuCopies.size(), size_t(2));
        QCOMPARE(store.gpuCopies[0].device, std::numeric_limits<int32_t>::max());
        QCOMPARE(store.gpuCopies[0].stream, std::numeric_limits<int32_t>::min());
        QCOMPARE(store.gpuCopies[1].device, int32_t(3));
        QCOMPARE(store.gpuCopies[1].stream, std::numeric_limits<int32_t>::max());
    }

    void unicodeAndEscapesInNames()
    {
        QTemporaryDir dir;
        TraceWriter writer;
        // (Not a raw string literal: moc misreads escaped quotes inside those.)
        writer.rawEvent(
            "{\"cat\": \"kernel\", \"name\": \"\\u00e9\\ud83d\\ude80 \\\"q\\\" \\t,x\", \"ts\": 1, \"dur\": 1}");
        writer.rawEvent(R"({"cat": "kernel", "name": "raw é🚀", "ts": 2, "dur": 1})");
        const TraceStore store = load(writer.write(dir, QStringLiteral("u.json")));
        QCOMPARE(store.name(store.kernels[0].name), std::string_view("\xc3\xa9\xf0\x9f\x9a\x80 \"q\" \t,x"));
        QCOMPARE(store.name(store.kernels[1].name), std::string_view("raw \xc3\xa9\xf0\x9f\x9a\x80"));
    }

    // The decoder caches names as they are in the file: names of one length that differ only where
    // its hash does not look (byte 11 of 40) stay apart, for kernels, operators and Python frames,
    // and two spellings of one name (escaped or not) are one name.
    void namesThatHashAlikeStayApart()
    {
        const std::string a = "torch/nn/moAules/module.py(1736): _call_";
        const std::string b = "torch/nn/moBules/module.py(1736): _call_";
        QTemporaryDir dir;
        TraceWriter writer;
        writer.nvidia();
        for (int i = 0; i < 4; ++i) {
            const std::string& name = i % 2 ? b : a;
            const std::string ts = std::to_string(10 * i);
            writer.rawEvent(R"({"ph": "X", "cat": "python_function", "name": ")" + name
                + R"(", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": 5})");
            writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" + ts
                + R"(, "dur": 1})");
            writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" + ts
                + R"(, "dur": 1})");
        }
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": "caf\u00e9", "pid": 0, "tid": 7, "ts": 50, "dur": 1})");
        writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": "café", "pid": 0, "tid": 7, "ts": 51, "dur": 1})");
        const TraceStore store = load(writer.write(dir, QStringLiteral("alike.json")));
        QCOMPARE(store.kernels.size(), size_t(6));
        QCOMPARE(store.cpuOps.size(), size_t(4));
        QCOMPARE(store.pythonFrames.size(), size_t(4));
        for (size_t i = 0; i < 4; ++i) {
            const std::string& name = i % 2 ? b : a;
            QCOMPARE(store.name(store.kernels[i].name), std::string_view(name));
            QCOMPARE(store.name(store.cpuOps[i].name), std::string_view(name));
            // The frame's key leaves the line number out.
            const std::string key = name.substr(0, 26) + ": _call_";
            QCOMPARE(store.name(store.pythonFrames[i].name), std::string_view(key));
        }
        QVERIFY(store.kernels[0].name != store.kernels[1].name);
        QCOMPARE(store.kernels[0].name, store.kernels[2].name);
        QCOMPARE(store.kernels[4].name, store.kernels[5].name);
        QCOMPARE(store.name(store.kernels[5].name), std::string_view("caf\xc3\xa9"));
    }

    // Operators whose name holds one of the collectives' words keep their first input as the
    // message; words that only start alike do not count.
    void collectiveOperatorsByName()
    {
        const std::vector<std::pair<std::string, bool>> names { { "vllm::all_reduce", true },
            { "c10d::allreduce_", true }, { "c10d::_allgather_base_", true }, { "nccl:all_gather", true },
            { "c10d::reduce_scatter_tensor_coalesced_", true }, { "c10d::alltoall_base_", true },
            { "c10d::all_to_all", true }, { "aten::allclose", false }, { "aten::all", false },
            { "reduce_scatte", false }, { "aten::gather", false }, { "ball", false } };
        QTemporaryDir dir;
        TraceWriter writer;
        writer.nvidia();
        for (size_t i = 0; i < names.size(); ++i)
            writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": ")" + names[i].first
                + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(i)
                + R"(, "dur": 1, "args": {"Input Dims": [[2, 3]], "Input type": ["float"]}})");
        const TraceStore store = load(writer.write(dir, QStringLiteral("collectives.json")));
        std::vector<uint32_t> expected;
        for (size_t i = 0; i < names.size(); ++i) {
            if (names[i].second)
                expected.push_back(uint32_t(i));
        }
        std::vector<uint32_t> found;
        for (const CommMessage& message : store.commMessages) {
            found.push_back(message.cpuOp);
            QCOMPARE(message.elements, int64_t(6));
            QCOMPARE(message.elementBytes, uint32_t(4));
        }
        QCOMPARE(found, expected);
    }

    void manyChunksOfGeneratedEvents()
    {
        QTemporaryDir dir;
        TraceWriter writer;
        writer.nvidia();
        for (int i = 0; i < 60000; ++i)
            writer.rawEvent(
                R"({"ph": "X", "cat": "python_function", "name": "torch/nn/modules/module.py(1736): _call_impl", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"Python id": 5, "Python parent id": 4}})");
        writer.kernels("gemm", 30000);
        const QString path = writer.write(dir, QStringLiteral("big.json"));
        QVERIFY(QFileInfo(path).size() > 12 * 1024 * 1024);
        std::vector<uint64_t> progress;
        LoadOptions options;
        options.chunkBytes = 1 << 20;
        options.progress = [&](uint64_t done, uint64_t total) {
            QCOMPARE(total, uint64_t(QFileInfo(path).size()));
            progress.push_back(done);
        };
        const TraceStore store = loadTrace(path.toStdString(), options);
        QCOMPARE(store.kernels.size(), size_t(30000));
        QCOMPARE(store.statistics.events, uint64_t(90000));
        QVERIFY(progress.size() > 5);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.back(), uint64_t(QFileInfo(path).size()));
    }

    void cancelledLoadGivesItsMemoryBack()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer keeps freed memory in quarantine");
#endif
        QTemporaryDir dir;
        TraceWriter writer;
        writer.nvidia();
        writer.kernels("a kernel with a name long enough to take some memory in the string table", 400000);
        const QString path = writer.write(dir, QStringLiteral("big.json"));
        auto residentBytes = [] {
            QFile statm(QStringLiteral("/proc/self/statm"));
            statm.open(QIODevice::ReadOnly);
            return statm.readAll().split(' ').value(1).toLongLong() * ::sysconf(_SC_PAGESIZE);
        };
        returnFreedMemoryToSystem();
        const qint64 before = residentBytes();
        std::atomic<bool> cancel { false };
        qint64 peak = 0;
        LoadOptions options;
        options.cancel = &cancel;
        options.progress = [&](uint64_t done, uint64_t total) {
            peak = std::max(peak, residentBytes());
            if (done * 10 > total * 7)
                cancel = true; // cancel 70% in
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadTrace(path.toStdString(), options));
        returnFreedMemoryToSystem();
        const qint64 after = residentBytes();
        // It held memory (42-45 MiB sampled at progress calls, 40 once under ctest -j2), well above
        // what it may keep.
        QVERIFY2(peak - before > 32 * 1024 * 1024, qPrintable(QString::number(peak - before)));
        QVERIFY2(after - before < 16 * 1024 * 1024, qPrintable(QString::number(after - before))); // and gave it back
    }

    void cancelStopsLoading()
    {
        std::atomic<bool> cancel { true };
        LoadOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadTrace(test::sampleB().toStdString(), options));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("offset"); // -1: no offset expected

        const QByteArray good = TraceWriter().nvidia().kernels("k", 50).json();
        QByteArray garbage(4096, '\0');
        QRandomGenerator random(7);
        for (char& c : garbage)
            c = static_cast<char>(random.bounded(256));
        garbage[0] = '\x13';

        QTest::newRow("whitespace") << QByteArray(" \n\t ") << false << "only whitespace" << qint64(4);
        QTest::newRow("not json") << QByteArray("hello world") << false
                                  << "expected '{' or '[' at the start but found 'h'" << qint64(0);
        QTest::newRow("byte-order mark, then not json")
            << QByteArray("\xEF\xBB\xBFhello") << false << "expected '{' or '[' at the start but found 'h'"
            << qint64(3);
        QTest::newRow("byte-order mark, then not json, in gzip")
            << QByteArray("\xEF\xBB\xBF\x01{}") << true << "expected '{' or '[' at the start but found byte 0x01"
            << qint64(3);
        QTest::newRow("byte-order mark only") << QByteArray("\xEF\xBB\xBF") << false << "only whitespace" << qint64(3);
        QTest::newRow("half a byte-order mark")
            << QByteArray("\xEF\xBB{\"traceEvents\": []}") << false << "found byte 0xef" << qint64(0);
        QTest::newRow("two byte-order marks")
            << QByteArray("\xEF\xBB\xBF\xEF\xBB\xBF[]") << false << "found byte 0xef" << qint64(3);
        QTest::newRow("nul bytes") << QByteArray(16, '\0') << false << "found byte 0x00" << qint64(0);
        QTest::newRow("binary garbage") << garbage << false << "not a JSON trace" << qint64(0);
        QTest::newRow("truncated") << good.left(good.size() / 2) << false << "truncated" << qint64(-2);
        QTest::newRow("truncated in gzip") << good.left(good.size() / 2) << true << "truncated" << qint64(-2);
        QTest::newRow("truncated after the array")
            << good.left(good.lastIndexOf(']') + 1) << false << "truncated" << qint64(-2);
        // An array left open at the end: the bracket that closes the parsed chunk closed it, and
        // the reader once took it for a whole event and went on past the end of the data.
        QTest::newRow("open array at the end") << QByteArray("[[1,2") << false << "truncated" << qint64(5);
        QTest::newRow("open array after an event")
            << QByteArray(R"({"traceEvents": [{"cat": "x"}, [1, {"a": 2})") << false << "truncated" << qint64(43);
        QTest::newRow("no traceEvents") << QByteArray(R"({"schemaVersion": 1, "events": []})") << false
                                        << "no \"traceEvents\" array" << qint64(-1);
        QTest::newRow("traceEvents not an array")
            << QByteArray(R"({"traceEvents": {"a": 1}})") << false << "\"traceEvents\" is not an array" << qint64(16);
        QTest::newRow("missing comma") << QByteArray(
            R"({"traceEvents": [{"cat": "kernel", "name": "a", "ts": 1} {"cat": "x"}]})")
                                       << false << "a comma, colon or bracket is missing" << qint64(57);
        QTest::newRow("bad event syntax")
            << QByteArray(R"({"traceEvents": [{"cat": "kernel" "name": "a"}, {"cat": "x"}]})") << false
            << "malformed JSON" << qint64(34);
        QTest::newRow("bad number") << QByteArray(R"({"traceEvents": [{"cat": "kernel", "name": "a", "ts": 1.2.3}]})")
                                    << false << "malformed JSON number" << qint64(-2);
        QTest::newRow("control char in name")
            << QByteArray("{\"traceEvents\": [{\"cat\": \"kernel\", \"name\": \"a\x01\", \"ts\": 1}]}") << false
            << "control character" << qint64(-2);
        QTest::newRow("invalid utf-8") << QByteArray(
            "{\"traceEvents\": [{\"cat\": \"kernel\", \"name\": \"a\xff\", \"ts\": 1}]}")
                                       << false << "invalid UTF-8" << qint64(45);
        QTest::newRow("deep nesting around the events")
            << QByteArray("{\"x\": " + QByteArray(5000, '[') + QByteArray(5000, ']') + ", \"traceEvents\": []}")
            << false << "nested more than 1024 levels" << qint64(1030);
        QTest::newRow("trailing garbage") << QByteArray(R"({"traceEvents": []} x)") << false
                                          << "unexpected 'x' after the end of the JSON document" << qint64(20);
        QTest::newRow("trailing comma in object format")
            << QByteArray(R"({"traceEvents": [{"cat": "x"},]})") << false << "malformed JSON" << qint64(30);
        QTest::newRow("traceEvents twice")
            << QByteArray(R"({"traceEvents": [], "traceEvents": []})") << false << "appears twice" << qint64(20);
        QTest::newRow("bad value before events")
            << QByteArray(R"({"x": tru, "traceEvents": []})") << false << "invalid JSON value 'tru'" << qint64(6);
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, gzip);
        QFETCH(QString, reason);
        QFETCH(qint64, offset);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("bad.json"), bytes, gzip);
        const std::optional<InputError> error = loadError(path);
        QVERIFY2(error, kLoaded);
        QCOMPARE(QString::fromStdString(error->path()), path);
        QVERIFY2(QString::fromStdString(error->reason()).contains(reason), error->what());
        QVERIFY(QString::fromUtf8(error->what()).startsWith(path + QStringLiteral(": ")));
        if (offset >= 0) {
            QVERIFY2(error->byteOffset().has_value(), error->what());
            QCOMPARE(static_cast<qint64>(*error->byteOffset()), offset);
        } else if (offset == -2) {
            QVERIFY2(error->byteOffset().has_value(), error->what());
        }
        if (gzip && error->byteOffset())
            QCOMPARE(error->offsetKind(), InputError::OffsetKind::Decompressed);
    }

    void memoryBudgetFailsEarlyWithAMessage()
    {
        QTemporaryDir dir;
        const QString path = TraceWriter().nvidia().kernels("k", 20000).write(dir, QStringLiteral("t.json"));
        LoadOptions options;
        options.chunkBytes = 64 * 1024;
        options.memoryBudget = 2 * 1024 * 1024; // the parser alone needs more
        try {
            loadTrace(path.toStdString(), options);
            QFAIL("loaded beyond its memory budget");
        } catch (const InputError& error) {
            QVERIFY2(
                QString::fromStdString(error.reason()).contains(QStringLiteral("of memory to load, more than the")),
                error.what());
        }
        options.memoryBudget = 0; // automatic: this machine has enough
        QCOMPARE(loadTrace(path.toStdString(), options).kernels.size(), size_t(20000));
        QVERIFY(availableMemory() > 0);
    }

    void fromMemoryAsFromAFile()
    {
        QFile file(real("minitoy_train_rocm6.2.mi250.json.gz"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray gz = file.readAll();
        const TraceStore fromFile = load(real("minitoy_train_rocm6.2.mi250.json.gz"));
        const TraceStore fromMemory = loadTraceFromMemory({ gz.constData(), size_t(gz.size()) }, "memory.json.gz");
        verifySameEvents(fromFile, fromMemory);
        QCOMPARE(fromMemory.label, std::string("memory (AMD Radeon Graphics)"));
    }

    void pathologicalEventsAreRejected_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("deep array as an event")
            << QByteArray("[" + QByteArray(3000, '[') + QByteArray(3000, ']') + "]") << "nested too deeply";
        QTest::newRow("deep array among events") << QByteArray(
            "{\"traceEvents\": [{\"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1}, " + QByteArray(3000, '[')
            + QByteArray(3000, ']') + "]}") << "nested too deeply";
        QTest::newRow("no event objects")
            << QByteArray("[1, 2, \"three\", [4]]") << "holds no event objects (4 other values)";
    }

    void pathologicalEventsAreRejected()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const std::optional<InputError> error = loadError(test::writeFile(dir, QStringLiteral("p.json"), bytes));
        QVERIFY2(error, kLoaded);
        QVERIFY2(QString::fromStdString(error->reason()).contains(reason), error->what());
    }

    void badFiles()
    {
        QTemporaryDir dir;
        QCOMPARE(loadErrorReason(dir.path()),
            std::string("is a directory, not a trace file (give the .json or .json.gz file inside it)"));
        QCOMPARE(loadErrorReason(dir.filePath(QStringLiteral("missing.json"))), std::string("no such file"));
        QCOMPARE(
            loadErrorReason(test::writeFile(dir, QStringLiteral("empty.json"), {})), std::string("the file is empty"));

        const QByteArray json = TraceWriter().nvidia().kernels("k", 2000).json();
        QByteArray gz = test::gzipCompress(json);
        const std::optional<InputError> truncated
            = loadError(test::writeFile(dir, QStringLiteral("cut.json.gz"), gz.left(gz.size() / 2)));
        QVERIFY2(truncated, kLoaded);
        QVERIFY2(QString::fromStdString(truncated->reason()).contains(QStringLiteral("gzip data is truncated")),
            truncated->what());
        QVERIFY2(truncated->byteOffset().has_value(), truncated->what());
        QCOMPARE(*truncated->byteOffset(), uint64_t(gz.size() / 2));

        QByteArray corrupt = gz;
        for (qsizetype i = 100; i < 140; ++i)
            corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
        const std::optional<InputError> bad
            = loadError(test::writeFile(dir, QStringLiteral("corrupt.json.gz"), corrupt));
        QVERIFY2(bad, kLoaded);
        QVERIFY2(QString::fromStdString(bad->reason()).startsWith(QStringLiteral("corrupt gzip data")), bad->what());

        const std::optional<InputError> trailing
            = loadError(test::writeFile(dir, QStringLiteral("trailing.json.gz"), gz + "junk"));
        QVERIFY2(trailing, kLoaded);
        QVERIFY2(
            QString::fromStdString(trailing->reason()).contains(QStringLiteral("after the end of the gzip stream")),
            trailing->what());

        if (::geteuid() != 0) { // root reads everything
            const QString locked = test::writeFile(dir, QStringLiteral("locked.json"), json);
            ::chmod(locked.toLocal8Bit().constData(), 0);
            const std::string reason = loadErrorReason(locked);
            QVERIFY2(QString::fromStdString(reason).contains(QStringLiteral("permission denied")), reason.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
