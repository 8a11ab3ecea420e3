#include "efficiency/efficiencypage.h"

#include "analysis/analysisresults.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "efficiency/rooflinechart.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"
#include "models/tablefilterproxy.h"
#include "pages/tablepage.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/columnchooser.h"
#include "widgets/wraplabel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace fusiondiff::ui {

namespace {

const QString kBoundKey = QStringLiteral("bound");
const QString kHiddenColumnsKey = QStringLiteral("hidden_columns");

// Shown from the Columns menu: the work's family and its FLOPs and bytes (the roofline's
// intensity), why a row has no FLOPs, and per side the calls, the achieved rates, the peaks and
// the note (a blank cell's tooltip says why it is blank).
const QStringList kSecondaryColumns { QStringLiteral("family"), QStringLiteral("flops"), QStringLiteral("bytes"),
    QStringLiteral("work_note"), QStringLiteral("trace1_calls"), QStringLiteral("trace2_calls"),
    QStringLiteral("trace1_tflops"), QStringLiteral("trace2_tflops"), QStringLiteral("trace1_tbps"),
    QStringLiteral("trace2_tbps"), QStringLiteral("trace1_peak_tflops"), QStringLiteral("trace2_peak_tflops"),
    QStringLiteral("trace1_peak_tbps"), QStringLiteral("trace2_peak_tbps"), QStringLiteral("trace1_note"),
    QStringLiteral("trace2_note") };

QString percentOf(double part, double whole)
{
    return whole > 0 ? formatFixed(part / whole * 100, 0) + QStringLiteral("%") : QStringLiteral("0%");
}

} // namespace

