#include "pages/operationsummarypage.h"

#include "analysis/analysisresults.h"
#include "charts/barchart.h"
#include "display/formatting.h"
#include "model/fusionreport.h"
#include "models/reportcolumnsmodel.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/minimumsizescrollarea.h"
#include "widgets/wraplabel.h"

#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace fusiondiff::ui {

namespace {

constexpr int kNoteWidth = 260; // the "no communication" note beside the extra kernels

ChartData extraKernelsChart(const FusionReport& report, ChartPanel::Metric metric)
{
    ChartData data;
    for (const ExtraKernels& extra : report.extraKernels) {
        data.categories.append(toQString(report.typeName(extra.type)));
        for (size_t side = 0; side < 2; ++side) {
            data.values[side].append(
                metric == ChartPanel::Launches ? static_cast<qreal>(extra.kernels[side]) : extra.timeUs[side] / 1000.0);
        }
    }
    data.valueTitle = metric == ChartPanel::Launches ? OperationSummaryPage::tr("Extra kernels")
                                                     : OperationSummaryPage::tr("GPU time (ms)");
    return data;
}

} // namespace

OperationSummaryPage::OperationSummaryPage(QWidget* parent)
    : QWidget(parent)
    , m_summaryModel(new ReportColumnsModel(ReportTableId::OpSummary, this))
    , m_collectivesModel(new ReportColumnsModel(ReportTableId::Collectives, this))
    , m_summary(new TablePage(m_summaryModel, this))
    , m_extraKernels(new TableChartPage(
          new ReportColumnsModel(ReportTableId::ExtraKernels), extraKernelsChart, false, Qt::Horizontal, this))
    , m_collectives(new TablePage(m_collectivesModel, this))
    , m_noCollectives(new WrapLabel(this))
    , m_collectivesStack(new QStackedWidget(this))
{
    m_summary->setTitle(tr("Every operation compared"));
    m_summary->setMaximumColumnWidth(320);
    m_summary->setStretchColumnKeys({ QStringLiteral("op") }, 220);
    m_extraKernels->table()->setTitle(tr("Extra kernels by type"));
    m_extraKernels->table()->setFilterVisible(false); // one row per kernel type: nothing to filter
    m_extraKernels->chartPanel()->chart()->setTitle(tr("Kernels one side runs where the other has none"));
    m_extraKernels->setEmptyChartText(
        tr("No operation runs a different number of kernels on the two sides: neither runs extra kernels."));
    m_collectives->setTitle(tr("Communication by collective"));
    m_collectives->setFilterVisible(false);

    m_noCollectives->setText(tr("<b>Communication</b><p>No communication kernels (NCCL, RCCL, ...) in either "
                                "trace.</p>"));
    m_noCollectives->setAlignment(Qt::AlignCenter);
    m_noCollectives->setTextFormat(Qt::RichText);
    m_collectivesStack->addWidget(m_collectives);
    m_collectivesStack->addWidget(m_noCollectives);

    auto* bottom = new AdaptiveSplitter(kSideBySideWidth, this);
    m_bottom = bottom;
    connect(bottom, &AdaptiveSplitter::orientationChanged, this, &OperationSummaryPage::updateNoteWidth);
    bottom->setObjectName(QStringLiteral("operation_summary_bottom_splitter"));
    bottom->addWidget(m_extraKernels);
    bottom->addWidget(m_collectivesStack);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({ 780, 660 }); // room for the collectives' seven columns
    bottom->setChildrenCollapsible(false);

    // The operations first: the extra kernels' table and chart, stacked in a 1024-pixel window,
    // took most of its height by their minimum and the table above showed two and a half rows.
    // Below their minimum the panels scroll, and the table has three fifths of the height.
    auto* bottomScroll = new MinimumSizeScrollArea(this);
    bottomScroll->setObjectName(QStringLiteral("operation_summary_bottom_scroll"));
    bottomScroll->setFrameShape(QFrame::NoFrame);
    bottomScroll->setWidget(bottom);
    bottomScroll->setMinimumHeight(120);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("operation_summary_splitter"));
    splitter->addWidget(m_summary);
    splitter->addWidget(bottomScroll);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({ 600, 400 });
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    for (TablePage* table : { m_summary, m_collectives })
        connect(table, &TablePage::exportCsvRequested, this, &OperationSummaryPage::exportCsvRequested);
    connect(m_extraKernels, &TableChartPage::exportCsvRequested, this, &OperationSummaryPage::exportCsvRequested);
}

QString OperationSummaryPage::csvName() const
{
    return m_summary->csvName();
}

QJsonObject OperationSummaryPage::saveState() const
{
    return { { QStringLiteral("summary"), m_summary->saveState() },
        { QStringLiteral("extra_kernels"), m_extraKernels->saveState() },
        { QStringLiteral("collectives"), m_collectives->saveState() } };
}

void OperationSummaryPage::restoreState(const QJsonObject& state)
{
    m_summary->restoreState(state.value(QStringLiteral("summary")).toObject());
    m_extraKernels->restoreState(state.value(QStringLiteral("extra_kernels")).toObject());
    m_collectives->restoreState(state.value(QStringLiteral("collectives")).toObject());
}

void OperationSummaryPage::setResults(const AnalysisResults& results)
{
    const std::shared_ptr<const FusionReport>& report = results.report;
    m_summaryModel->setReport(report);
    // By B - A, the operations that add most to the slower side's time first (the core's rows are in
    // the order of what fusion could save, which leaves an operation slower only by speed far down).
    const int delta = m_summaryModel->column("delta_time_us");
    if (report && delta >= 0)
        m_summary->view()->sortByColumn(
            delta, report->timeGap.headline().deltaUs > 0 ? Qt::AscendingOrder : Qt::DescendingOrder);
    m_collectivesModel->setReport(report);
    m_extraKernels->setResults(results);
    const bool communication = report && !report->collectives.empty();
    m_collectivesStack->setCurrentWidget(communication ? static_cast<QWidget*>(m_collectives) : m_noCollectives);
    updateNoteWidth();
}

void OperationSummaryPage::updateNoteWidth()
{
    // Without collectives the note beside the extra kernels needs little room: they take the rest.
    // Stacked, the note is as wide as the page (a splitter is no wider than its narrowest panel).
    const bool narrow = !collectivesShown() && m_bottom->orientation() == Qt::Horizontal;
    m_collectivesStack->setMaximumWidth(narrow ? kNoteWidth : QWIDGETSIZE_MAX);
}

bool OperationSummaryPage::collectivesShown() const
{
    return m_collectivesStack->currentWidget() == m_collectives;
}

} // namespace fusiondiff::ui
