#include "pages/summarypage.h"

#include "analysis/analysisresults.h"
#include "charts/gapbycause.h"
#include "charts/gapbytype.h"
#include "charts/gapwaterfall.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "models/tracesummarymodel.h"
#include "pages/phaseheadline.h"
#include "pages/tablepage.h"
#include "report/collectiveopportunity.h"
#include "report/referencecaveat.h"
#include "report/reportjob.h"
#include "report/reportnotes.h"
#include "util/textformat.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/deferredtextbrowser.h"
#include "widgets/wraplabel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

// For runs compared as jobs, the job's verdict leads; the pair's verdict after it is the detailed
// pair's ("" for a single pair).
QString jobLead(const FusionReport& report)
{
    if (!report.job)
        return {};
    return QStringLiteral("<b>%1.</b> ").arg(QString::fromStdString(jobVerdict(report)).toHtmlEscaped())
        + SummaryPage::tr("The detailed pair, A rank %1 against B rank %2: ")
              .arg(report.job->detailedPair[0])
              .arg(report.job->detailedPair[1]);
}

constexpr size_t kTopItems = 5;

// Where an entry of whereToLookFirst comes from, as a link ("finding:2", "operation:5",
// "opportunity:0", "kerneltype:3"; "idle:4" for the 5th entry, host code or a call that keeps the
// GPU idle: its gaps on the Timeline; "collective:1": its kernels there); empty if it matches none. The entries are the
// findings in order, then operations that only differ in speed, then (without findings) the opportunities: each is
// recognised by its text, so a link never points at another row.
QString lookFirstLink(const FusionReport& report, const LookFirst& item, const LookFirstEntry& entry, size_t index)
{
    if (entry.kind == LookFirstKind::Host || entry.kind == LookFirstKind::Sync || entry.kind == LookFirstKind::Launch)
        return QStringLiteral("idle:%1").arg(index);
    // A collective: its kernels marked on the Timeline.
    if (entry.kind == LookFirstKind::Collective)
        return QStringLiteral("collective:%1").arg(index);
    // Kernels compared by type only (outside the compared operations): their row in Kernel types.
    if (entry.kind == LookFirstKind::KernelType) {
        for (size_t i = 0; i < report.globalCounts.size(); ++i) {
            if (report.typeName(report.globalCounts[i].type) == entry.op)
                return QStringLiteral("kerneltype:%1").arg(i);
        }
        return {};
    }
    for (size_t i = 0; i < report.opFindings.size(); ++i) {
        if (report.opFindings[i].summary == item.headline)
            return QStringLiteral("finding:%1").arg(i);
    }
    const std::string same = ": the same kernels on both sides (";
    const size_t op = item.headline.find(same);
    if (op != std::string::npos) {
        for (size_t i = 0; i < report.opSummary.size(); ++i) {
            if (report.opSummary[i].op == item.headline.substr(0, op))
                return QStringLiteral("operation:%1").arg(i);
        }
    }
    for (size_t i = 0; i < report.opportunities.size(); ++i) {
        const FusionOpportunity& o = report.opportunities[i];
        if (item.headline.rfind(report.typeName(o.kernelType) + ": " + withThousands(int64_t(o.total[0])) + " vs ", 0)
            == 0)
            return QStringLiteral("opportunity:%1").arg(i);
    }
    return {};
}

// The QSettings key of the waterfall's basis on a step-time report: "step_time" or "gpu_kernel_time".
constexpr auto kGapBasisSetting = "summary/gap_basis";

