#include "pages/layerspage.h"

#include "analysis/analysisresults.h"
#include "charts/layerchart.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "export/imageexport.h"
#include "model/fusionreport.h"
#include "models/layerfindingsproxy.h"
#include "models/layertimesmodel.h"
#include "models/reportcolumnsmodel.h"
#include "models/tablefilterproxy.h"
#include "pages/tablepage.h"
#include "report/reportnotes.h"
#include "widgets/adaptivesplitter.h"
#include "widgets/wraplabel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

namespace {

QString percent(double share)
{
    return QStringLiteral("%1%").arg(std::lround(share * 100));
}

// "24 calls of nn.Module: Qwen2DecoderLayer a step on each side", or each side's unit.
QString unitsText(const FusionReport& report)
{
    const LayerAlignment& layers = report.opAlignment.layers;
    const QString calls
        = layers.perStep == 1 ? LayersPage::tr("1 call") : LayersPage::tr("%1 calls").arg(formatCount(layers.perStep));
    if (layers.unit[0] == layers.unit[1]) {
        return LayersPage::tr("%1 of <b>%2</b> a step on each side")
            .arg(calls, toQString(layers.unit[0]).toHtmlEscaped());
    }
    return LayersPage::tr("%1 a step: <b>%2</b> in A (%3), <b>%4</b> in B (%5)")
        .arg(calls, toQString(layers.unit[0]).toHtmlEscaped(), sideAlias(report, 0).toHtmlEscaped(),
            toQString(layers.unit[1]).toHtmlEscaped(), sideAlias(report, 1).toHtmlEscaped());
}

// Whether every layer has as many calls as the others, on both sides (one a compared step).
bool sameCallsPerLayer(const FusionReport& report)
{
    const uint64_t calls = report.layerTimes.empty() ? 0 : report.layerTimes.front().calls[0];
    return std::all_of(report.layerTimes.begin(), report.layerTimes.end(),
        [calls](const LayerTimes& layer) { return layer.calls[0] == calls && layer.calls[1] == calls; });
}

QString headerText(const FusionReport& report)
{
    const LayerAlignment& layers = report.opAlignment.layers;
    QString compared = layers.calls[0] == layers.calls[1]
        ? LayersPage::tr("%1 layer calls compared on each side").arg(formatCount(layers.calls[0]))
        : LayersPage::tr("%1 layer calls compared in A, %2 in B")
              .arg(formatCount(layers.calls[0]), formatCount(layers.calls[1]));
    if (sameCallsPerLayer(report))
        compared += LayersPage::tr(" (%1 per layer)").arg(formatCount(report.layerTimes.front().calls[0]));
    const QString share = std::lround(layers.share[0] * 100) == std::lround(layers.share[1] * 100)
        ? LayersPage::tr("%1 of the operations on each side").arg(percent(layers.share[0]))
        : LayersPage::tr("%1 of A's operations and %2 of B's").arg(percent(layers.share[0]), percent(layers.share[1]));
    QString text = LayersPage::tr("<b>Layers:</b> %1. %2, holding %3; %4 operation pairs made inside them.")
                       .arg(unitsText(report), compared, share, formatCount(layers.matched));
    // The layer notes, one per compared phase with layers (each names its phase when the traces
    // have several, and which phases have none): the table and chart hold every phase's rows.
    const std::string byLayer = "By " + layerNoun(layers, false) + " ";
    for (const std::string& note : reportNotes(report)) {
        if (note.starts_with(byLayer))
            text += QStringLiteral("<br>") + withSideAliases(report, toQString(note)).toHtmlEscaped();
    }
    return text;
}

} // namespace

