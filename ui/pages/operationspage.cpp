#include "pages/operationspage.h"

#include "analysis/analysisresults.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "model/fusionreport.h"
#include "models/findingalignmentmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "pages/drilldownstate.h"
#include "pages/findingdetails.h"
#include "pages/tablepage.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/deferredtextbrowser.h"
#include "widgets/wraplabel.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace fusiondiff::ui {

OperationsPage::OperationsPage(QWidget* parent)
    : QWidget(parent)
    , m_findingsModel(new ReportColumnsModel(ReportTableId::OpFindings, this))
    , m_alignmentModel(new FindingAlignmentModel(this))
    , m_findings(new TablePage(m_findingsModel, this))
    , m_alignment(new TablePage(m_alignmentModel, this))
    , m_details(new DeferredTextBrowser(this))
    , m_alignmentTitle(new WrapLabel(this))
    , m_emptyText(new WrapLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_timeline(new TimelinePanel(QStringLiteral("finding_timeline"), this))
{
    m_findings->setMaximumColumnWidth(260);
    m_findings->setStretchColumnKeys({ QStringLiteral("summary") }, 300);
    m_findings->view()->setSelectionMode(QAbstractItemView::SingleSelection);

    m_alignment->setTitle(tr("Kernels per call, side by side"));
    m_alignment->setSortable(false);
    m_alignment->setMaximumColumnWidth(160);
    m_alignment->setStretchColumns({ FindingAlignmentModel::NameAColumn, FindingAlignmentModel::NameBColumn }, 200);
    m_alignment->setMiddleElidedColumns({ FindingAlignmentModel::NameAColumn, FindingAlignmentModel::NameBColumn });
    // Three rows at least below the lanes, in whatever font.
    QTableView* alignmentView = m_alignment->view();
    alignmentView->setMinimumHeight(alignmentView->horizontalHeader()->sizeHint().height()
        + 3 * alignmentView->verticalHeader()->defaultSectionSize() + 2 * alignmentView->frameWidth()
        + alignmentView->horizontalScrollBar()->sizeHint().height());

    m_details->setOpenLinks(false);
    m_details->setFrameShape(QFrame::NoFrame);
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("run"))
            showRun(url.path().toInt(), true);
        else if (url.scheme() == QLatin1String("layers") && m_shownFinding >= 0)
            emit layersRequested(m_shownFinding);
    });

    m_alignmentTitle->setTextFormat(Qt::RichText);
    // Its lines count in the drill-down's minimum: the splitters above it know nothing of wrapping,
    // and would otherwise take the lines' room from the lanes and the table below it.
    m_alignmentTitle->setMinimumHeightFollowsText(true);

    // The call's kernels in time above them in a table, both following a selected kernel.
    auto* kernels = new QSplitter(Qt::Vertical, this);
    kernels->setObjectName(QStringLiteral("operations_kernels_splitter"));
    kernels->addWidget(m_timeline);
    kernels->addWidget(m_alignment);
    kernels->setStretchFactor(0, 2);
    kernels->setStretchFactor(1, 3);
    kernels->setChildrenCollapsible(false);
    connect(m_timeline->view(), &TimelineView::kernelClicked, this, [this](int, int, int row) {
        if (row >= 0)
            m_alignment->selectSourceRows({ row });
    });
    connect(m_alignment, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        if (!rows.isEmpty())
            m_timeline->view()->selectRow(rows.first());
    });

    auto* alignment = new QWidget(this);
    auto* alignmentLayout = new QVBoxLayout(alignment);
    alignmentLayout->setContentsMargins(0, 0, 0, 0);
    alignmentLayout->addWidget(m_alignmentTitle);
    alignmentLayout->addWidget(kernels, 1);

    auto* bottom = new AdaptiveSplitter(kSideBySideWidth, this);
    bottom->setObjectName(QStringLiteral("operations_detail_splitter"));
    bottom->addWidget(m_details);
    bottom->addWidget(alignment);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 5);
    bottom->setSizes({ 420, 1050 }); // the table's size hint would leave the details too narrow
    bottom->setChildrenCollapsible(false);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_splitter = splitter;
    splitter->setObjectName(QStringLiteral("operations_splitter"));
    splitter->addWidget(m_findings);
    splitter->addWidget(bottom);
    // The findings are what the page is about: they take three fifths, the drill-down of the selected
    // one the rest (the window remembers where the user puts the divider).
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({ 600, 400 }); // in proportion: the drill-down's size hint is taller
    splitter->setChildrenCollapsible(false);

    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setMargin(40);
    m_emptyText->setTextFormat(Qt::RichText);
    m_stack->addWidget(splitter);
    m_stack->addWidget(m_emptyText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_findings, &TablePage::exportCsvRequested, this, &OperationsPage::exportCsvRequested);
    connect(m_findings, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        if (!rows.isEmpty())
            showFinding(rows.first());
    });
}

QString OperationsPage::csvName() const
{
    return m_findings->csvName();
}

QJsonObject OperationsPage::saveState() const
{
    // The drill-down of the finding shown: its kernels' table (filter, selected rows), the time
    // its lanes show and the dividers the user placed (session version 2).
    const QJsonObject drillDown { { QStringLiteral("kernels"), m_alignment->saveState() },
        { QStringLiteral("lanes"), lanesState(m_timeline->view()) },
        { QStringLiteral("splitters"), splittersState(this) } };
    return { { QStringLiteral("findings"), m_findings->saveState() }, { QStringLiteral("drill_down"), drillDown } };
}

