// RawNameTable (core/load/rawnametable.h): the decoder's cache of raw event names. Its hash reads
// only a few words of a name, so names that differ elsewhere hash alike: the table must still tell
// them apart, through growth, for every length.

#include "load/rawnametable.h"

#include <QTest>

#include <string>
#include <vector>

using namespace fusiondiff;

class TestRawNameTable : public QObject
{
    Q_OBJECT

private slots:
    void findsWhatWasInserted()
    {
        RawNameTable table;
        QVERIFY(!table.find("aten::mm"));
        table.insert("aten::mm", 7);
        table.insert("", 3);
        QVERIFY(table.find("aten::mm"));
        QCOMPARE(*table.find("aten::mm"), uint32_t(7));
        QCOMPARE(*table.find(""), uint32_t(3));
        QVERIFY(!table.find("aten::m"));
        QVERIFY(!table.find("aten::mmm"));
    }

    // Same length, same first, middle and last words: one byte apart where the hash does not look.
    void namesThatHashAlikeStayApart_data()
    {
        QTest::addColumn<int>("length");
        for (const int length : { 1, 7, 8, 9, 16, 31, 32, 33, 40, 64, 200 })
            QTest::addRow("%d bytes", length) << length;
    }
    void namesThatHashAlikeStayApart()
    {
        QFETCH(int, length);
        RawNameTable table;
        std::vector<std::string> names;
        for (int i = 0; i < 1000; ++i) {
            std::string name(size_t(length), 'x');
            // Byte 8 (or the last byte of a short name) and, for long names, byte 12 too.
            const size_t at = length > 8 ? 8 : size_t(length) - 1;
            name[at] = static_cast<char>('a' + i % 26);
            if (length > 12)
                name[12] = static_cast<char>('a' + i / 26 % 26);
            if (length > 40)
                name[40] = static_cast<char>('a' + i / 676);
            if (table.find(name))
                continue; // short names have fewer distinct forms
            table.insert(name, uint32_t(names.size()));
            names.push_back(name);
        }
        QCOMPARE(table.size(), names.size());
        for (size_t i = 0; i < names.size(); ++i) {
            const uint32_t* found = table.find(names[i]);
            QVERIFY(found);
            QCOMPARE(*found, uint32_t(i));
        }
        QVERIFY(!table.find(std::string(size_t(length), '#')));
    }

    void growsPastItsFirstSlots()
    {
        RawNameTable table;
        for (uint32_t i = 0; i < 5000; ++i)
            table.insert("torch/nn/modules/module.py(" + std::to_string(i) + "): _call_impl", i);
        for (uint32_t i = 0; i < 5000; ++i) {
            const uint32_t* found = table.find("torch/nn/modules/module.py(" + std::to_string(i) + "): _call_impl");
            QVERIFY(found);
            QCOMPARE(*found, i);
        }
        QVERIFY(!table.find("torch/nn/modules/module.py(5000): _call_impl"));
    }
};

QTEST_GUILESS_MAIN(TestRawNameTable)
#include "tst_rawnametable.moc"
