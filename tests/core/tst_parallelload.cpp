// One trace parsed on several threads (ParallelEventArrayReader, LoadOptions::threads) must give
// the store, and so the reports, that one thread gives: these tests load every real trace and
// generated traces built to trip the chunking on 1 thread and on several, with chunks small enough
// that events straddle their ends, and compare everything the store holds.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/loadthreadpool.h"
#include "load/traceloader.h"
#include "load/traceset.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "tracewriter.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

using namespace fusiondiff;
using test::TraceWriter;

namespace {

const size_t kDefaultChunk = LoadOptions().chunkBytes;

TraceStore loadWith(const QString& path, size_t threads, size_t chunkBytes = kDefaultChunk)
{
    LoadOptions options;
    options.threads = threads;
    options.chunkBytes = chunkBytes;
    return loadTrace(path.toStdString(), options);
}

// The error loading `path` gives, or nullopt if it loads.
std::optional<InputError> errorWith(const QString& path, size_t threads, size_t chunkBytes = kDefaultChunk)
{
    try {
        loadWith(path, threads, chunkBytes);
    } catch (const InputError& error) {
        return error;
    }
    return std::nullopt;
}

auto fields(const KernelEvent& e)
{
    return std::tie(e.ts, e.dur, e.correlation, e.externalId, e.device, e.stream, e.name);
}
auto fields(const RuntimeEvent& e)
{
    return std::tie(e.ts, e.dur, e.correlation, e.externalId, e.pid, e.tid, e.name, e.graphLaunch);
}
auto fields(const CpuOpEvent& e)
{
    return std::tie(e.ts, e.dur, e.externalId, e.pid, e.tid, e.name);
}
auto fields(const AnnotationEvent& e)
{
    return std::tie(e.ts, e.dur, e.pid, e.tid, e.name, e.onGpu);
}
auto fields(const GpuCopyEvent& e)
{
    return std::tie(e.ts, e.dur, e.correlation, e.device, e.stream);
}
auto fields(const ModuleEvent& e)
{
    return std::tie(e.ts, e.dur, e.pid, e.tid, e.name);
}
auto fields(const CommMessage& e)
{
    return std::tie(e.cpuOp, e.elements, e.elementBytes, e.group, e.sequence);
}

auto fields(const OpShapes& e)
{
    return std::tie(e.cpuOp, e.text);
}
auto fields(const PythonFrameEvent& e)
{
    return std::tie(e.ts, e.dur, e.thread, e.name);
}
auto fields(const ThreadId& e)
{
    return std::tie(e.pid, e.tid);
}
auto fields(const LoadStatistics& s)
{
    return std::tie(s.fileBytes, s.dataBytes, s.gzip, s.arrayFormat, s.missingClosingBracket, s.events,
        s.nonObjectEvents, s.eventsMissingFields, s.eventsMissingDuration, s.coercedFields, s.ignoredFields);
}

// Row by row, names by id: a row out of order, a row missing, a name interned in another order fails.
template<typename Row>
bool sameRows(const std::vector<Row>& a, const std::vector<Row>& b, const char* what)
{
    if (a.size() != b.size()) {
        qWarning("%s: %zu rows against %zu", what, a.size(), b.size());
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (fields(a[i]) != fields(b[i])) {
            qWarning("%s: row %zu differs", what, i);
            return false;
        }
    }
    return true;
}

bool sameStrings(const StringTable& a, const StringTable& b)
{
    if (a.size() != b.size()) {
        qWarning("strings: %zu against %zu", a.size(), b.size());
        return false;
    }
    for (StringId id = 0; id < a.size(); ++id) {
        if (a.get(id) != b.get(id)) {
            qWarning("string %u differs", id);
            return false;
        }
    }
    return true;
}

void verifyIdentical(const TraceStore& a, const TraceStore& b)
{
    QVERIFY(sameStrings(a.strings, b.strings));
    QVERIFY(sameRows(a.kernels, b.kernels, "kernels"));
    QVERIFY(sameRows(a.gpuCopies, b.gpuCopies, "gpu copies"));
    QVERIFY(sameRows(a.runtimeCalls, b.runtimeCalls, "runtime calls"));
    QVERIFY(sameRows(a.cpuOps, b.cpuOps, "cpu ops"));
    QVERIFY(sameRows(a.annotations, b.annotations, "annotations"));
    QVERIFY(sameRows(a.modules, b.modules, "modules"));
    QVERIFY(sameRows(a.commMessages, b.commMessages, "comm messages"));
    QVERIFY(sameRows(a.opShapes, b.opShapes, "operator shapes"));
    QVERIFY(sameStrings(a.shapeTexts, b.shapeTexts));
    QVERIFY(sameRows(a.pythonFrames, b.pythonFrames, "python frames"));
    QVERIFY(sameRows(a.pythonThreads, b.pythonThreads, "python threads"));
    QVERIFY(fields(a.statistics) == fields(b.statistics));
    QCOMPARE(a.platform, b.platform);
    QCOMPARE(a.gpuName, b.gpuName);
    QCOMPARE(a.label, b.label);
}

QStringList realTraces()
{
    QStringList paths;
    for (const QString& name : test::filesIn(test::dataPath(QStringLiteral("real")))) {
        if (name.endsWith(QStringLiteral(".json")) || name.endsWith(QStringLiteral(".json.gz")))
            paths << test::dataPath(QStringLiteral("real/") + name);
    }
    paths << test::sampleA() << test::sampleB();
    return paths;
}

// Every kind of event the store keeps, each with a name of its own so that order shows, between
// events whose strings and args look like event boundaries (", {" and "}]" inside strings, arrays
// of objects in args), on three Python threads, with one event far larger than the chunks.
QByteArray straddlingTrace(int rounds)
{
    TraceWriter writer;
    writer.amd();
    for (int i = 0; i < rounds; ++i) {
        const std::string n = std::to_string(i);
        const std::string ts = std::to_string(1000 + i * 20);
        writer.rawEvent(R"({"ph": "X", "cat": "python_function", "name": "nn.Module: Block_)" + n
            + R"(", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": 15})");
        writer.rawEvent(R"({"ph": "X", "cat": "python_function", "name": "model.py()" + std::to_string(i % 7)
            + R"(): forward_)" + std::to_string(i % 11) + R"(", "pid": 1, "tid": )" + std::to_string(1 + i % 3)
            + R"(, "ts": )" + ts + R"(, "dur": 14, "args": {"Python id": )" + n + "}}");
        writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "op_)" + n
            + R"( },{ \"x\": [{\"y\": 1}]}, {", "pid": 1, "tid": 1, "ts": )" + std::to_string(1001 + i * 20)
            + R"(, "dur": 10, "args": {"External id": )" + n
            + R"(, "Concrete Inputs": ["}, {", "]", "},\n{"], "nested": [{"a": {"b": [1, {"c": "}"}]}}, {"d": 2}]}})");
        if (i % 5 == 0)
            writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 2, "ts": )"
                + ts + R"(, "dur": 1, "args": {"In msg nelems": )" + std::to_string(i * 3)
                + R"(, "dtype": "BFloat16"}})");
        writer.rawEvent(R"({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel_)" + std::to_string(i % 3)
            + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(1002 + i * 20)
            + R"(, "dur": 2, "args": {"correlation": )" + std::to_string(500 + i) + R"(, "External id": )" + n + "}}");
        TraceWriter::Kernel k;
        k.name = "kernel_" + n + " \"quoted\" },{ \xc3\xa9 }]";
        k.ts = 5000 + i * 20;
        k.dur = 3.5;
        k.correlation = 500 + i;
        k.externalId = i;
        writer.kernel(k);
        writer.rawEvent(R"({"name": "ac2g", "ph": "f", "id": )" + n
            + R"(, "pid": 0, "tid": 7, "ts": 1, "cat": "ac2g", "bp": "e", "args": [{"x": 1}, {"y": 2}]})");
        if (i % 9 == 4)
            writer.rawEvent(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + n
                + R"(", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": 19})");
        if (i == rounds / 2)
            writer.rawEvent(R"({"ph": "X", "cat": "kernel", "name": "huge", "pid": 0, "tid": 7, "ts": 1, "dur": 1, )"
                + std::string(
                    R"("args": {"blob": ")" + std::string(20000, 'x') + R"(", "list": [{"a": 1}, {"b": 2}]}})"));
        if (i % 13 == 6)
            writer.rawEvent(R"([1, {"not": "an event"}])");
    }
    return writer.json();
}