QString zoneLetter(Side side)
{
    return side == Side::Trace1 ? QStringLiteral("A") : QStringLiteral("B");
}

} // namespace

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new TraceSummaryModel(this))
    , m_table(new TablePage(m_model, this))
    , m_findings(new DeferredTextBrowser(this))
    , m_verdict(new WrapLabel(this))
    , m_waterfall(new GapWaterfall(this))
    , m_basis(new QComboBox(this))
    , m_partDetails(new WrapLabel(this))
    , m_phases(new WrapLabel(this))
{
    m_phases->setObjectName(QStringLiteral("summary_phases"));
    m_phases->setTextFormat(Qt::RichText);
    m_phases->setMinimumHeightFollowsText(true);
    m_phases->hide();
    m_verdict->setTextFormat(Qt::RichText);
    m_partDetails->setTextFormat(Qt::RichText);
    // The verdict is the headline, and a clicked part's numbers are read as whole sentences: their
    // lines count in the page's minimum, so the splitter below never cuts them (a larger font at
    // 1024x700 cut the verdict under the waterfall); where the window has no room, it scrolls.
    m_verdict->setMinimumHeightFollowsText(true);
    m_partDetails->setMinimumHeightFollowsText(true);
    m_partDetails->hide();
    m_basis->setObjectName(QStringLiteral("summary_gap_basis"));
    m_basis->addItem(tr("Step time"), QStringLiteral("step_time"));
    m_basis->addItem(tr("GPU kernel time"), QStringLiteral("gpu_kernel_time"));
    m_basis->setToolTip(tr("The waterfall's basis: the compared steps' time, with the GPU's idle time by cause, "
                           "or the sum of the kernels' durations"));
    m_basis->setCurrentIndex(
        std::max(0, m_basis->findData(QSettings().value(kGapBasisSetting, QStringLiteral("step_time")))));
    m_basis->hide();
    connect(m_basis, &QComboBox::activated, this, [this] {
        QSettings().setValue(kGapBasisSetting, m_basis->currentData());
        m_partDetails->hide();
        showGap();
    });
    connect(m_waterfall, &GapWaterfall::partClicked, this, [this](int part) {
        if (!m_partCauses.empty()) {
            if (part < 0 || static_cast<size_t>(part) >= m_partCauses.size())
                return;
            const GapCause cause = m_partCauses[static_cast<size_t>(part)];
            // Kernels without a launch belong to no operation: no page holds their numbers (the
            // Kernel types' are the whole traces'), so they are shown here; so is the GPU time a
            // trace holds no kernels for.
            if (cause == GapCause::Unattributed || cause == GapCause::NotRecorded) {
                showPartDetails(cause);
                return;
            }
            m_partDetails->hide();
            emit gapCauseRequested(cause);
            return;
        }
        const int row = m_partTypeRows.value(part, -1);
        if (row >= 0)
            emit kernelTypeRequested(row);
    });
    m_table->setTitle(tr("The two traces"));
    m_table->setSortable(false);
    m_table->setFilterVisible(false);
    m_table->setMaximumColumnWidth(340);
    m_table->view()->setAlternatingRowColors(true);
    m_table->setStretchColumns({ TraceSummaryModel::TraceAColumn, TraceSummaryModel::TraceBColumn }, 160);

    m_findings->setOpenLinks(false);
    connect(m_findings, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const int row = url.path().toInt();
        if (url.scheme() == QLatin1String("finding"))
            emit findingRequested(row);
        else if (url.scheme() == QLatin1String("operation"))
            emit operationRequested(row);
        else if (url.scheme() == QLatin1String("opportunity"))
            emit opportunityRequested(row);
        else if (url.scheme() == QLatin1String("kerneltype"))
            emit kernelTypeRequested(row);
        else if (url.scheme() == QLatin1String("layers"))
            emit layersRequested();
        else if (url.scheme() == QLatin1String("idle") || url.scheme() == QLatin1String("collective"))
            emit idleGapsRequested(row);
    });
    m_findings->setFrameShape(QFrame::NoFrame);

    // The trace table beside the findings; stacked in a narrow window.
    auto* splitter = new AdaptiveSplitter(kSideBySideWidth, this);
    splitter->setObjectName(QStringLiteral("summary_splitter"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_findings);
    splitter->setStretchFactor(0, 6);
    splitter->setStretchFactor(1, 5);
    splitter->setChildrenCollapsible(false);

    // The gap at a glance above: the verdict and the waterfall of the GPU time.
    auto* gap = new QWidget(this);
    auto* gapLayout = new QVBoxLayout(gap);
    gapLayout->setContentsMargins(0, 0, 0, 0);
    auto* verdictRow = new QHBoxLayout;
    verdictRow->addWidget(m_verdict, 1);
    verdictRow->addWidget(m_basis, 0, Qt::AlignTop);
    gapLayout->addLayout(verdictRow);
    gapLayout->addWidget(m_phases);
    gapLayout->addWidget(m_waterfall, 1);
    gapLayout->addWidget(m_partDetails);
    auto* page = new QSplitter(Qt::Vertical, this);
    page->setObjectName(QStringLiteral("summary_gap_splitter"));
    page->addWidget(gap);
    page->addWidget(splitter);
    page->setStretchFactor(0, 1);
    page->setStretchFactor(1, 2);
    page->setSizes({ 260, 520 });
    page->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(page);

    connect(m_table, &TablePage::exportCsvRequested, this, &SummaryPage::exportCsvRequested);
}

