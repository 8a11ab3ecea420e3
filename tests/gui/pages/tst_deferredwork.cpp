// The work the result pages put off until it can be seen, or do once, which keeps the window
// responsive when results arrive and when a page is first shown: a table's columns are sized when
// it is shown, a chart on a hidden page is built when shown, rich text is laid out an event-loop
// turn later, a long cell text is fitted to its cell without the style's repeated layouts, and a
// wrapped label measures its height once per width.

#include "charts/barchart.h"
#include "models/tablefilterproxy.h"
#include "pages/tablepage.h"
#include "widgets/deferredtextbrowser.h"
#include "widgets/tabletextdelegate.h"
#include "widgets/wraplabel.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLogValueAxis>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QValueAxis>

using namespace fusiondiff::ui;

namespace {

const QChar kEllipsis(0x2026);

// A kernel name as long as those the tables show (240 characters).
QString longName()
{
    QString name = QStringLiteral("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
                                  "at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<float>>>");
    while (name.size() < 240)
        name += QStringLiteral("(at::TensorIteratorBase&, ")[name.size() % 26];
    return name;
}

int barCount(BarChart* chart)
{
    const auto* series = static_cast<QHorizontalBarSeries*>(chart->chart()->series().first());
    return static_cast<int>(series->barSets().first()->count());
}

// A chart on the second tab of `tabs`, shown with the first tab current.
BarChart* chartOnHiddenTab(QTabWidget& tabs)
{
    auto* chart = new BarChart;
    tabs.addTab(new QWidget, QStringLiteral("other"));
    tabs.addTab(chart, QStringLiteral("chart"));
    tabs.show();
    return chart;
}

} // namespace

