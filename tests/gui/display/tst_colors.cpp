// The app's colours, measured: kernel types that can be told apart (CIEDE2000 over every pair of
// the palette, on a light and a dark base) and links readable on the base they are drawn on
// (WCAG contrast), whatever link colour the system theme brings.

#include "display/colors.h"
#include "display/idlecolors.h"

#include <QApplication>
#include <QPalette>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

// Two colours a glance tells apart: CIEDE2000 of 10 is a clearly different colour (2 is just
// noticeable); the palette reaches 19.
constexpr double kDistinctTypes = 15;
constexpr double kDistinctFromBase = 12;
constexpr double kBodyTextContrast = 4.5; // WCAG AA
// With lightness counted half (colorDifference's weight 2), so that two colours of one hue that
// differ by lightness alone do not pass: what the idle causes keep from the kernel types and from
// each other (the search reached 11.7), and the pair the issue found sharing a colour.
constexpr double kHueWeightedApart = 11;
constexpr double kLightnessWeight = 2;
constexpr IdleCause kCauses[]
    = { IdleCause::Host, IdleCause::Sync, IdleCause::Launch, IdleCause::BetweenSteps, IdleCause::Other };

} // namespace

class TestColors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Published pairs (Sharma, Wu and Dalal 2005, table 1) in sRGB would need a Lab input: check
    // the formula on its defining properties and on two well-known sRGB differences instead.
    void colorDifferenceIsCiede2000()
    {
        QCOMPARE(colorDifference(QColor(Qt::red), QColor(Qt::red)), 0.0);
        QVERIFY(qAbs(colorDifference(Qt::white, Qt::black) - 100.0) < 0.01);
        QVERIFY(qFuzzyCompare(colorDifference(Qt::red, Qt::blue), colorDifference(Qt::blue, Qt::red)));
        // sRGB red against sRGB green: 86.6 in CIEDE2000 (CIELAB's Euclidean distance is 170).
        QVERIFY2(qAbs(colorDifference(Qt::red, Qt::green) - 86.61) < 0.1,
            qPrintable(QString::number(colorDifference(Qt::red, Qt::green))));
        // Blue against a slightly lighter blue: small.
        QVERIFY(colorDifference(QColor(0, 0, 255), QColor(20, 20, 255)) < 6);
    }

    void kernelTypeColoursCanBeToldApart_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QColor>("base");
        QTest::newRow("light") << false << QColor(Qt::white);
        QTest::newRow("dark") << true << darkPalette().color(QPalette::Base);
    }
    void kernelTypeColoursCanBeToldApart()
    {
        QFETCH(bool, dark);
        QFETCH(QColor, base);
        QStringList tooClose;
        for (int a = 0; a < kKernelTypeColorCount; ++a) {
            const QColor first = kernelTypeColor(a, dark);
            if (colorDifference(first, base) < kDistinctFromBase)
                tooClose.append(QStringLiteral("%1 and the base").arg(a));
            // The names drawn in a kernel: black on the light colours, white on the dark ones.
            const double text = contrastRatio(first, dark ? QColor(Qt::white) : QColor(Qt::black));
            if (text < 3)
                tooClose.append(QStringLiteral("%1's text at %2:1").arg(a).arg(text));
            for (int b = a + 1; b < kKernelTypeColorCount; ++b) {
                const double difference = colorDifference(first, kernelTypeColor(b, dark));
                if (difference < kDistinctTypes)
                    tooClose.append(QStringLiteral("%1 and %2 (%3)").arg(a).arg(b).arg(difference, 0, 'f', 1));
            }
        }
        QVERIFY2(tooClose.isEmpty(), qPrintable(tooClose.join(QStringLiteral(", "))));
    }

    // The types the issue found too close, by their index in the default classifier
    // (GEMM 0, Attention 2, Norm 3, Elementwise 5, Reduce 6, Memory 10, KVCache 11).
    void theTypesOnceTooCloseDiffer()
    {
        for (const bool dark : { false, true }) {
            for (const auto& [a, b] : { std::pair { 2, 10 }, { 0, 5 }, { 3, 11 }, { 3, 6 }, { 6, 11 } }) {
                const double difference = colorDifference(kernelTypeColor(a, dark), kernelTypeColor(b, dark));
                QVERIFY2(difference >= kDistinctTypes, qPrintable(QString::number(difference)));
            }
        }
    }

    // Issue 39: on the Timeline, Elementwise kernels and "idle: launch" gaps were one teal. Every
    // idle cause differs from every kernel type colour of both themes, from the sides' colours and
    // from each other cause, and is visible on both bases (the causes have one colour for both).
    void idleCausesDifferFromEveryTypeAndEachOther()
    {
        QStringList tooClose;
        for (const IdleCause cause : kCauses) {
            const QColor idle = idleCauseColor(cause);
            for (const bool dark : { false, true }) {
                for (int type = 0; type < kKernelTypeColorCount; ++type) {
                    const double difference = colorDifference(idle, kernelTypeColor(type, dark), kLightnessWeight);
                    if (difference < kHueWeightedApart)
                        tooClose.append(QStringLiteral("%1 and type %2%3 (%4)")
                                            .arg(idleCauseName(cause))
                                            .arg(type)
                                            .arg(dark ? QStringLiteral(" dark") : QString())
                                            .arg(difference, 0, 'f', 1));
                }
            }
            for (int side = 0; side < 2; ++side) {
                if (colorDifference(idle, sideColor(side), kLightnessWeight) < kHueWeightedApart)
                    tooClose.append(QStringLiteral("%1 and side %2").arg(idleCauseName(cause)).arg(side));
            }
            for (const IdleCause other : kCauses) {
                if (other > cause && colorDifference(idle, idleCauseColor(other), kLightnessWeight) < kHueWeightedApart)
                    tooClose.append(QStringLiteral("%1 and %2").arg(idleCauseName(cause), idleCauseName(other)));
            }
            for (const QColor& base : { QColor(Qt::white), darkPalette().color(QPalette::Base) }) {
                if (contrastRatio(idle, base) < 2.2)
                    tooClose.append(QStringLiteral("%1 on %2").arg(idleCauseName(cause), base.name()));
            }
        }
        QVERIFY2(tooClose.isEmpty(), qPrintable(tooClose.join(QStringLiteral(", "))));
    }

    // Issue 39: Attention (2) and Communication (9) of the default classifier were a darker and a
    // lighter cyan. Elementwise is 5, idle launch checked above.
    void attentionAndCommunicationDifferInHue()
    {
        for (const bool dark : { false, true }) {
            const double difference
                = colorDifference(kernelTypeColor(2, dark), kernelTypeColor(9, dark), kLightnessWeight);
            QVERIFY2(difference >= 2 * kHueWeightedApart, qPrintable(QString::number(difference)));
        }
    }

    void linksAreReadableOnTheirBackground_data()
    {
        QTest::addColumn<QColor>("window");
        QTest::addColumn<QColor>("base");
        QTest::addColumn<QColor>("link");
        // A darker system theme with Qt's default link blue: 2.8:1 before.
        QTest::newRow("dark grey, default blue")
            << QColor(0x45, 0x45, 0x45) << QColor(0x3A, 0x3A, 0x3A) << QColor(0x00, 0x00, 0xFF);
        QTest::newRow("grey, mid blue") << QColor(0x5A, 0x5A, 0x5A) << QColor(0x50, 0x50, 0x50)
                                        << QColor(0x30, 0x8C, 0xC6);
        QTest::newRow("light, pale link") << QColor(0xEF, 0xEF, 0xEF) << QColor(Qt::white) << QColor(0x6C, 0xB4, 0xFF);
        QTest::newRow("--dark") << darkPalette().color(QPalette::Window) << darkPalette().color(QPalette::Base)
                                << darkPalette().color(QPalette::Link);
    }
    void linksAreReadableOnTheirBackground()
    {
        QFETCH(QColor, window);
        QFETCH(QColor, base);
        QFETCH(QColor, link);
        QPalette palette;
        palette.setColor(QPalette::Window, window);
        palette.setColor(QPalette::Base, base);
        palette.setColor(QPalette::Link, link);
        palette.setColor(QPalette::LinkVisited, link.darker(120));
        const QPalette readable = withReadableLinks(palette);
        for (const QPalette::ColorRole role : { QPalette::Link, QPalette::LinkVisited }) {
            for (const QPalette::ColorRole background : { QPalette::Base, QPalette::Window }) {
                const double ratio = contrastRatio(readable.color(role), readable.color(background));
                QVERIFY2(ratio >= kBodyTextContrast,
                    qPrintable(QStringLiteral("%1 on %2: %3:1")
                                   .arg(readable.color(role).name(), readable.color(background).name())
                                   .arg(ratio, 0, 'f', 2)));
            }
        }
        // Still a link colour: a readable link is left as it is.
        if (contrastRatio(link, base) >= kBodyTextContrast && contrastRatio(link, window) >= kBodyTextContrast)
            QCOMPARE(readable.color(QPalette::Link), link);
    }
};

QTEST_MAIN(TestColors)
#include "tst_colors.moc"