void SummaryPage::showGap()
{
    const std::shared_ptr<const FusionReport>& report = m_report;
    if (!report) {
        m_basis->hide();
        m_verdict->clear();
        m_waterfall->setData({});
        m_partCauses.clear();
        m_partTypeRows.clear();
        return;
    }
    // The time gap by cause (the core's time_gap, on the headline's basis or its kernel time); by
    // kernel type where it has nothing to split.
    const TimeGap& timeGap = report->timeGap;
    const bool steps = timeGap.onStepTime && timeGap.stepTime;
    m_basis->setVisible(steps);
    const bool onSteps = steps && m_basis->currentData().toString() == QLatin1String("step_time");
    m_onSteps = onSteps;
    const TimeGapBreakdown& breakdown = onSteps ? *timeGap.stepTime : timeGap.kernelTime;
    GapWaterfallData byCause = gapByCause(*report, breakdown, &m_partCauses);
    if (!byCause.parts.empty()) {
        m_partTypeRows.clear();
        const bool fromB = byCause.fromB;
        const QString basis = onSteps ? tr("step time") : tr("GPU kernel time");
        const QString from = fromB ? QStringLiteral("B") : QStringLiteral("A");
        const QString to = fromB ? QStringLiteral("A") : QStringLiteral("B");
        m_waterfall->setToolTip(
            tr("From %1's %2 to %3's, by cause; click a part to see the findings behind it").arg(from, basis, to));
        m_waterfall->setData(std::move(byCause));
        const double floor = m_waterfall->axisFloor();
        const QString hatched = onSteps
            ? tr("hatched: extra kernels, i.e. fusion; host, sync, launch, other idle: the GPU waits")
            : tr("hatched: extra kernels, i.e. fusion");
        m_verdict->setText(jobLead(*report) + gapCauseVerdict(*report) + QStringLiteral(" ")
            + (floor > 0 ? tr("By cause, from %1's %2 to %3's (%4; the axis starts at %5):")
                               .arg(from, basis, to, hatched, formatDuration(floor))
                         : tr("By cause, from %1's %2 to %3's (%4):").arg(from, basis, to, hatched)));
    } else {
        m_partCauses.clear();
        m_verdict->setText(jobLead(*report) + gapVerdict(*report) + QStringLiteral(" ")
            + tr("By kernel type, from A's GPU time to B's (hatched: a fusion opportunity):"));
        m_waterfall->setToolTip(tr("From A's GPU time to B's, by kernel type; click a type to see it in Kernel types"));
        m_waterfall->setData(gapByKernelType(*report, 8, &m_partTypeRows));
    }
}

void SummaryPage::showPartDetails(GapCause cause)
{
    if (!m_report)
        return;
    const TimeGap& timeGap = m_report->timeGap;
    const TimeGapBreakdown& gap = m_onSteps ? *timeGap.stepTime : timeGap.kernelTime;
    const auto part
        = std::find_if(gap.parts.begin(), gap.parts.end(), [cause](const TimeGapPart& p) { return p.cause == cause; });
    if (part == gap.parts.end())
        return;
    // The part's own numbers, signed as the waterfall's bar and the verdict: what it adds to the
    // slower side's time (deltaUs is A - B).
    const bool aSlower = gap.deltaUs > 0;
    const double sign = aSlower ? 1.0 : -1.0;
    if (cause == GapCause::NotRecorded) {
        // No kernels to count: the time, and the launch that ran on in the graph comparison's words.
        QString text = QStringLiteral("<b>%1</b>").arg(toQString(part->title).toHtmlEscaped()) + QStringLiteral(": ")
            + tr("A %1, B %2; %3 to %4's time.")
                  .arg(formatDuration(part->timeUs[0]), formatDuration(part->timeUs[1]),
                      formatSignedDuration(sign * part->deltaUs), aSlower ? QStringLiteral("A") : QStringLiteral("B"));
        for (const GraphCoverage& coverage : m_report->graphComparison.coverage) {
            if (coverage.unrecordedUs > 0)
                text += QLatin1Char(' ') + toQString(coverage.statement).toHtmlEscaped();
        }
        m_partDetails->setText(text);
        m_partDetails->show();
        return;
    }
    QString text = QStringLiteral("<b>%1</b>").arg(toQString(part->title).toHtmlEscaped()) + QStringLiteral(": ")
        + tr("A %1 in %2, B %3 in %4; %5 to %6's time")
              .arg(formatDuration(part->timeUs[0]), formatCountOf(part->kernels[0], tr("kernel"), tr("kernels")),
                  formatDuration(part->timeUs[1]), formatCountOf(part->kernels[1], tr("kernel"), tr("kernels")),
                  formatSignedDuration(sign * part->deltaUs), aSlower ? QStringLiteral("A") : QStringLiteral("B"));
    QStringList contributors;
    for (const GapContributor& contributor : part->top) {
        contributors.append(
            tr("%1 %2 (A %3 in %4, B %5 in %6)")
                .arg(toQString(contributor.name).toHtmlEscaped(), formatSignedDuration(sign * contributor.deltaUs),
                    formatDuration(contributor.timeUs[0]),
                    formatCountOf(contributor.kernels[0], tr("kernel"), tr("kernels")),
                    formatDuration(contributor.timeUs[1]),
                    formatCountOf(contributor.kernels[1], tr("kernel"), tr("kernels"))));
    }
    if (!contributors.isEmpty())
        text += QStringLiteral(". ") + tr("Largest: %1").arg(contributors.join(QStringLiteral("; ")));
    m_partDetails->setText(text + QLatin1Char('.'));
    m_partDetails->show();
}