QString noLayersText(const FusionReport& report)
{
    if (!report.layerTimes.empty())
        return {};
    const OpAlignment& alignment = report.opAlignment;
    QString why;
    if (report.options.opLevel != OpLevel::Auto) {
        why = LayersPage::tr("The operations were compared at the %1 level: only the automatic alignment (the "
                             "operation level <i>Automatic</i> in the Analysis Settings, <tt>--op-level auto</tt>) "
                             "looks for layers.")
                  .arg(QString::fromLatin1(opLevelKey(report.options.opLevel)));
    } else if (alignment.matched == 0) {
        why = LayersPage::tr("No operations were compared, so there are no layers to compare them in.");
    } else {
        for (const std::string& note : alignment.notes) {
            if (note.starts_with("No layers in common"))
                why += withSideAliases(report, toQString(note)).toHtmlEscaped() + QStringLiteral(".<br>");
        }
        if (why.isEmpty()) {
            why = LayersPage::tr("Neither trace has a module class or Python function whose calls repeat as often in "
                                 "every step and hold at least half of its operations (a model's decoder layers).");
        }
    }
    return LayersPage::tr("<p><b>No layer view: the traces were not aligned layer by layer.</b></p><p>%1</p>"
                          "<p>Operations (%2 level): %3</p>")
        .arg(why, QString::fromLatin1(opLevelKey(alignment.level)),
            withSideAliases(report, toQString(alignment.verdict)).toHtmlEscaped());
}

LayersPage::LayersPage(QWidget* parent)
    : QWidget(parent)
    , m_layersModel(new LayerTimesModel(this))
    , m_findingsModel(new ReportColumnsModel(ReportTableId::OpFindings, this))
    , m_layerFindings(new LayerFindingsProxy(this))
    , m_layers(new TablePage(m_layersModel, this))
    , m_findings(nullptr)
    , m_chart(new LayerChart(this))
    , m_mode(new QComboBox(this))
    , m_header(new WrapLabel(this))
    , m_emptyText(new WrapLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_findingsHint(new WrapLabel(this))
{
    m_layerFindings->setSourceModel(m_findingsModel);
    m_findings = new TablePage(m_layerFindings, this);
    m_findings->setMaximumColumnWidth(260);
    m_findings->setStretchColumnKeys({ QStringLiteral("summary") }, 240);
    m_findings->view()->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findings->view()->setToolTip(tr("Double-click a finding (or press Enter) to open it on the Operations page"));
    connect(m_findings->view(), &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const int row = index.data(ReportTableModel::SourceRowRole).toInt();
        if (index.isValid() && row >= 0)
            emit findingRequested(row);
    });
    m_layers->setTitle(tr("Layers"));
    m_layers->setFilterVisible(false); // rows of numbers: sorting finds what a filter would

    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_mode->addItem(tr("B \u2212 A per layer"), LayerChart::Difference);
    m_mode->addItem(tr("B − A, % of A's time"), LayerChart::Relative);
    m_mode->addItem(tr("GPU time, A beside B"), LayerChart::PerSide);
    m_mode->setToolTip(tr("The difference shows where the gap sits; relative to A's time it shows short layers "
                          "too; both sides' times show what each layer costs"));
    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this] { m_chart->setMode(static_cast<LayerChart::Mode>(m_mode->currentData().toInt())); });
    auto* save = new QToolButton(this);
    save->setText(tr("Save chart..."));
    save->setToolTip(tr("Save the chart as a PNG or SVG image"));
    connect(save, &QToolButton::clicked, this, &LayersPage::saveChart);
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_mode);
    controls->addStretch(1);
    controls->addWidget(save);
    auto* chartPanel = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addLayout(controls);
    chartLayout->addWidget(m_chart, 1);

    m_findingsHint->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(secondaryTextColor().name()));
    auto* findingsPanel = new QWidget(this);
    auto* findingsLayout = new QVBoxLayout(findingsPanel);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(m_findings, 1);
    findingsLayout->addWidget(m_findingsHint);

    auto* bottom = new AdaptiveSplitter(kSideBySideWidth, this);
    m_bottom = bottom;
    bottom->setObjectName(QStringLiteral("layers_bottom_splitter"));
    bottom->addWidget(m_layers);
    bottom->addWidget(findingsPanel);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    bottom->setSizes({ 560, 840 }); // the layers' eight columns of numbers, the findings' text the rest
    bottom->setChildrenCollapsible(false);
    connect(bottom, &AdaptiveSplitter::orientationChanged, this, &LayersPage::fitLayersTable);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("layers_splitter"));
    splitter->addWidget(chartPanel);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 500, 500 }); // in proportion
    splitter->setChildrenCollapsible(false);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addWidget(m_header);
    contentLayout->addWidget(splitter, 1);

    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setMargin(40);
    m_emptyText->setTextFormat(Qt::RichText);
    m_stack->addWidget(content);
    m_stack->addWidget(m_emptyText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_layers, &TablePage::exportCsvRequested, this, &LayersPage::exportCsvRequested);
    connect(m_layers, &TablePage::selectedSourceRowsChanged, this, &LayersPage::showLayers);
    connect(m_chart, &LayerChart::layerClicked, this, [this](int row) { selectLayers({ row }); });
}

