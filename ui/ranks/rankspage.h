#pragma once

#include "analysis/analysisresults.h"
#include "pages/resultspage.h"

#include <QWidget>

#include <array>
#include <memory>

class QComboBox;
class QGroupBox;
class QLabel;

namespace fusiondiff {
struct JobReport;
}

namespace fusiondiff::ui {

class RankHeatmap;
class RankWaitBars;
class WrapLabel;

// A run's name: the folder of its rank traces (of its first rank's, if they are in several).
QString runName(const JobReport& job, int side);

// The Ranks view of two multi-rank runs compared as jobs (FusionReport::job): per side a ranks ×
// steps heatmap (each rank's step time, or its wait at the step's collectives) and each rank's
// collective wait against its transfer, the straggler marked. Choosing a rank pair (the combo, or
// clicking a rank) asks for it to be the detailed pair that every other view compares.
class RanksPage : public QWidget, public ResultsPage
{
    Q_OBJECT
public:
    enum class HeatmapValue
    {
        StepTime,
        CollectiveWait,
    };

    explicit RanksPage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results) override;
    QString csvName() const override { return QStringLiteral("rank_times"); }
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    void setHeatmapValue(HeatmapValue value);
    void setStackedBars(bool stacked);
    RankHeatmap* heatmap(int side) const { return m_heatmaps[size_t(side)]; }
    RankWaitBars* waitBars(int side) const { return m_bars[size_t(side)]; }
    QComboBox* pairCombo() const { return m_pairs; }
    QLabel* headerLabel() const;

signals:
    // Rank numbers of A and B for the detailed pair.
    void rankPairRequested(int rankA, int rankB);
    void exportCsvRequested(const QString& csvName);

private:
    void showJob();
    void requestRank(int side, int row);

    std::shared_ptr<const FusionReport> m_report;
    WrapLabel* m_header;
    QComboBox* m_pairs;
    QComboBox* m_heatmapValue;
    QComboBox* m_barsMode;
    std::array<QGroupBox*, 2> m_boxes {};
    std::array<QLabel*, 2> m_heatmapTitles {};
    std::array<RankHeatmap*, 2> m_heatmaps {};
    std::array<RankWaitBars*, 2> m_bars {};
};

} // namespace fusiondiff::ui