void OperationsPage::restoreState(const QJsonObject& state)
{
    m_findings->restoreState(state.value(QStringLiteral("findings")).toObject());
    // Its selection shows its finding; the first is then not selected when the page is shown.
    if (!m_findings->selectedSourceRows().isEmpty())
        m_selectFirstOnShow = false;
    // The finding is shown by now (selecting it shows it at once): its drill-down's state applies.
    const QJsonObject drillDown = state.value(QStringLiteral("drill_down")).toObject();
    restoreSplittersState(this, drillDown.value(QStringLiteral("splitters")).toObject());
    if (m_shownFinding < 0)
        return;
    m_alignment->restoreState(drillDown.value(QStringLiteral("kernels")).toObject());
    restoreLanesState(m_timeline->view(), drillDown.value(QStringLiteral("lanes")).toObject());
}

void OperationsPage::setResults(const AnalysisResults& results)
{
    m_report = results.report;
    m_shownFinding = -1;
    m_selectFirstOnShow = false;
    m_alignmentModel->setFinding(nullptr, -1);
    m_timeline->setData({}, {});
    m_findingsModel->setReport(m_report);
    m_details->setHtmlSoon({});
    m_alignmentTitle->clear();
    if (!m_report)
        return;

    if (m_report->opFindings.empty()) {
        const OpAlignment& alignment = m_report->opAlignment;
        m_emptyText->setText(
            tr("<p><b>No operation runs a different number of kernels on the two sides.</b></p><p>Operations "
               "(%1 level): %2</p><p>The Summary lists the operations whose kernels take longest compared with the "
               "other side, and the Operation summary tab compares every operation.</p>")
                .arg(QString::fromLatin1(opLevelKey(alignment.level)), toQString(alignment.verdict).toHtmlEscaped()));
        m_stack->setCurrentWidget(m_emptyText);
        return;
    }
    m_stack->setCurrentIndex(0);
    m_fitPending = true;
    fitFindingsTable();
    if (isVisible())
        selectFinding(0);
    else
        m_selectFirstOnShow = true;
}

void OperationsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitFindingsTable();
    if (m_selectFirstOnShow) {
        m_selectFirstOnShow = false;
        selectFinding(0);
    }
}

void OperationsPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitFindingsTable();
}

void OperationsPage::fitFindingsTable()
{
    if (!m_fitPending || !isVisible() || m_splitter->property(kUserSizedProperty).toBool())
        return;
    m_fitPending = false;
    QTableView* view = m_findings->view();
    // The table's title row, header, frame and scroll bar, and its rows (five at least).
    const int chrome = m_findings->height() - view->viewport()->height();
    const int rows = std::max(5, m_findings->proxy()->rowCount());
    const int wanted = chrome + rows * view->verticalHeader()->defaultSectionSize();
    const int total = m_splitter->height() - m_splitter->handleWidth();
    const int findings = std::min(wanted, total * 3 / 5);
    m_splitter->setSizes({ findings, total - findings });
}

void OperationsPage::selectFinding(int row)
{
    m_findings->selectSourceRows({ row });
    showFinding(row);
}

void OperationsPage::showFinding(int row)
{
    if (!m_report || row < 0 || static_cast<size_t>(row) >= m_report->opFindings.size() || row == m_shownFinding)
        return;
    m_shownFinding = row;
    const FusionReport& report = *m_report;
    const OpFinding& finding = report.opFindings[static_cast<size_t>(row)];
    m_details->setHtmlSoon(findingDetailsHtml(report, finding));
    m_alignmentModel->setFinding(m_report, row);
    m_timeline->setData(timelineOfFinding(report, finding), tr("One call of %1").arg(toQString(finding.op)));

    m_alignmentTitle->setText(
        tr("<b>%1</b>: A runs %2 per call, B %3, aligned by kernel type as the core compared them. Rows: "
           "%4 of the same type, %5 of different types, %6, %7; the Extra run column marks the runs described "
           "beside.")
            .arg(toQString(finding.op).toHtmlEscaped(),
                formatCountOf(finding.kernels[0].size(), tr("kernel"), tr("kernels")),
                formatCount(finding.kernels[1].size()), QString::number(m_alignmentModel->rowsWithStatus(SameType)),
                colorChip(differenceBackground(), QString::number(m_alignmentModel->rowsWithStatus(DifferentTypes))),
                colorChip(sideBackground(0), tr("%1 only in A").arg(m_alignmentModel->rowsWithStatus(OnlyA))),
                colorChip(sideBackground(1), tr("%1 only in B").arg(m_alignmentModel->rowsWithStatus(OnlyB)))));
    m_alignment->adjustColumns();
    showRun(0);
}

void OperationsPage::showRun(int run, bool select)
{
    const int row = m_alignmentModel->firstRowOfRun(run);
    if (row < 0)
        return;
    if (select)
        m_alignment->selectSourceRows(m_alignmentModel->rowsOfRun(run));
    const QModelIndex index = m_alignment->proxy()->mapFromSource(m_alignmentModel->index(row, 0));
    if (index.isValid())
        m_alignment->view()->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

QString OperationsPage::detailsText()
{
    return m_details->plainText();
}

} // namespace fusiondiff::ui
