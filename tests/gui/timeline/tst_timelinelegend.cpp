// The timeline's legend: every colour chip says what it stands for, in text that reads on its
// colour under the light and the dark theme.

#include "display/colors.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

// Two lanes of `count` kernels of two types; every fifth kernel of A runs on A only, and each lane
// has an idle gap charged to the host.
TimelineData lanes(int count)
{
    TimelineData data;
    data.typeNames = { QStringLiteral("GEMM"), QStringLiteral("Norm") };
    for (size_t side = 0; side < 2; ++side) {
        TimelineLane& lane = data.lanes[side];
        lane.title = side == 0 ? QStringLiteral("A: one") : QStringLiteral("B: other");
        for (int i = 0; i < count; ++i) {
            TimelineKernel kernel;
            kernel.start = i * 10.0;
            kernel.duration = 8;
            kernel.type = static_cast<CategoryId>(i % 2);
            kernel.name = static_cast<int>(lane.names.size());
            kernel.extra = side == 0 && i % 5 == 4;
            lane.names.append(QStringLiteral("kernel_%1").arg(i));
            lane.kernels.push_back(kernel);
        }
        lane.gaps.push_back({ .start = 8, .duration = 2, .cause = IdleCause::Host, .code = -1, .step = -1 });
        lane.finish();
    }
    return data;
}

struct Chip
{
    QColor background;
    QColor text;
    QString label;
};

// The chips of a colorChip legend, in order.
QList<Chip> chipsOf(const QString& html)
{
    static const QRegularExpression chip(
        QStringLiteral("background-color:(#[0-9a-f]{6}); color:(#[0-9a-f]{6})\">&nbsp;(.*?)&nbsp;</span>"));
    QList<Chip> chips;
    for (auto it = chip.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        chips.append({ QColor(match.captured(1)), QColor(match.captured(2)), match.captured(3) });
    }
    return chips;
}

} // namespace

class TestTimelineLegend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyChipIsLabelledAndReadable_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void everyChipIsLabelledAndReadable()
    {
        QFETCH(bool, dark);
        const QPalette original = QApplication::palette();
        QApplication::setPalette(dark ? darkPalette() : QPalette(QColor(0xEF, 0xEF, 0xEF)));
        const auto restore = qScopeGuard([&] { QApplication::setPalette(original); });
        TimelinePanel panel(QStringLiteral("legend_test"));
        panel.setData(lanes(20), QStringLiteral("test"));
        const QList<Chip> chips = chipsOf(panel.legend()->text());
        QStringList labels;
        for (const Chip& chip : chips) {
            labels.append(chip.label);
            QVERIFY2(!chip.label.trimmed().isEmpty(), qPrintable(panel.legend()->text()));
            QVERIFY2(contrastRatio(chip.background, chip.text) >= 4.5,
                qPrintable(QStringLiteral("%1 on %2 for %3: %4")
                               .arg(chip.text.name(), chip.background.name(), chip.label)
                               .arg(contrastRatio(chip.background, chip.text))));
        }
        // The types, the side-only marks in their sides' colours, the idle cause.
        QCOMPARE(labels,
            QStringList({ QStringLiteral("GEMM"), QStringLiteral("Norm"), QStringLiteral("only A"),
                QStringLiteral("only B"), QStringLiteral("idle: host") }));
        QCOMPARE(chips[2].background, sideSelectedColor(0));
        QCOMPARE(chips[3].background, sideSelectedColor(1));
        QVERIFY(panel.legend()->toolTip().contains(QStringLiteral("only A")));
    }
};

QTEST_MAIN(TestTimelineLegend)
#include "tst_timelinelegend.moc"
