// Runs the fuzz harness (tests/fuzz/fuzz_trace.cpp) on its seed corpus and on every input that
// once crashed it (tests/data/fuzz-regressions/), so that they stay fixed in every build,
// including the sanitizer build. The harness only fails by crashing; where an input's outcome is
// known (what it loads, or the error and where), the second test checks it.

#include "load/traceloader.h"
#include "model/tracestore.h"
#include "testdata.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

using namespace fusiondiff;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

class TestFuzzInputs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inputsLoadOrFailCleanly_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& folder : { test::sourcePath(QStringLiteral("tests/fuzz/corpus")),
                 test::dataPath(QStringLiteral("fuzz-regressions")) }) {
            const QDir dir(folder);
            for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
                if (name != QStringLiteral("README.md"))
                    QTest::newRow(qPrintable(name)) << dir.filePath(name);
            }
        }
    }

    void inputsLoadOrFailCleanly()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        // The harness lets only InputError through; anything else fails here (or under the sanitizers).
        QCOMPARE(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size())), 0);
    }

    void inputsHaveTheirKnownOutcome_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("runtimeCalls");
        QTest::addColumn<int>("cpuOps");
        QTest::addColumn<int>("nonObjectEvents");
        QTest::addColumn<int>("coercedFields");
        QTest::addColumn<QString>("error"); // part of the reason; empty: loads
        QTest::addColumn<qint64>("errorOffset");
        QTest::addColumn<qint64>("errorOffsetTo"); // the decoders read ahead differently
        const auto corpus = [](const char* name) {
            return test::sourcePath(QStringLiteral("tests/fuzz/corpus/") + QLatin1String(name));
        };
        // A bare array whose closing bracket is missing (allowed): both kernels, one without dur.
        QTest::newRow("array_open") << corpus("array_open.json") << 2 << 0 << 0 << 0 << 0 << QString() << qint64(-1)
                                    << qint64(-1);
        // A name with escapes, then three elements that are not objects, skipped and counted.
        QTest::newRow("escapes") << corpus("escapes.json") << 1 << 0 << 0 << 3 << 0 << QString() << qint64(-1)
                                 << qint64(-1);
        QTest::newRow("object_minimal") << corpus("object_minimal.json") << 2 << 0 << 0 << 0 << 0 << QString()
                                        << qint64(-1) << qint64(-1);
        // "ts": "12.5" is coerced; "tid": "stream 7" does not count, args.stream stands in for it.
        QTest::newRow("old_schema") << corpus("old_schema.json") << 1 << 1 << 0 << 0 << 1 << QString() << qint64(-1)
                                    << qint64(-1);
        // An array left open at the very end of the data, which the loader's own chunk framing
        // once closed: a truncated event, reported at the end of the data (its 11,793 bytes).
        QTest::newRow("open-array-closed-by-chunk-frame")
            << test::dataPath(QStringLiteral("fuzz-regressions/open-array-closed-by-chunk-frame.json")) << 0 << 0 << 0
            << 0 << 0 << QStringLiteral("truncated") << qint64(11793) << qint64(11793);
        // A damaged deflate stream after which ISA-L 2.30 reported more input used than it was
        // given (its avail_in wrapped below zero): an error in the deflate data after the header's
        // 10 bytes, not a crash.
        QTest::newRow("gzip-error-wraps-isal-avail-in")
            << test::dataPath(QStringLiteral("fuzz-regressions/gzip-error-wraps-isal-avail-in.json.gz")) << 0 << 0 << 0
            << 0 << 0 << QStringLiteral("invalid distance too far back") << qint64(11) << qint64(32);
    }

    void inputsHaveTheirKnownOutcome()
    {
        QFETCH(QString, path);
        QFETCH(int, kernels);
        QFETCH(int, runtimeCalls);
        QFETCH(int, cpuOps);
        QFETCH(int, nonObjectEvents);
        QFETCH(int, coercedFields);
        QFETCH(QString, error);
        QFETCH(qint64, errorOffset);
        QFETCH(qint64, errorOffsetTo);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        // As the harness loads them: in chunks of 512 bytes, so that cuts fall everywhere.
        LoadOptions options;
        options.chunkBytes = 512;
        try {
            const TraceStore store
                = loadTraceFromMemory(std::string_view(bytes.constData(), size_t(bytes.size())), "fuzz-input", options);
            QVERIFY2(error.isEmpty(), "loaded although it should fail");
            QCOMPARE(store.kernels.size(), size_t(kernels));
            QCOMPARE(store.runtimeCalls.size(), size_t(runtimeCalls));
            QCOMPARE(store.cpuOps.size(), size_t(cpuOps));
            QCOMPARE(store.statistics.nonObjectEvents, uint64_t(nonObjectEvents));
            QCOMPARE(store.statistics.coercedFields, uint64_t(coercedFields));
        } catch (const InputError& failure) {
            QVERIFY2(!error.isEmpty(), failure.what());
            QVERIFY2(QString::fromStdString(failure.reason()).contains(error), failure.what());
            QCOMPARE(failure.path(), std::string("fuzz-input"));
            QVERIFY(failure.byteOffset().has_value());
            const auto offset = qint64(*failure.byteOffset());
            QVERIFY2(offset >= errorOffset && offset <= errorOffsetTo, qPrintable(QString::number(offset)));
        }
    }

    void everyRegressionHasAKnownOutcome()
    {
        // A new regression input comes with its expected outcome in the table above.
        const QDir dir(test::dataPath(QStringLiteral("fuzz-regressions")));
        for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
            if (name == QStringLiteral("README.md"))
                continue;
            const QString row = QFileInfo(name).baseName();
            QVERIFY2(QStringList({ QStringLiteral("open-array-closed-by-chunk-frame"),
                                     QStringLiteral("gzip-error-wraps-isal-avail-in") })
                         .contains(row),
                qPrintable(name + QStringLiteral(": add its outcome to inputsHaveTheirKnownOutcome_data")));
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzInputs)
#include "tst_fuzzinputs.moc"