EfficiencyPage::EfficiencyPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new EfficiencyModel(this))
    , m_table(new TablePage(m_model, this))
    , m_chart(new RooflineChart(this))
    , m_bound(new QComboBox(this))
    , m_peaks(new WrapLabel(this))
    , m_chartNote(new QLabel(this))
    , m_openNote(new QLabel(this))
    , m_columnsButton(new QToolButton(this))
{
    m_peaks->setTextFormat(Qt::RichText);
    m_peaks->setObjectName(QStringLiteral("efficiency_peaks"));
    m_bound->setObjectName(QStringLiteral("efficiency_bound"));
    m_bound->addItem(tr("Every row"), static_cast<int>(BoundFilter::All));
    m_bound->addItem(tr("Compute-bound"), static_cast<int>(BoundFilter::Compute));
    m_bound->addItem(tr("Memory-bound"), static_cast<int>(BoundFilter::Memory));
    m_bound->addItem(tr("Bound differs by side"), static_cast<int>(BoundFilter::Differs));
    m_bound->addItem(tr("No bound known"), static_cast<int>(BoundFilter::Unknown));
    m_bound->setToolTip(tr("The roof that binds at the row's intensity (FLOPs per byte) on either side's GPU"));
    auto* boundLabel = new QLabel(tr("&Bound:"), this);
    boundLabel->setBuddy(m_bound);

    m_table->setTitle(tr("Against the GPUs' peaks"));
    m_table->setMaximumColumnWidth(220); // long operator names are elided (the tooltip has them whole)
    m_table->setStretchColumnKeys({ QStringLiteral("shape") }, 120);
    applyBoundFilter();
    m_table->view()->setToolTip(tr("Double-click a row, or press Enter, to open its operation"));
    // The table has 25 columns: the secondary ones (what the roofline and the "of peak" cells
    // already say, and the notes a blank cell's tooltip gives) are hidden until asked for, so the
    // rest fit beside the roofline at 1440x900.
    m_columns = new ColumnChooser(m_table->view(), ReportTableModel::ColumnKeyRole, kSecondaryColumns, this);
    m_columnsButton->setObjectName(QStringLiteral("efficiency_columns"));
    m_columnsButton->setMenu(m_columns->menu());
    m_columnsButton->setPopupMode(QToolButton::InstantPopup);
    m_columnsButton->setToolTip(tr("Choose the table's columns (also from the header's context menu)"));
    const auto columnsChanged = [this] {
        m_columnsButton->setText(m_columns->buttonText());
        m_table->adjustColumns();
    };
    connect(m_columns, &ColumnChooser::columnsChanged, this, columnsChanged);
    columnsChanged();

    for (QLabel* note : { m_chartNote, m_openNote }) {
        note->setWordWrap(true);
        note->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(secondaryTextColor().name()));
    }
    m_openNote->hide();

    auto* chartPanel = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    m_chart->setMinimumSize(280, 280);
    chartLayout->addWidget(m_chart, 1);
    chartLayout->addWidget(m_chartNote);

    auto* splitter = new AdaptiveSplitter(kSideBySideWidth, this);
    splitter->setObjectName(QStringLiteral("efficiency_splitter"));
    splitter->addWidget(chartPanel);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* header = new QHBoxLayout;
    header->addWidget(m_peaks, 1);
    header->addWidget(boundLabel, 0, Qt::AlignTop);
    header->addWidget(m_bound, 0, Qt::AlignTop);
    header->addWidget(m_columnsButton, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addLayout(header);
    layout->addWidget(m_openNote);
    layout->addWidget(splitter, 1);

    // The chart draws the rows the table shows: once per change of the filters, not per row.
    m_chartUpdate.setSingleShot(true);
    m_chartUpdate.setInterval(0);
    connect(&m_chartUpdate, &QTimer::timeout, this, &EfficiencyPage::updateChart);
    TableFilterProxy* proxy = m_table->proxy();
    for (const auto signal : { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(proxy, signal, &m_chartUpdate, qOverload<>(&QTimer::start));
    connect(proxy, &QAbstractItemModel::modelReset, &m_chartUpdate, qOverload<>(&QTimer::start));
    connect(proxy, &QAbstractItemModel::layoutChanged, &m_chartUpdate, qOverload<>(&QTimer::start));
    connect(m_bound, &QComboBox::currentIndexChanged, this, &EfficiencyPage::applyBoundFilter);

    connect(m_table, &TablePage::exportCsvRequested, this, &EfficiencyPage::exportCsvRequested);
    connect(m_table, &TablePage::selectedSourceRowsChanged, this, [this](const QList<int>& rows) {
        m_chart->setSelectedRows(rows);
        updateChartNote(); // the roofs follow the selected row's data type
    });
    connect(m_chart, &RooflineChart::rowClicked, this, [this](int row) {
        m_table->selectSourceRows({ row });
        m_table->view()->setFocus(Qt::MouseFocusReason);
    });
    connect(m_table->view(), &QAbstractItemView::activated, this,
        [this](const QModelIndex& index) { openRow(m_table->proxy()->mapToSource(index).row()); });
    updatePeaksText();
}

void EfficiencyPage::setResults(const AnalysisResults& results)
{
    m_report = results.report;
    m_openNote->hide();
    m_table->setResults(results);
    updatePeaksText();
    updateChart();
}

QString EfficiencyPage::csvName() const
{
    return m_table->csvName();
}

QJsonObject EfficiencyPage::saveState() const
{
    return { { QStringLiteral("table"), m_table->saveState() }, { kBoundKey, m_bound->currentIndex() },
        { kHiddenColumnsKey, QJsonArray::fromStringList(m_columns->hiddenKeys()) } };
}

void EfficiencyPage::restoreState(const QJsonObject& state)
{
    if (state.contains(kBoundKey))
        m_bound->setCurrentIndex(std::clamp(state.value(kBoundKey).toInt(), 0, m_bound->count() - 1));
    if (state.contains(kHiddenColumnsKey)) {
        QStringList hidden;
        for (const auto& key : state.value(kHiddenColumnsKey).toArray())
            hidden.append(key.toString());
        m_columns->setHiddenKeys(hidden);
    }
    m_table->restoreState(state.value(QStringLiteral("table")).toObject());
}

void EfficiencyPage::applyBoundFilter()
{
    const auto filter = static_cast<BoundFilter>(m_bound->currentData().toInt());
    m_table->proxy()->setRowFilter([this, filter](int row) {
        return !m_report || static_cast<size_t>(row) >= m_report->efficiency.rows.size()
            || rowPassesBound(m_report->efficiency.rows[static_cast<size_t>(row)], filter);
    });
}

void EfficiencyPage::setBoundFilter(BoundFilter filter)
{
    m_bound->setCurrentIndex(m_bound->findData(static_cast<int>(filter)));
}

QString EfficiencyPage::peaksText() const
{
    return m_peaks->text();
}

void EfficiencyPage::updatePeaksText()
{
    if (!m_report) {
        m_peaks->setText(tr("Open two traces to compare each operation's speed against its GPU's peaks."));
        return;
    }
    const EfficiencyReport& efficiency = m_report->efficiency;
    const bool builtIn = efficiency.peaksOrigin == "built-in";
    QString text = builtIn ? tr("<b>Peaks:</b> %1, the built-in file (vendors' datasheets; dense, no sparsity).")
                                 .arg(toQString(efficiency.peaksDefinition).toHtmlEscaped())
                           : tr("<b>Peaks:</b> %1, from your file %2 (Analysis Settings, GPU peaks file).")
                                 .arg(toQString(efficiency.peaksDefinition).toHtmlEscaped(),
                                     toQString(efficiency.peaksOrigin).toHtmlEscaped());
    for (size_t side = 0; side < 2; ++side) {
        const EfficiencyGpu& gpu = efficiency.gpus[side];
        const QString name = QStringLiteral("%1 (%2)").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"),
            sideAlias(*m_report, static_cast<int>(side)).toHtmlEscaped());
        if (gpu.gpu.empty()) {
            text += QStringLiteral("<br>")
                + tr("<b>%1: GPU unknown</b> <span style=\"color:%2\">(%3): its peaks, "
                     "shares and bounds are blank.</span>")
                      .arg(name, errorTextColor().name(), toQString(gpu.how).toHtmlEscaped());
        } else {
            text += QStringLiteral("<br>")
                + tr("<b>%1: %2</b>, detected %3. The table's rows hold %4 of its kernel time.")
                      .arg(name, toQString(gpu.gpu).toHtmlEscaped(), toQString(gpu.how).toHtmlEscaped(),
                          percentOf(efficiency.modelledUs[side], efficiency.kernelUs[side]));
        }
    }
    m_peaks->setText(text);
}

void EfficiencyPage::updateChart()
{
    QList<int> rows;
    const TableFilterProxy* proxy = m_table->proxy();
    rows.reserve(proxy->rowCount());
    for (int row = 0; row < proxy->rowCount(); ++row)
        rows.append(proxy->mapToSource(proxy->index(row, 0)).row());
    m_chart->setRows(m_report, rows);
    m_chart->setSelectedRows(m_table->selectedSourceRows());
    updateChartNote();
}

void EfficiencyPage::updateChartNote()
{
    if (!m_report) {
        m_chartNote->clear();
        return;
    }
    const int shown = m_table->proxy()->rowCount();
    const int plotted = static_cast<int>(m_chart->plottedRows().size());
    QString note;
    if (m_report->efficiency.rows.empty())
        note = tr("No operator calls to judge: neither trace's kernels were launched by a recorded operator.");
    else if (plotted == 0)
        note = tr("None of the %1 rows shown has FLOPs on either side (memory operators, or no shapes recorded): "
                  "the table says why.")
                   .arg(shown);
    else
        note = tr("%1 of the %2 rows shown have FLOPs: a point per side (A ●, B ■) at the calls' median, joined "
                  "by a line. Dashed: each side's roofs for %3, the selected row's data type or else the one with "
                  "the most time at stake. Rows without FLOPs (memory operators) are in the table only.")
                   .arg(plotted)
                   .arg(shown)
                   .arg(m_chart->roofDataType().isEmpty() ? tr("no data type") : m_chart->roofDataType());
    m_chartNote->setText(note);
}

void EfficiencyPage::openRow(int row)
{
    if (!m_report || row < 0)
        return;
    const DrillTarget target = drillTargetOf(*m_report, static_cast<size_t>(row));
    switch (target.kind) {
    case DrillTarget::Finding:
        m_openNote->hide();
        emit findingRequested(target.row);
        return;
    case DrillTarget::Operation:
        m_openNote->hide();
        emit operationRequested(target.row);
        return;
    case DrillTarget::None:
        break;
    }
    m_openNote->setText(tr("%1 is in no operation the comparison holds at the chosen level (Analysis Settings, "
                           "Operation level): there is no drill-down to open for it.")
                            .arg(toQString(m_report->efficiency.rows[static_cast<size_t>(row)].op)));
    m_openNote->show();
}

} // namespace fusiondiff::ui
