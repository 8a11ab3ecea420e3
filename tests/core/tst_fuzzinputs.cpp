// Runs the fuzz harness (tests/fuzz/fuzz_trace.cpp) on its seed corpus and on every input that
// once crashed it (tests/data/fuzz-regressions/), so that they stay fixed in every build,
// including the sanitizer build.

#include "testdata.h"

#include <QDir>
#include <QFile>
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
};

QTEST_GUILESS_MAIN(TestFuzzInputs)
#include "tst_fuzzinputs.moc"
