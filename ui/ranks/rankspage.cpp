#include "ranks/rankspage.h"

#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ranks/rankdata.h"
#include "ranks/rankheatmap.h"
#include "ranks/rankwaitbars.h"
#include "report/reportjob.h"
#include "widgets/wraplabel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace fusiondiff::ui {

QString runName(const JobReport& job, int side)
{
    const std::vector<RankSummary>& ranks = job.sides[size_t(side)].ranks;
    if (ranks.empty())
        return {};
    return QFileInfo(QFile::decodeName(QByteArray::fromStdString(ranks.front().path))).dir().dirName();
}

RanksPage::RanksPage(QWidget* parent)
    : QWidget(parent)
    , m_header(new WrapLabel(this))
    , m_pairs(new QComboBox(this))
    , m_heatmapValue(new QComboBox(this))
    , m_barsMode(new QComboBox(this))
{
    m_header->setTextFormat(Qt::PlainText);
    m_header->setMinimumHeightFollowsText(true);
    m_pairs->setToolTip(tr("The ranks every other view compares"));
    m_pairs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_heatmapValue->addItem(tr("Step time"));
    m_heatmapValue->addItem(tr("Collective wait"));
    m_heatmapValue->setToolTip(tr("What the heatmaps colour: each rank's own step time, or its wait at the step's "
                                  "collectives for the last rank to arrive"));
    m_barsMode->addItem(tr("Stacked"));
    m_barsMode->addItem(tr("Side by side"));

    // On two rows: in one they made the page wider than a 720-pixel window (1440 at twice the scale).
    auto* pairRow = new QHBoxLayout;
    pairRow->addWidget(new QLabel(tr("Compare in every view:"), this));
    pairRow->addWidget(m_pairs);
    pairRow->addStretch(1);
    auto* viewRow = new QHBoxLayout;
    viewRow->addWidget(new QLabel(tr("Heatmap:"), this));
    viewRow->addWidget(m_heatmapValue);
    viewRow->addSpacing(12);
    viewRow->addWidget(new QLabel(tr("Wait and transfer:"), this));
    viewRow->addWidget(m_barsMode);
    viewRow->addStretch(1);

    auto* sides = new QHBoxLayout;
    for (size_t side = 0; side < 2; ++side) {
        m_boxes[side] = new QGroupBox(this);
        auto* layout = new QVBoxLayout(m_boxes[side]);
        m_heatmapTitles[side] = new QLabel(m_boxes[side]);
        m_heatmaps[side] = new RankHeatmap(m_boxes[side]);
        m_bars[side] = new RankWaitBars(m_boxes[side]);
        auto* barsTitle = new QLabel(tr("Collective time per rank, over the compared steps"), m_boxes[side]);
        barsTitle->setWordWrap(true);
        m_heatmapTitles[side]->setWordWrap(true);
        layout->addWidget(m_heatmapTitles[side]);
        layout->addWidget(m_heatmaps[side], 1);
        layout->addWidget(barsTitle);
        layout->addWidget(m_bars[side], 1);
        sides->addWidget(m_boxes[side], 1);
        const int sideIndex = int(side);
        connect(m_heatmaps[side], &RankHeatmap::rankClicked, this,
            [this, sideIndex](int row) { requestRank(sideIndex, row); });
        connect(m_bars[side], &RankWaitBars::rankClicked, this,
            [this, sideIndex](int row) { requestRank(sideIndex, row); });
    }

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addLayout(pairRow);
    layout->addLayout(viewRow);
    layout->addLayout(sides, 1);

    connect(m_heatmapValue, &QComboBox::currentIndexChanged, this, [this] { showJob(); });
    connect(m_barsMode, &QComboBox::currentIndexChanged, this, [this](int mode) { setStackedBars(mode == 0); });
    connect(m_pairs, &QComboBox::activated, this, [this](int index) {
        const QList<QVariant> pair = m_pairs->itemData(index).toList();
        if (pair.size() == 2)
            emit rankPairRequested(pair[0].toInt(), pair[1].toInt());
    });
}

QLabel* RanksPage::headerLabel() const
{
    return m_header;
}

void RanksPage::setResults(const AnalysisResults& results)
{
    m_report = results.report;
    showJob();
}

void RanksPage::setHeatmapValue(HeatmapValue value)
{
    m_heatmapValue->setCurrentIndex(value == HeatmapValue::StepTime ? 0 : 1);
}

void RanksPage::setStackedBars(bool stacked)
{
    {
        const QSignalBlocker blocker(m_barsMode);
        m_barsMode->setCurrentIndex(stacked ? 0 : 1);
    }
    double scale = 0;
    for (RankWaitBars* bars : m_bars) {
        bars->setStacked(stacked);
        scale = std::max(scale, bars->largestUs());
    }
    for (RankWaitBars* bars : m_bars)
        bars->setScale(scale);
}

QJsonObject RanksPage::saveState() const
{
    return { { QStringLiteral("heatmap"),
                 m_heatmapValue->currentIndex() == 0 ? QStringLiteral("step_time")
                                                     : QStringLiteral("collective_wait") },
        { QStringLiteral("bars"),
            m_barsMode->currentIndex() == 0 ? QStringLiteral("stacked") : QStringLiteral("side_by_side") } };
}