QString SummaryPage::partDetailsText() const
{
    return m_partDetails->isVisible() ? m_partDetails->text() : QString();
}

QString SummaryPage::csvName() const
{
    return m_table->csvName();
}

QJsonObject SummaryPage::saveState() const
{
    return { { QStringLiteral("basis"), m_basis->currentData().toString() } };
}

void SummaryPage::restoreState(const QJsonObject& state)
{
    const int basis = m_basis->findData(state.value(QStringLiteral("basis")).toString());
    if (basis < 0 || basis == m_basis->currentIndex())
        return;
    m_basis->setCurrentIndex(basis);
    m_partDetails->hide();
    showGap();
}

void SummaryPage::setResults(const AnalysisResults& results)
{
    const std::shared_ptr<const FusionReport>& report = results.report;
    const double analysisSeconds = results.analysisSeconds;
    m_model->setReport(report);
    m_report = report;
    m_partDetails->hide();
    showGap();
    const QString phases = report ? phaseHeadlineHtml(*report) : QString();
    m_phases->setText(phases);
    m_phases->setVisible(!phases.isEmpty());
    if (!report) {
        m_findings->setHtmlSoon({});
        return;
    }

    QString html;
    html += QStringLiteral("<h3>") + tr("Where to look first") + QStringLiteral("</h3>");
    const std::vector<LookFirst> first = whereToLookFirst(*report);
    if (first.empty()) {
        html += QStringLiteral("<p>") + toQString(nothingStandsOut(*report)).toHtmlEscaped() + QStringLiteral("</p>");
    } else {
        // Numbered by hand: Qt's rich text spaces a list nested in the last item of another oddly.
        for (size_t i = 0; i < first.size(); ++i) {
            const QString headline = toQString(first[i].headline).toHtmlEscaped();
            const QString link = lookFirstLink(*report, first[i], report->whereToLookFirst[i], i);
            html += QStringLiteral("<p style=\"margin-bottom:0px\"><b>%1. ").arg(i + 1)
                + (link.isEmpty() ? headline : QStringLiteral("<a href=\"%1\">%2</a>").arg(link, headline))
                + QStringLiteral("</b></p><ul style=\"margin-top:0px\">");
            for (const std::string& detail : first[i].details)
                html += QStringLiteral("<li>") + toQString(detail).toHtmlEscaped() + QStringLiteral("</li>");
            html += QStringLiteral("</ul>");
        }
        if (!report->opFindings.empty())
            html += QStringLiteral("<p>")
                + tr("The Operations tab shows each finding's call stack and its kernels side by side.")
                + QStringLiteral("</p>");
    }

    html += QStringLiteral("<h3>") + tr("Notes") + QStringLiteral("</h3><ul>");
    for (const std::string& note : reportNotes(*report)) {
        html += QStringLiteral("<li>") + toQString(note).toHtmlEscaped();
        if (note.starts_with("By layer "))
            html += QStringLiteral(" <a href=\"layers:\">") + tr("Each layer on the Layers tab")
                + QStringLiteral("</a>");
        html += QStringLiteral("</li>");
    }
    html += QStringLiteral("</ul>");

    // With the CLI's caveat: on a pair where it misleads, its "fused by" is not a finding.
    const std::string caveat = referenceAnalysisCaveat(*report);
    html += QStringLiteral("<p><i>")
        + (caveat.empty() ? tr("The reference analysis (the seed's):")
                          : tr("The reference analysis (the seed's; %1):")
                                .arg(withSideAliases(*report, toQString(caveat)).toHtmlEscaped()))
        + QStringLiteral("</i></p>");
    html += QStringLiteral("<h3>") + tr("Fusion opportunities (%1)").arg(report->opportunities.size())
        + QStringLiteral("</h3>");
    if (report->opportunities.empty()) {
        html += QStringLiteral("<p>") + tr("None passed the thresholds.") + QStringLiteral("</p>");
    } else {
        html += QStringLiteral("<ul>");
        for (size_t i = 0; i < std::min(kTopItems, report->opportunities.size()); ++i) {
            const FusionOpportunity& o = report->opportunities[i];
            html += QStringLiteral("<li>")
                + tr("<b>%1</b>: A %2 vs B %3 kernels (ratio %4), %5; %6")
                      .arg(toQString(report->typeName(o.kernelType)).toHtmlEscaped(), formatCount(o.total[0]),
                          formatCount(o.total[1]), formatRatio(o.ratio, 1),
                          isCollectiveOpportunity(*report, o)
                              ? tr("a collective difference, not fusion")
                              : tr("fused by %1 (%2)")
                                    .arg(toQString(report->sideName(o.fusedBy)).toHtmlEscaped(), zoneLetter(o.fusedBy)),
                          withSideAliases(*report, toQString(opportunityTimeText(*report, o))).toHtmlEscaped())
                + QStringLiteral("</li>");
        }
        html += QStringLiteral("</ul>");
        if (report->opportunities.size() > kTopItems)
            html += QStringLiteral("<p>")
                + tr("... and %1 more on the Fusion opportunities page.").arg(report->opportunities.size() - kTopItems)
                + QStringLiteral("</p>");
    }

    html += QStringLiteral("<h3>") + tr("Fusion mappings (%1)").arg(report->mappings.size()) + QStringLiteral("</h3>");
    if (report->mappings.empty()) {
        html += QStringLiteral("<p>") + tr("None passed the thresholds.") + QStringLiteral("</p>");
    } else {
        html += QStringLiteral("<ul>");
        for (size_t i = 0; i < std::min(kTopItems, report->mappings.size()); ++i) {
            const FusionMapping& m = report->mappings[i];
            html += QStringLiteral("<li>") + toQString(m.evidence).toHtmlEscaped() + QStringLiteral(" <i>(")
                + tr("confidence %1").arg(formatFixed(m.patternConfidence, 2)) + QStringLiteral(")</i></li>");
        }
        html += QStringLiteral("</ul>");
        if (report->mappings.size() > kTopItems)
            html += QStringLiteral("<p>")
                + tr("... and %1 more on the Fusion mappings page.").arg(report->mappings.size() - kTopItems)
                + QStringLiteral("</p>");
    }

    const ClassifierSummary& classifier = report->classifier;
    html += QStringLiteral("<p style=\"color:%1\">").arg(secondaryTextColor().name())
        + tr("Classifier <b>%1</b> (%2, %3 kernel types); operations compared at the %4 level; groups of %5+ "
             "kernels compared, size tolerance %6. Classification and analysis took %7.")
              .arg(toQString(classifier.name).toHtmlEscaped(), toQString(classifier.source).toHtmlEscaped())
              .arg(classifier.categories.size())
              .arg(QString::fromLatin1(opLevelKey(report->options.opLevel)))
              .arg(report->options.minGroupSize)
              .arg(formatFixed(report->options.sizeTolerance, 2), formatDuration(analysisSeconds * 1e6))
        + QStringLiteral("</p>");
    m_findings->setHtmlSoon(withSideAliases(*report, html));
}

QString SummaryPage::verdictText() const
{
    return m_verdict->text();
}

QString SummaryPage::phasesText() const
{
    return m_phases->isVisibleTo(this) ? m_phases->text() : QString();
}

QString SummaryPage::findingsText()
{
    return m_findings->plainText();
}

} // namespace fusiondiff::ui