class TestDeferredWork : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void longTextIsFittedAsTheStyleElidesIt()
    {
        const TableTextDelegate delegate;
        const QFont font = QApplication::font();
        const QFontMetricsF metrics(font);
        const QString name = longName();
        for (const int width : { 40, 120, 300, 800 }) {
            const QString shown = delegate.fitted(name, font, width);
            QVERIFY2(shown.endsWith(kEllipsis), qPrintable(shown));
            QVERIFY(name.startsWith(shown.chopped(1)));
            QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(QString::number(width)));
            // As much of the name as fits, give or take a character of Qt's own elision.
            const QString qt = QFontMetrics(font).elidedText(name, Qt::ElideRight, width);
            QVERIFY2(qAbs(shown.size() - qt.size()) <= 2, qPrintable(shown + QStringLiteral(" / ") + qt));
        }
        // Text that fits is shown whole, also in a column sized to it (as the style sizes columns
        // to their contents), and elided as Qt elides it one pixel narrower.
        for (const QString& text : { QStringLiteral("GEMM"), QStringLiteral("Attention"), QStringLiteral("Elementwise"),
                 QStringLiteral("1,516"), QStringLiteral("169 us (166–174 us)"), name }) {
            const int fits = qCeil(metrics.horizontalAdvance(text));
            QCOMPARE(delegate.fitted(text, font, fits), text);
            QCOMPARE(delegate.fitted(text, font, fits + 200), text);
            QCOMPARE(
                delegate.fitted(text, font, fits - 1), QFontMetrics(font).elidedText(text, Qt::ElideRight, fits - 1));
        }
        // A character beyond the BMP is not cut in half.
        const QString emoji = QString(60, QLatin1Char('x')) + QString::fromUtf8("\xF0\x9F\x98\x80").repeated(40);
        for (int width = 380; width < 480; width += 7) {
            const QString shown = delegate.fitted(emoji, font, width);
            QVERIFY(!shown.chopped(1).back().isHighSurrogate());
        }
    }

    void columnsAreSizedWhenTheTableIsShown()
    {
        QTabWidget tabs;
        auto* model = new QStandardItemModel(0, 3, &tabs);
        auto* other = new QWidget;
        auto* page = new TablePage(model, &tabs);
        page->setStretchColumns({ 0 }, 300);
        tabs.addTab(other, QStringLiteral("other"));
        tabs.addTab(page, QStringLiteral("table"));
        tabs.resize(1000, 600);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));

        // The model changes while the table is hidden: nothing is measured yet.
        QHeaderView* header = page->view()->horizontalHeader();
        const int before = header->sectionSize(2);
        for (int row = 0; row < 500; ++row) {
            model->appendRow({ new QStandardItem(longName()), new QStandardItem(QStringLiteral("Elementwise")),
                new QStandardItem(QStringLiteral("a rather wide column of text %1").arg(row)) });
        }
        page->adjustColumns(); // as a model reset does
        QCOMPARE(header->sectionSize(2), before);

        // Shown: sized from a sample of the rows, the name column taking the room left.
        tabs.setCurrentWidget(page);
        QVERIFY(header->sectionSize(2) > before);
        QVERIFY(header->sectionSize(0) >= 300);
        QCOMPARE(header->sectionSize(0) + header->sectionSize(1) + header->sectionSize(2),
            page->view()->viewport()->width());
    }

    void hiddenChartIsBuiltWhenShown()
    {
        QTabWidget tabs;
        BarChart* chart = chartOnHiddenTab(tabs);
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));

        const QStringList categories { QStringLiteral("GEMM"), QStringLiteral("Memory"), QStringLiteral("Reduce") };
        chart->setData(
            categories, QStringLiteral("A"), { 1, 2, 3 }, QStringLiteral("B"), { 3, 2, 1 }, QStringLiteral("Kernels"));
        chart->setSelectedCategories({ 1 });
        // The data is there at once; the series waits for the chart to be seen.
        QCOMPARE(chart->categories(), categories);
        QCOMPARE(chart->values(1), QList<qreal>({ 3, 2, 1 }));
        QCOMPARE(chart->selectedCategories(), QList<int>({ 1 }));
        QCOMPARE(barCount(chart), 0);

        tabs.setCurrentWidget(chart);
        QCOMPARE(barCount(chart), 3);
        QCOMPARE(chart->selectedCategories(), QList<int>({ 1 }));
        const auto* series = static_cast<QHorizontalBarSeries*>(chart->chart()->series().first());
        for (const QBarSet* set : series->barSets())
            QVERIFY(set->isBarSelected(1)); // the middle one of three, whichever way up

        // On screen, a change shows at once; in a window not shown, the chart is built at once too.
        chart->setData({ QStringLiteral("GEMM") }, QStringLiteral("A"), { 1 }, QStringLiteral("B"), { 2 }, {});
        QCOMPARE(barCount(chart), 1);
        BarChart alone;
        alone.setData(categories, QStringLiteral("A"), { 1, 2, 3 }, QStringLiteral("B"), { 3, 2, 1 }, {});
        QCOMPARE(barCount(&alone), 3);
    }

    void rebuiltChartKeepsItsAxes()
    {
        // A rebuild updates the chart's axes instead of replacing them: a removed axis keeps its
        // labels and grid lines in the scene until its deferred deletion, so that a chart rebuilt
        // as its page was shown could be painted with the old axis beneath the new one.
        QTabWidget tabs;
        BarChart* chart = chartOnHiddenTab(tabs);
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        const auto fill = [&](qreal scale) {
            chart->setData({ QStringLiteral("GEMM"), QStringLiteral("Memory") }, QStringLiteral("A"),
                { 10 * scale, 200 * scale }, QStringLiteral("B"), { 30, 4 }, QStringLiteral("n"));
        };
        fill(1);
        tabs.setCurrentWidget(chart);
        const QList<QAbstractAxis*> axes = chart->chart()->axes();
        QCOMPARE(axes.size(), 2);
        auto* linear = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(linear);
        QVERIFY(linear->max() >= 210 && linear->max() < 500); // 200 × 1.05, to nice numbers

        // New data, set on a hidden page and on screen: the same axes, new ranges and categories.
        tabs.setCurrentIndex(0);
        fill(10);
        tabs.setCurrentWidget(chart);
        QCOMPARE(chart->chart()->axes(), axes);
        QVERIFY(linear->max() >= 2100 && linear->max() < 5000);
        chart->setData({ QStringLiteral("Reduce") }, QStringLiteral("A"), { 1 }, QStringLiteral("B"), { 2 }, {});
        QCOMPARE(chart->chart()->axes(), axes);
        QCOMPARE(qobject_cast<QBarCategoryAxis*>(chart->chart()->axes(Qt::Vertical).value(0))->categories(),
            QStringList { QStringLiteral("Reduce") });

        // To a log scale and back: one value axis at a time, the linear one back as it was.
        chart->setLogarithmic(true);
        QCOMPARE(chart->chart()->axes().size(), 2);
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0)));
        tabs.setCurrentIndex(0);
        chart->setLogarithmic(false);
        tabs.setCurrentWidget(chart);
        QCOMPARE(chart->chart()->axes(), axes);
    }

    void wrappedLabelMeasuresAsQLabel()
    {
        WrapLabel label;
        QLabel plain;
        plain.setWordWrap(true);
        for (QLabel* each : { static_cast<QLabel*>(&label), &plain }) {
            each->setTextFormat(Qt::RichText);
            each->setText(QStringLiteral("<b>Communication</b><p>No communication kernels (NCCL, RCCL, ...) in "
                                         "either trace.</p>"));
        }
        QVERIFY(label.hasHeightForWidth());
        for (const int width : { 80, 200, 200, 600, 80 })
            QCOMPARE(label.heightForWidth(width), plain.heightForWidth(width));
        // A new text, margin or font is measured again.
        for (QLabel* each : { static_cast<QLabel*>(&label), &plain })
            each->setText(QStringLiteral("<p>A much longer text that wraps onto more lines than the one before it "
                                         "did at the same width, and then some more.</p>"));
        QCOMPARE(label.heightForWidth(200), plain.heightForWidth(200));
        label.setMargin(40);
        plain.setMargin(40);
        QCOMPARE(label.heightForWidth(200), plain.heightForWidth(200));
        QFont big = label.font();
        big.setPointSize(big.pointSize() * 2);
        label.setFont(big);
        plain.setFont(big);
        QCOMPARE(label.heightForWidth(200), plain.heightForWidth(200));
    }

    void richTextFollowsATurnLater()
    {
        DeferredTextBrowser browser;
        browser.setHtmlSoon(QStringLiteral("<h3>Where to look first</h3><p>one</p>"));
        QCOMPARE(browser.toPlainText(), QString());
        QTRY_COMPARE(browser.toPlainText(), QStringLiteral("Where to look first\none"));

        // A newer text replaces one still waiting; asking for the text shows it at once.
        browser.setHtmlSoon(QStringLiteral("<p>two</p>"));
        browser.setHtmlSoon(QStringLiteral("<p>three</p>"));
        QCOMPARE(browser.plainText(), QStringLiteral("three"));

        // Cleared at once, and nothing waiting comes back.
        browser.setHtmlSoon(QStringLiteral("<p>four</p>"));
        browser.setHtmlSoon({});
        QCOMPARE(browser.toPlainText(), QString());
        QTest::qWait(20);
        QCOMPARE(browser.toPlainText(), QString());
    }
};

QTEST_MAIN(TestDeferredWork)
#include "tst_deferredwork.moc"