void RanksPage::restoreState(const QJsonObject& state)
{
    if (state.contains(QStringLiteral("heatmap")))
        setHeatmapValue(state.value(QStringLiteral("heatmap")).toString() == QStringLiteral("collective_wait")
                ? HeatmapValue::CollectiveWait
                : HeatmapValue::StepTime);
    if (state.contains(QStringLiteral("bars")))
        setStackedBars(state.value(QStringLiteral("bars")).toString() != QStringLiteral("side_by_side"));
}

void RanksPage::requestRank(int side, int row)
{
    if (!m_report || !m_report->job)
        return;
    const JobReport& job = *m_report->job;
    const int rank = job.sides[size_t(side)].ranks.at(size_t(row)).rank;
    std::array<int32_t, 2> pair = job.detailedPair;
    pair[size_t(side)] = rank;
    // The rank it pairs with on the other side, where the ranks pair.
    for (const std::array<int32_t, 2>& paired : job.rankPairs) {
        if (paired[size_t(side)] == rank && paired[size_t(1 - side)] >= 0)
            pair[size_t(1 - side)] = paired[size_t(1 - side)];
    }
    if (pair != job.detailedPair)
        emit rankPairRequested(pair[0], pair[1]);
}

void RanksPage::showJob()
{
    if (!m_report || !m_report->job)
        return;
    const FusionReport& report = *m_report;
    const JobReport& job = *report.job;
    const bool waits = m_heatmapValue->currentIndex() == 1;

    QString header = tr("A: %1 ranks, B: %2 ranks; %3. %4.")
                         .arg(job.sides[0].ranks.size())
                         .arg(job.sides[1].ranks.size())
                         .arg(toQString(job.pairing), toQString(jobVerdict(report)));
    if (!job.stragglers.empty()) {
        const Straggler& first = job.stragglers.front();
        QString cause = toQString(first.cause);
        if (!cause.isEmpty() && !cause.endsWith(QLatin1Char('.')))
            cause += QLatin1Char('.');
        if (!cause.isEmpty())
            cause[0] = cause[0].toUpper();
        header += QLatin1Char(' ')
            + tr("%1 rank %2 (\u25C0): %3").arg(QLatin1String(sideLetter(first.slowerSide))).arg(first.rank).arg(cause);
    }
    header += QLatin1Char(' ')
        + tr("Every other view compares A rank %1 with B rank %2; click a rank to compare another.")
              .arg(job.detailedPair[0])
              .arg(job.detailedPair[1]);
    for (const std::string& note : job.notes)
        header += QLatin1Char(' ') + toQString(note);
    m_header->setText(header);

    {
        const QSignalBlocker blocker(m_pairs);
        m_pairs->clear();
        std::vector<std::array<int32_t, 2>> pairs;
        for (const std::array<int32_t, 2>& pair : job.rankPairs) {
            if (pair[0] >= 0 && pair[1] >= 0)
                pairs.push_back(pair);
        }
        if (std::find(pairs.begin(), pairs.end(), job.detailedPair) == pairs.end())
            pairs.push_back(job.detailedPair);
        for (const std::array<int32_t, 2>& pair : pairs) {
            QString text = tr("A rank %1 with B rank %2").arg(pair[0]).arg(pair[1]);
            for (const Straggler& straggler : job.stragglers) {
                if (straggler.rank == pair[sideIndex(straggler.slowerSide)]) {
                    text += tr(" (straggler)");
                    break;
                }
            }
            m_pairs->addItem(text, QList<QVariant> { pair[0], pair[1] });
            if (pair == job.detailedPair)
                m_pairs->setCurrentIndex(m_pairs->count() - 1);
        }
    }

    double heatScale = 0;
    for (size_t side = 0; side < 2; ++side) {
        const RankSideData sideData = rankSideData(job, side);
        m_boxes[side]->setTitle(tr("%1: %2, %3 ranks")
                                    .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), runName(job, int(side)))
                                    .arg(sideData.ranks.size()));
        m_heatmapTitles[side]->setText(waits ? tr("Collective wait per rank and step (outlined: the rank waited for)")
                                             : tr("Step time per rank and step (outlined: the rank waited for)"));
        m_heatmaps[side]->setData(sideData.ranks, waits ? sideData.stepWaitUs : sideData.stepTimeUs,
            sideData.stepStraggler, sideData.straggler);
        m_bars[side]->setData(sideData.ranks, sideData.waitUs, sideData.transferUs, sideData.straggler);
        int selected = -1;
        for (size_t row = 0; row < sideData.ranks.size(); ++row) {
            if (sideData.ranks[row] == job.detailedPair[side])
                selected = int(row);
        }
        m_heatmaps[side]->setSelectedRow(selected);
        m_bars[side]->setSelectedRow(selected);
        for (const std::vector<double>& row : waits ? sideData.stepWaitUs : sideData.stepTimeUs) {
            for (const double value : row)
                heatScale = std::max(heatScale, value);
        }
    }
    // One scale for both sides, so that their colours and bars compare.
    for (RankHeatmap* heatmap : m_heatmaps)
        heatmap->setScale(heatScale);
    setStackedBars(m_barsMode->currentIndex() == 0);
}

} // namespace fusiondiff::ui
