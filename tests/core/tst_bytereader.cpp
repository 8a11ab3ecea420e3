// The gzip reader (core/load/bytereader.cpp) with this build's decoder, ISA-L or zlib
// (FUSIONDIFF_GZIP): the same bytes and the same errors on both, whatever the member layout and
// however the caller slices its reads. The asan preset builds the zlib one, the test preset ISA-L.

#include "load/bytereader.h"
#include "load/inflater.h"
#include "util/inputerror.h"

#include <QRandomGenerator>
#include <QTest>

#include <zlib.h>

#include <optional>

using namespace fusiondiff;

namespace {

struct MemberOptions
{
    QByteArray name; // FNAME
    QByteArray extra; // FEXTRA
    bool headerCrc = false; // FHCRC
};

void appendLittleEndian32(QByteArray& out, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out.append(static_cast<char>((value >> (8 * i)) & 0xff));
}

// One gzip member written field by field (RFC 1952), so that tests can set the optional header
// fields and break the trailer.
QByteArray gzipMember(const QByteArray& data, const MemberOptions& options = {})
{
    QByteArray out;
    const char flags = static_cast<char>(
        (options.headerCrc ? 2 : 0) | (options.extra.isEmpty() ? 0 : 4) | (options.name.isEmpty() ? 0 : 8));
    out.append("\x1f\x8b\x08", 3);
    out.append(flags);
    out.append("\x00\x00\x00\x00\x00\x03", 6); // mtime, extra flags, OS (Unix)
    if (!options.extra.isEmpty()) {
        out.append(static_cast<char>(options.extra.size() & 0xff));
        out.append(static_cast<char>(options.extra.size() >> 8));
        out.append(options.extra);
    }
    if (!options.name.isEmpty())
        out.append(options.name).append('\0');
    if (options.headerCrc) {
        const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(out.constData()), static_cast<uInt>(out.size()));
        out.append(static_cast<char>(crc & 0xff)).append(static_cast<char>((crc >> 8) & 0xff));
    }
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray deflated(static_cast<qsizetype>(deflateBound(&stream, static_cast<uLong>(data.size()))) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(deflated.data());
    stream.avail_out = static_cast<uInt>(deflated.size());
    deflate(&stream, Z_FINISH);
    deflated.resize(static_cast<qsizetype>(stream.total_out));
    deflateEnd(&stream);
    out.append(deflated);
    appendLittleEndian32(
        out, crc32(0, reinterpret_cast<const Bytef*>(data.constData()), static_cast<uInt>(data.size())));
    appendLittleEndian32(out, static_cast<uint32_t>(data.size()));
    return out;
}

// `data` as members of `memberSize` input bytes each, with `padding` zero bytes after each.
QByteArray gzipMembers(const QByteArray& data, qsizetype memberSize, qsizetype padding = 0)
{
    QByteArray out;
    for (qsizetype at = 0; at < data.size(); at += memberSize)
        out.append(gzipMember(data.mid(at, memberSize))).append(QByteArray(padding, '\0'));
    return out;
}

// Text that compresses (like a trace) with stretches that do not, so that the compressed size
// passes the reader's 256 KiB input block.
QByteArray sampleData(qsizetype size)
{
    QByteArray data;
    QRandomGenerator random(11);
    while (data.size() < size) {
        data.append(R"({"ph": "X", "cat": "kernel", "name": "gemm_)").append(QByteArray::number(random.bounded(1000)));
        data.append(R"(", "ts": )").append(QByteArray::number(random.generate64() % 100000000000ull)).append("},\n");
        if (random.bounded(8) == 0) {
            for (int i = 0; i < 64; ++i)
                data.append(static_cast<char>(random.bounded(256)));
        }
    }
    data.resize(size);
    return data;
}

// Everything the reader yields, read `step` bytes at a time.
QByteArray readAll(ByteReader& reader, size_t step)
{
    QByteArray out;
    QByteArray buffer(static_cast<qsizetype>(step), '\0');
    for (;;) {
        const size_t got = reader.read(buffer.data(), step);
        if (got == 0)
            return out;
        out.append(buffer.constData(), static_cast<qsizetype>(got));
    }
}

QByteArray decompress(const QByteArray& file, size_t step)
{
    const auto reader = openTraceBuffer("test.json.gz", { file.constData(), size_t(file.size()) });
    if (!reader->isCompressed())
        qFatal("not recognised as gzip");
    return readAll(*reader, step);
}

// The InputError decompressing `file` throws; none if it decompresses, for the caller to fail on
// with QVERIFY2 (which ends that test function, not the whole suite).
std::optional<InputError> decompressError(const QByteArray& file)
{
    try {
        decompress(file, 1 << 20);
    } catch (const InputError& error) {
        return error;
    }
    return std::nullopt;
}

} // namespace

class TestByteReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theConfiguredDecoderIsBuiltIn()
    {
        const QString name = QString::fromStdString(inflaterName());
        qInfo("gzip decoder: %s", qPrintable(name));
        const QString expected = QStringLiteral(FUSIONDIFF_EXPECTED_GZIP) == QStringLiteral("isal")
            ? QStringLiteral("ISA-L ")
            : QStringLiteral("zlib ");
        QVERIFY2(name.startsWith(expected), qPrintable(name));
    }

    void sameBytesWhateverTheLayout_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QByteArray>("file");
        const QByteArray big = sampleData(3 << 20);
        const QByteArray small = sampleData(20000);
        QTest::newRow("one member") << big << gzipMember(big);
        QTest::newRow("members of 100 kB") << big << gzipMembers(big, 100000);
        QTest::newRow("members of 997 bytes") << big << gzipMembers(big, 997);
        QTest::newRow("zero padding between and after members") << big << gzipMembers(big, 300000, 517);
        QTest::newRow("an empty member in between")
            << small << gzipMember(small.left(5000)) + gzipMember({}) + gzipMember(small.mid(5000));
        // The reader hands the decoder the two magic bytes first: the header arrives in pieces.
        QTest::newRow("name, extra field and header CRC")
            << small << gzipMember(small, { "trace.json", QByteArray(300, 'x'), true });
        QTest::newRow("a name longer than an input block")
            << small << gzipMember(small, { QByteArray(300000, 'n'), {}, false });
    }

    void sameBytesWhateverTheLayout()
    {
        QFETCH(QByteArray, data);
        QFETCH(QByteArray, file);
        for (const size_t step : { size_t(1) << 22, size_t(65536), size_t(4093) })
            QCOMPARE(decompress(file, step), data);
    }

    // One byte at a time: the decoder must give out what it holds once the input has run out
    // (ISA-L reads the 8-byte trailer into its bit buffer ahead of the output).
    void tinyReads()
    {
        const QByteArray data = sampleData(30000);
        QCOMPARE(decompress(gzipMember(data), 1), data);
        QCOMPARE(decompress(gzipMembers(data, 1000, 3), 1), data);
        QCOMPARE(decompress(gzipMembers(data, 1000, 3), 7), data);
    }

    void badData_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("offset"); // -1: any
        const QByteArray data = sampleData(400000);
        const QByteArray good = gzipMember(data);
        const qsizetype size = good.size();

        QByteArray badCrc = good;
        badCrc[size - 8] = static_cast<char>(badCrc[size - 8] ^ 1);
        QByteArray badLength = good;
        badLength[size - 4] = static_cast<char>(badLength[size - 4] ^ 1);
        QByteArray badMethod = good;
        badMethod[2] = 7;
        QByteArray badFlags = good;
        badFlags[3] = '\x20';
        QByteArray badHeaderCrc = gzipMember(data, { "trace.json", {}, true });
        badHeaderCrc[21] = static_cast<char>(badHeaderCrc[21] ^ 1); // the header CRC, after 10 + 11 bytes
        QByteArray badDeflate = good;
        for (qsizetype i = 1000; i < 1040; ++i)
            badDeflate[i] = static_cast<char>(badDeflate[i] ^ 0x5a);

        QTest::newRow("CRC-32 of the trailer") << badCrc << "corrupt gzip data: incorrect data check" << qint64(-1);
        QTest::newRow("length of the trailer") << badLength << "corrupt gzip data: incorrect" << qint64(-1);
        QTest::newRow("compression method")
            << badMethod << "corrupt gzip data: unknown compression method" << qint64(-1);
        QTest::newRow("reserved header flags")
            << badFlags << "corrupt gzip data: unknown header flags set" << qint64(-1);
        QTest::newRow("header CRC") << badHeaderCrc << "corrupt gzip data: header crc mismatch" << qint64(-1);
        QTest::newRow("deflate data") << badDeflate << "corrupt gzip data: " << qint64(-1);
        QTest::newRow("cut in the header") << good.left(6) << "the gzip data is truncated" << qint64(6);
        QTest::newRow("cut in the data") << good.left(size / 2) << "the gzip data is truncated" << qint64(size / 2);
        QTest::newRow("cut in the trailer") << good.left(size - 3) << "the gzip data is truncated" << qint64(size - 3);
        QTest::newRow("a second member cut short")
            << good + gzipMember("abc").left(12) << "the gzip data is truncated" << qint64(size + 12);
        QTest::newRow("a lone magic byte after the member") << good + "\x1f"
                                                            << "the gzip data is truncated" << qint64(size + 1);
        QTest::newRow("text after the member") << good + "junk"
                                               << "unexpected data after the end of the gzip stream" << qint64(size);
        QTest::newRow("text after zero padding")
            << good + QByteArray(5, '\0') + "junk"
            << "unexpected data after the end of the gzip stream" << qint64(size + 5);
    }

    void badData()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, reason);
        QFETCH(qint64, offset);
        const std::optional<InputError> error = decompressError(file);
        QVERIFY2(error, "decompressed without an error");
        QCOMPARE(QString::fromStdString(error->path()), QStringLiteral("test.json.gz"));
        QVERIFY2(QString::fromStdString(error->reason()).startsWith(reason), error->what());
        QVERIFY2(error->byteOffset().has_value(), error->what());
        QCOMPARE(error->offsetKind(), InputError::OffsetKind::File);
        if (offset >= 0)
            QCOMPARE(static_cast<qint64>(*error->byteOffset()), offset);
        else
            QVERIFY(*error->byteOffset() <= uint64_t(file.size()));
    }
};

QTEST_GUILESS_MAIN(TestByteReader)
#include "tst_bytereader.moc"