void LayersPage::setChartMode(int mode)
{
    const int index = m_mode->findData(mode);
    if (index >= 0)
        m_mode->setCurrentIndex(index);
}

QString LayersPage::csvName() const
{
    return m_layers->csvName();
}

bool LayersPage::hasLayers() const
{
    return m_report && !m_report->layerTimes.empty();
}

QJsonObject LayersPage::saveState() const
{
    QJsonArray keys;
    for (const LayerKey& key : selectedLayerKeys())
        keys.append(QJsonObject { { QStringLiteral("phase"), key.phase }, { QStringLiteral("layer"), key.layer } });
    return { { QStringLiteral("layers"), m_layers->saveState() },
        { QStringLiteral("findings"), m_findings->saveState() }, { QStringLiteral("selected_layers"), keys } };
}

void LayersPage::restoreState(const QJsonObject& state)
{
    // The layers first: their selection decides the findings listed. By phase and index where the
    // session names them (a row's first cell, the index, repeats across phases); an older session's
    // by the table's own keys.
    m_layers->restoreState(state.value(QStringLiteral("layers")).toObject());
    if (state.contains(QStringLiteral("selected_layers"))) {
        QList<LayerKey> keys;
        for (const auto& entry : state.value(QStringLiteral("selected_layers")).toArray()) {
            const QJsonObject key = entry.toObject();
            keys.append(
                { key.value(QStringLiteral("phase")).toString(), key.value(QStringLiteral("layer")).toInt(-1) });
        }
        selectLayerKeys(keys);
    }
    m_findings->restoreState(state.value(QStringLiteral("findings")).toObject());
}

void LayersPage::selectLayerKeys(const QList<LayerKey>& keys)
{
    QList<int> rows;
    for (size_t row = 0; m_report && row < m_report->layerTimes.size(); ++row) {
        const LayerTimes& layer = m_report->layerTimes[row];
        if (keys.contains(LayerKey { toQString(layer.phase), static_cast<int>(layer.index) }))
            rows.append(static_cast<int>(row));
    }
    selectLayers(rows);
}

QList<LayersPage::LayerKey> LayersPage::selectedLayerKeys() const
{
    QList<LayerKey> keys;
    for (const int row : m_layers->selectedSourceRows()) {
        if (m_report && row >= 0 && static_cast<size_t>(row) < m_report->layerTimes.size()) {
            const LayerTimes& layer = m_report->layerTimes[static_cast<size_t>(row)];
            keys.append({ toQString(layer.phase), static_cast<int>(layer.index) });
        }
    }
    return keys;
}

void LayersPage::setResults(const AnalysisResults& results)
{
    m_report = results.report;
    m_layerFindings->setLayers({});
    m_layersModel->setReport(m_report);
    m_findingsModel->setReport(m_report);
    if (!m_report) {
        m_chart->setData({}, {}, {});
        return;
    }
    const FusionReport& report = *m_report;
    if (report.layerTimes.empty()) {
        m_chart->setData({}, {}, {});
        m_findings->setTitle({});
        m_emptyText->setText(noLayersText(report));
        m_stack->setCurrentWidget(m_emptyText);
        return;
    }
    m_header->setText(headerText(report));
    // Calls that are the same for every layer on both sides tell nothing per row: the header says
    // them; the CSV keeps them.
    for (const char* key : { "trace1_calls", "trace2_calls" })
        m_layers->view()->setColumnHidden(m_layersModel->column(key), sameCallsPerLayer(report));
    std::array<QList<qreal>, 2> times;
    const LayerTimes* largest = &report.layerTimes.front();
    for (const LayerTimes& layer : report.layerTimes) {
        for (size_t side = 0; side < 2; ++side)
            times[side].append(layer.timeUs[side]);
        if (std::fabs(layer.differenceUs()) > std::fabs(largest->differenceUs()))
            largest = &layer;
    }
    m_chart->setData(
        { tr("A: %1").arg(sideAlias(report, 0)), tr("B: %1").arg(sideAlias(report, 1)) }, times[0], times[1]);
    m_stack->setCurrentIndex(0);
    m_fitPending = true;
    if (isVisible())
        QTimer::singleShot(0, this, &LayersPage::fitLayersTable);
    // The layer that differs most, with its findings: where the user looks first.
    selectLayers({ static_cast<int>(largest - report.layerTimes.data()) });
}