constexpr int kRounds = 300;

// The straddling trace written plain and gzip, and what one thread loads of each.
struct StraddlingFiles
{
    QTemporaryDir dir;
    QString path = test::writeFile(dir, QStringLiteral("straddling.json"), straddlingTrace(kRounds));
    QString gzipPath = test::writeFile(dir, QStringLiteral("straddling.json.gz"), straddlingTrace(kRounds), true);
    TraceStore reference = loadWith(path, 1);
    TraceStore gzipReference = loadWith(gzipPath, 1);
};

} // namespace

class TestParallelLoad : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyRealTraceLoadsTheSameOnAnyThreadCount_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& path : realTraces())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }

    void everyRealTraceLoadsTheSameOnAnyThreadCount()
    {
        QFETCH(QString, path);
        const TraceStore reference = loadWith(path, 1);
        QVERIFY(reference.statistics.events > 0);
        verifyIdentical(reference, loadWith(path, 2));
        // Chunks of 64 KiB: hundreds of them, in flight on three threads.
        verifyIdentical(reference, loadWith(path, 3, size_t(64) << 10));
    }

    void reportsAreByteIdenticalOnAnyThreadCount_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::newRow("sample") << test::sampleA() << test::sampleB();
        for (const char* model :
            { "owlv2-large-patch14-ensemble", "timesformer-base-finetuned-k400", "nsfw_image_detection" }) {
            const QString stem = test::dataPath(QStringLiteral("real/") + QString::fromUtf8(model));
            QTest::newRow(model) << stem + QStringLiteral(".mi300x.json.gz") << stem + QStringLiteral(".h100.json.gz");
        }
    }

    void reportsAreByteIdenticalOnAnyThreadCount()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        const Classifier classifier = Classifier::load("default");
        const FusionReport one = analyzeFusion(loadWith(a, 1), loadWith(b, 1), classifier, {});
        const FusionReport many
            = analyzeFusion(loadWith(a, 4, size_t(32) << 10), loadWith(b, 3, size_t(200) << 10), classifier, {});
        QVERIFY(!one.globalCounts.empty());
        QCOMPARE(reportToJson(many), reportToJson(one));
        QCOMPARE(reportToMarkdown(many), reportToMarkdown(one));
    }

    void eventsStraddlingChunkEndsAreMergedInOrder()
    {
        const StraddlingFiles files;
        const TraceStore& reference = files.reference;
        // What the trace holds, so that a loader that dropped or reordered the same rows on any
        // thread count would not pass by agreeing with itself.
        QCOMPARE(reference.kernels.size(), size_t(kRounds + 1));
        QCOMPARE(reference.cpuOps.size(), size_t(kRounds + (kRounds + 4) / 5));
        QCOMPARE(reference.modules.size(), size_t(kRounds));
        QCOMPARE(reference.commMessages.size(), size_t((kRounds + 4) / 5));
        QCOMPARE(reference.pythonThreads.size(), size_t(3));
        QCOMPARE(reference.statistics.nonObjectEvents, uint64_t((kRounds + 6) / 13));
        for (int i = 0; i < kRounds; ++i)
            QVERIFY(reference.name(reference.modules[size_t(i)].name) == "Block_" + std::to_string(i));
        for (const size_t threads : { size_t(2), size_t(3), size_t(8) }) {
            for (size_t chunk = 300; chunk < 9000; chunk += 1013) {
                verifyIdentical(reference, loadWith(files.path, threads, chunk));
                verifyIdentical(files.gzipReference, loadWith(files.gzipPath, threads, chunk));
            }
        }
    }

    // A thread that reads a trace holds a place of the pool (ReaderSlot) and parses every chunk
    // itself while readers hold all the places, none otherwise; the store is the one a single
    // thread makes either way, plain and gzip.
    void chunksParsedByTheirReaderOrThePoolLoadTheSame()
    {
        const StraddlingFiles files;
        const TraceStore& reference = files.reference;
        for (const size_t threads : { size_t(2), size_t(3) }) {
            for (size_t otherReaders = 0; otherReaders <= threads; ++otherReaders) {
                LoadThreadPool pool(threads);
                std::vector<std::unique_ptr<LoadThreadPool::ReaderSlot>> others;
                for (size_t i = 0; i < otherReaders; ++i)
                    others.push_back(std::make_unique<LoadThreadPool::ReaderSlot>(pool));
                for (size_t chunk = 300; chunk < 9000; chunk += 2026) {
                    LoadOptions options;
                    options.pool = &pool;
                    options.threads = threads;
                    options.chunkBytes = chunk;
                    verifyIdentical(reference, loadTrace(files.path.toStdString(), options));
                    verifyIdentical(files.gzipReference, loadTrace(files.gzipPath.toStdString(), options));
                }
            }
        }
    }

    // Readers that hold every place of the pool keep its threads out; a free place takes jobs.
    void readersHoldingThePoolsPlacesParseTheirOwnChunks()
    {
        LoadThreadPool pool(2);
        std::atomic<int> ran { 0 };
        std::function<void()> job = [&ran] { ++ran; };
        {
            const LoadThreadPool::ReaderSlot first(pool);
            const LoadThreadPool::ReaderSlot second(pool);
            QVERIFY(!pool.trySubmit(job));
            QVERIFY(job); // left to the caller, not moved from
        }
        const LoadThreadPool::ReaderSlot only(pool);
        QVERIFY(pool.trySubmit(job));
        QTRY_COMPARE(ran.load(), 1);
    }

    // The chunks' events are decoded into stores used again for later chunks, which keep their
    // names and threads: names and threads first met in later chunks, in an order that changes from
    // chunk to chunk, and cuts that fall inside strings (chunks parsed, then dropped), must still be
    // numbered in file order.
    void namesAndThreadsMetLateKeepTheirOrder()
    {
        TraceWriter writer;
        writer.amd();
        constexpr int kEvents = 600;
        // A name holding \"}, {\" (spelt out: moc misreads escaped quotes in string literals).
        const std::string quote = std::string(1, '\\') + '"';
        const std::string escapedCut = " " + quote + "}, {" + quote + " ";
        for (int i = 0; i < kEvents; ++i) {
            const int late = i * 7919 % 97; // a permutation of 0..96, cycling
            const std::string ts = std::to_string(1000 + i * 10);
            const std::string tid = std::to_string(1 + i / 75); // a new thread every 75 rounds
            writer.rawEvent(R"({"ph": "X", "cat": "python_function", "name": "m.py()" + std::to_string(late % 13)
                + R"(): f_)" + std::to_string(i < kEvents / 2 ? late % 5 : late) + R"(", "pid": 1, "tid": )" + tid
                + R"(, "ts": )" + ts + R"(, "dur": 9})");
            writer.rawEvent(R"({"ph": "X", "cat": "cpu_op", "name": "op_)"
                + std::to_string(i < kEvents / 3 ? i % 4 : late) + (i % 11 == 3 ? escapedCut : "")
                + R"(", "pid": 1, "tid": )" + tid + R"(, "ts": )" + ts + R"(, "dur": 5})");
        }
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("late.json"), writer.json());
        const TraceStore reference = loadWith(path, 1);
        QCOMPARE(reference.cpuOps.size(), size_t(kEvents));
        QCOMPARE(reference.pythonThreads.size(), size_t((kEvents + 74) / 75));
        QVERIFY(reference.strings.size() > 150);
        for (const size_t threads : { size_t(2), size_t(3) }) {
            for (size_t chunk = 400; chunk < 6000; chunk += 777)
                verifyIdentical(reference, loadWith(path, threads, chunk));
        }
    }

    // A trace of ever new names (each kernel's its own, 8 MB of them): the chunks' stores stop being
    // used again once their names outgrow what is worth keeping, and the store is still the same.
    void everNewNamesLoadTheSame()
    {
        TraceWriter writer;
        writer.nvidia();
        const std::string padding(100, 'k');
        for (int i = 0; i < 70000; ++i) {
            TraceWriter::Kernel k;
            k.name = padding + std::to_string(i);
            k.ts = 1000 + i;
            k.dur = 1;
            k.correlation = i;
            writer.kernel(k);
        }
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("names.json"), writer.json());
        const TraceStore reference = loadWith(path, 1);
        QCOMPARE(reference.kernels.size(), size_t(70000));
        QVERIFY(reference.strings.memoryUsage() > size_t(8) << 20);
        verifyIdentical(reference, loadWith(path, 2, size_t(256) << 10));
    }

    void errorsInLaterChunksKeepTheirOffsets_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("offset"); // -1: the one a single thread reports

        const QByteArray good = straddlingTrace(kRounds);
        const qint64 late = good.size() * 3 / 4; // in a late chunk, whatever its size
        const qint64 event = good.indexOf("{\"ph\": \"X\", \"cat\": \"cpu_op\"", late);
        QVERIFY(event > 0);

        QByteArray utf8 = good;
        const qint64 name = utf8.indexOf("op_", event);
        utf8[name] = '\xff';
        QTest::newRow("invalid UTF-8") << utf8 << "invalid UTF-8" << name;

        QByteArray number = good;
        const qint64 ts = number.indexOf("\"ts\": ", event) + 6;
        number.insert(ts + 1, ".2.3");
        QTest::newRow("bad number") << number << "malformed JSON number" << qint64(-1);

        QByteArray comma = good;
        const qint64 separator = comma.lastIndexOf("},\n  {", event);
        QVERIFY(separator > late);
        comma.remove(separator + 1, 1);
        QTest::newRow("missing comma") << comma << "a comma, colon or bracket is missing" << qint64(-1);

        QByteArray control = good;
        control[name + 1] = '\x01';
        QTest::newRow("control char in name") << control << "control character" << name + 1;

        QTest::newRow("truncated") << good.left(late) << "truncated" << qint64(-1);
    }

    void errorsInLaterChunksKeepTheirOffsets()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QFETCH(qint64, offset);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("bad.json"), bytes);
        const std::optional<InputError> reference = errorWith(path, 1);
        QVERIFY2(reference, "loaded on one thread");
        QVERIFY2(QString::fromStdString(reference->reason()).contains(reason), reference->what());
        QVERIFY2(reference->byteOffset(), reference->what());
        if (offset >= 0)
            QCOMPARE(qint64(*reference->byteOffset()), offset);
        for (const size_t threads : { size_t(2), size_t(3) }) {
            for (const size_t chunk : { size_t(512), size_t(4099), size_t(65536), kDefaultChunk }) {
                const std::optional<InputError> error = errorWith(path, threads, chunk);
                QVERIFY2(error, "loaded on several threads");
                QCOMPARE(QString::fromUtf8(error->what()), QString::fromUtf8(reference->what()));
                QCOMPARE(error->byteOffset(), reference->byteOffset());
            }
        }
    }

    void cancelMidwayStopsEveryThread()
    {
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("big.json"), straddlingTrace(3000));
        std::atomic<bool> cancel { false };
        size_t calls = 0;
        LoadOptions options;
        options.threads = 3;
        options.chunkBytes = size_t(16) << 10;
        options.cancel = &cancel;
        options.progress = [&](uint64_t done, uint64_t total) {
            ++calls;
            if (done * 10 > total * 3)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadTrace(path.toStdString(), options));
        QVERIFY(calls > 3); // it was under way
        cancel = false;
        calls = 0;
        options.progress = [&](uint64_t, uint64_t) { ++calls; };
        verifyIdentical(loadWith(path, 1), loadTrace(path.toStdString(), options));
        QVERIFY(calls > 3);
    }

    void tracesLoadedTogetherShareOneBudget()
    {
        const QString a = test::dataPath(QStringLiteral("real/owlv2-large-patch14-ensemble.mi300x.json.gz"));
        const QString b = test::sampleB();
        const TraceStore referenceA = loadWith(a, 1);
        const TraceStore referenceB = loadWith(b, 1);
        for (const size_t threads : { size_t(1), size_t(2), size_t(5) }) {
            std::vector<uint64_t> lastDone(3, 0);
            const std::vector<LoadedTrace> loaded = loadTraces(
                { a.toStdString(), b.toStdString(), a.toStdString() }, nullptr,
                [&](size_t trace, uint64_t done, uint64_t) { lastDone[trace] = done; }, threads);
            QCOMPARE(loaded.size(), size_t(3));
            for (const LoadedTrace& trace : loaded)
                QVERIFY(trace.store && !trace.error);
            verifyIdentical(referenceA, *loaded[0].store);
            verifyIdentical(referenceB, *loaded[1].store);
            QCOMPARE(loaded[2].store, loaded[0].store); // named twice, read once
            QCOMPARE(lastDone[0], referenceA.statistics.fileBytes);
            QCOMPARE(lastDone[1], referenceB.statistics.fileBytes);
        }
    }
};

QTEST_GUILESS_MAIN(TestParallelLoad)
#include "tst_parallelload.moc"