void LayersPage::selectLayers(const QList<int>& rows)
{
    m_layers->selectSourceRows(rows);
    showLayers(rows);
}

void LayersPage::selectLayersOf(int finding)
{
    if (!m_report || finding < 0 || static_cast<size_t>(finding) >= m_report->opFindings.size())
        return;
    const OpFinding& layered = m_report->opFindings[static_cast<size_t>(finding)];
    QList<int> rows;
    for (size_t row = 0; row < m_report->layerTimes.size(); ++row) {
        const LayerTimes& layer = m_report->layerTimes[row];
        if (findingIsInLayer(layered, { toQString(layer.phase), static_cast<int>(layer.index) }))
            rows.append(static_cast<int>(row));
    }
    selectLayers(rows);
}

void LayersPage::showLayers(const QList<int>& rows)
{
    m_chart->setSelectedLayers(rows);
    QList<PhaseLayer> layers;
    for (const int row : rows) {
        if (m_report && row >= 0 && static_cast<size_t>(row) < m_report->layerTimes.size()) {
            const LayerTimes& layer = m_report->layerTimes[static_cast<size_t>(row)];
            layers.append({ toQString(layer.phase), static_cast<int>(layer.index) });
        }
    }
    m_layerFindings->setLayers(layers);
    const int listed = m_findings->proxy()->rowCount();
    // Which phase a single layer is of, where the rows hold several: layer 0 of a prefill step is
    // not layer 0 of a decode step.
    const bool phased = m_report && !m_report->layerTimes.empty()
        && m_report->layerTimes.front().phase != m_report->layerTimes.back().phase;
    QString which = layers.size() == 1 ? tr("layer %1").arg(layers.first().layer)
                                       : tr("the %1 selected layers").arg(layers.size());
    if (layers.size() == 1 && phased)
        which = tr("layer %1 of %2")
                    .arg(layers.first().layer)
                    .arg(toQString(m_report->layerTimes[static_cast<size_t>(rows.first())].phase));
    if (layers.isEmpty()) {
        m_findings->setTitle(tr("Findings"));
        m_findingsHint->setText(tr("Select a layer to list the operation findings with calls in it."));
    } else if (listed == 0) {
        m_findings->setTitle(tr("Findings in %1").arg(which));
        m_findingsHint->setText(
            tr("No operation in %1 runs a different number of kernels on the two sides: the time it differs by is "
               "the same kernels running faster or slower (the Operation summary compares each operation's time).")
                .arg(which));
    } else {
        m_findings->setTitle(tr("Findings in %1").arg(which));
        m_findingsHint->setText(tr("Operation findings with calls in %1 (a finding counts every call, in all "
                                   "layers). Double-click one to open it on the Operations page.")
                                    .arg(which));
    }
}

void LayersPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // After the tables have sized their columns for the page being shown.
    QTimer::singleShot(0, this, &LayersPage::fitLayersTable);
}

void LayersPage::fitLayersTable()
{
    if (!m_fitPending || !isVisible() || !hasLayers() || m_bottom->property(kUserSizedProperty).toBool()
        || m_bottom->orientation() != Qt::Horizontal)
        return;
    m_fitPending = false;
    QTableView* view = m_layers->view();
    const int needed = view->horizontalHeader()->length() + view->verticalScrollBar()->sizeHint().width()
        + 2 * view->frameWidth() + 2;
    const int total = m_bottom->width() - m_bottom->handleWidth();
    const int layers = std::min(needed, total * 2 / 3);
    m_bottom->setSizes({ layers, total - layers });
}

QList<int> LayersPage::listedFindings() const
{
    QList<int> rows;
    const QAbstractItemModel* model = m_findings->proxy();
    for (int row = 0; row < model->rowCount(); ++row)
        rows.append(model->index(row, 0).data(ReportTableModel::SourceRowRole).toInt());
    return rows;
}

void LayersPage::saveChart()
{
    askAndSaveImage(this, tr("Save Chart"), QStringLiteral("layer_times"),
        [this](const QString& path) { return m_chart->saveImage(path); });
}

} // namespace fusiondiff::ui
