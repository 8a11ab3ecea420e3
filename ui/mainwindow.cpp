#include "mainwindow.h"

#include "kernelspage.h"

#include "analysiscontroller.h"
#include "analysissettingswidget.h"
#include "barchart.h"
#include "classify/classifier.h"
#include "colors.h"
#include "csvexport.h"
#include "filedialogs.h"
#include "filterlineedit.h"
#include "formatting.h"
#include "globalsearch.h"
#include "groupspage.h"
#include "layerchart.h"
#include "layerspage.h"
#include "model/fusionreport.h"
#include "model/graphreport.h"
#include "onetraceview.h"
#include "operationspage.h"
#include "operationsummarypage.h"
#include "reportcolumnsmodel.h"
#include "reportexport.h"
#include "resultspage.h"
#include "samplefiles.h"
#include "sidenames.h"
#include "summarypage.h"
#include "tablechartpage.h"
#include "tablepage.h"
#include "timeline/tracetimelinepage.h"
#include "tracedropzone.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace fusiondiff::ui {

namespace {

constexpr int kMaxRecent = 10;

const QString kRecentFilesKey = QStringLiteral("recent/files");
const QString kRecentPairsKey = QStringLiteral("recent/pairs");
const QString kRecentCapturesKey = QStringLiteral("recent/captures");
const QString kOpLevelKey = QStringLiteral("analysis/opLevel");

ChartData opportunitiesChart(const FusionReport& report, ChartPanel::Metric metric)
{
    ChartData data;
    for (const FusionOpportunity& opportunity : report.opportunities) {
        data.categories.append(toQString(report.typeName(opportunity.kernelType)));
        for (size_t side = 0; side < 2; ++side) {
            data.values[side].append(metric == ChartPanel::Launches ? static_cast<qreal>(opportunity.total[side])
                                                                    : opportunity.timeMs[side]);
        }
    }
    data.valueTitle
        = metric == ChartPanel::Launches ? MainWindow::tr("Kernel launches") : MainWindow::tr("GPU time (ms)");
    return data;
}

ChartData kernelTypesChart(const FusionReport& report, ChartPanel::Metric metric)
{
    ChartData data;
    for (const TypeCount& counts : report.globalCounts) {
        data.categories.append(toQString(report.typeName(counts.type)));
        for (size_t side = 0; side < 2; ++side) {
            data.values[side].append(
                metric == ChartPanel::Launches ? static_cast<qreal>(counts.count[side]) : counts.timeUs[side] / 1000.0);
        }
    }
    data.valueTitle
        = metric == ChartPanel::Launches ? MainWindow::tr("Kernel launches") : MainWindow::tr("GPU time (ms)");
    return data;
}

// A widget that becomes visible posts itself an UpdateLater event (QWidgetPrivate::show_sys), to
// be painted. When the window already waits for a paint, it is painted with the newly shown page,
// and then a second time when those events arrive: deliver them at once, so that one paint shows
// the page (a page of tables takes 5-15 ms to paint).
void deliverShowUpdates()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateLater);
}

// Gives its widget the viewport's size, but never less than the widget's minimum size hint, so
// that scroll bars appear only when the window is smaller than the pages can be (QScrollArea's
// widgetResizable also honours height-for-width, which the wrapped labels of hidden pages inflate).
class MinimumSizeScrollArea : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

protected:
    bool viewportEvent(QEvent* event) override
    {
        if (event->type() == QEvent::Resize && widget())
            widget()->resize(viewport()->size().expandedTo(widget()->minimumSizeHint()));
        return QScrollArea::viewportEvent(event);
    }
};

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new AnalysisController(this))
    , m_settings(new AnalysisSettingsWidget(this))
{
    // The desktop adds the application's display name ("FusionDiff") after the window's title.
    setWindowTitle(QApplication::applicationDisplayName().isEmpty() ? QStringLiteral("FusionDiff") : QString());
    setAcceptDrops(true);

    // Drop zones A and B with the swap button between them.
    auto* zones = new QHBoxLayout;
    for (int side = 0; side < 2; ++side) {
        m_zones[side] = new TraceDropZone(side, this);
        connect(m_zones[side], &TraceDropZone::fileDropped, this, &MainWindow::openTrace);
        connect(m_zones[side], &TraceDropZone::filesDropped, this,
            [this](const QStringList& files) { openTraces(files.value(0), files.value(1)); });
        connect(m_zones[side], &TraceDropZone::openRequested, this, &MainWindow::showOpenDialog);
        connect(m_zones[side], &TraceDropZone::captureRequested, this, &MainWindow::showCaptureDialog);
        connect(
            m_zones[side], &TraceDropZone::captureRemoved, this, [this](int removed) { setCaptureTrace(removed, {}); });
    }
    m_swap = new QToolButton(this);
    m_swap->setText(QStringLiteral("A \u21C4 B"));
    m_swap->setToolTip(tr("Swap A and B (re-runs the analysis without reading the files again)"));
    connect(m_swap, &QToolButton::clicked, this, &MainWindow::swapTraces);
    zones->addWidget(m_zones[0], 1);
    zones->addWidget(m_swap);
    zones->addWidget(m_zones[1], 1);

    // Progress and Cancel, shown while busy.
    m_progressRow = new QWidget(this);
    auto* progressLayout = new QHBoxLayout(m_progressRow);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    m_progress = new QProgressBar(m_progressRow);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_cancel = new QPushButton(tr("Cancel"), m_progressRow);
    m_cancel->setToolTip(tr("Stop loading and analysing (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancel, &QPushButton::clicked, m_controller, &AnalysisController::cancel);
    progressLayout->addWidget(m_progress, 1);
    progressLayout->addWidget(m_cancel);
    m_progressRow->hide();

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_message->hide();

    createPages();
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(createWelcomePage());
    m_stack->addWidget(m_tabs);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addLayout(zones);
    layout->addWidget(m_progressRow);
    layout->addWidget(m_message);
    layout->addWidget(m_stack, 1);
    // On a small screen (or at a large scale factor) the window stays inside the screen: below
    // the pages' minimum size the window scrolls instead of growing past the screen's edges.
    auto* scroll = new MinimumSizeScrollArea(this);
    scroll->setWidget(central);
    scroll->setFrameShape(QFrame::NoFrame);
    setCentralWidget(scroll);

    m_settingsDock = new QDockWidget(tr("Analysis Settings"), this);
    m_settingsDock->setObjectName(QStringLiteral("analysisSettingsDock"));
    auto* settingsScroll = new QScrollArea(m_settingsDock);
    settingsScroll->setWidget(m_settings);
    settingsScroll->setWidgetResizable(true);
    settingsScroll->setFrameShape(QFrame::NoFrame);
    m_settingsDock->setWidget(settingsScroll);
    m_settingsDock->setMinimumWidth(m_settings->sizeHint().width() + 24);
    addDockWidget(Qt::RightDockWidgetArea, m_settingsDock);
    m_settingsDock->hide();

    m_resultsLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_resultsLabel);

    createMenus();
    addTabShortcuts();

    connect(m_controller, &AnalysisController::sideChanged, this, &MainWindow::updateZone);
    connect(m_controller, &AnalysisController::busyChanged, this, &MainWindow::setBusy);
    connect(m_controller, &AnalysisController::progressChanged, this, [this](int permille, const QString& text) {
        // QProgressBar::setValue repaints at once (QWidget::repaint), and with the bar everything
        // else in the window waiting to be painted, inside this slot: let the bar be painted with
        // the rest of the window instead, when the event loop gets to it.
        m_progress->setUpdatesEnabled(false);
        m_progress->setValue(permille);
        m_progress->setFormat(text + QStringLiteral("  %p%"));
        m_progress->setUpdatesEnabled(true); // schedules the paint (QWidget::update)
    });
    connect(m_controller, &AnalysisController::resultsReady, this, &MainWindow::showResults);
    connect(m_controller, &AnalysisController::analysisFailed, this,
        [this](const QString& message) { showMessage(tr("The analysis failed: %1").arg(message)); });
    connect(m_controller, &AnalysisController::cancelled, this,
        [this] { statusBar()->showMessage(tr("Cancelled."), 5000); });
    connect(m_settings, &AnalysisSettingsWidget::classifierChanged, m_controller, &AnalysisController::setClassifier);
    connect(m_settings, &AnalysisSettingsWidget::optionsChanged, m_controller, &AnalysisController::setOptions);

    m_saveRecentTimer.setSingleShot(true);
    m_saveRecentTimer.setInterval(2000);
    connect(&m_saveRecentTimer, &QTimer::timeout, this, &MainWindow::saveRecent);

    restoreSettings();
    updateZone(0);
    updateZone(1);
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPages()
{
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);

    m_summary = new SummaryPage(this);
    m_operations = new OperationsPage(this);
    m_layers = new LayersPage(this);
    m_operationSummary = new OperationSummaryPage(this);
    m_opportunities = new TableChartPage(
        new ReportColumnsModel(ReportTableId::FusionOpportunities), opportunitiesChart, false, Qt::Vertical, this);
    m_opportunities->setEmptyChartText(
        tr("No fusion opportunity passed the thresholds for these traces: both launch their kernel types in "
           "similar numbers. The Kernel types page compares the counts of every type."));
    m_opportunities->chartPanel()->chart()->setTitle(tr("Kernels of each opportunity's type"));
    auto* mappings = new ReportColumnsModel(ReportTableId::FusionMappings, this);
    m_mappings = new TablePage(mappings, this);
    m_mappings->setMaximumColumnWidth(480);
    const int evidence = mappings->column("evidence");
    m_mappings->setStretchColumns({ evidence }, 520);
    // The evidence says what was found: it comes first on screen (the CSV keeps the seed's order).
    m_mappings->view()->horizontalHeader()->moveSection(evidence, 0);
    m_kernelTypes = new TableChartPage(
        new ReportColumnsModel(ReportTableId::GlobalCounts), kernelTypesChart, true, Qt::Horizontal, this);
    m_kernelTypes->chartPanel()->chart()->setTitle(tr("Kernels per type over each whole trace"));
    m_kernelsTab = new KernelsPage(this);
    m_kernels = m_kernelsTab->allKernelsTable();
    m_groups = new GroupsPage(this);
    m_timeline = new TraceTimelinePage(this);

    addResultsTab(m_summary, tr("Summary"), [](const FusionReport&) { return tr("Summary"); });
    addResultsTab(m_operations, tr("Operations"),
        [](const FusionReport& report) { return tr("Operations (%1)").arg(report.opFindings.size()); });
    addResultsTab(m_layers, tr("Layers"), [](const FusionReport& report) {
        return report.layerTimes.empty() ? tr("Layers (none)") : tr("Layers (%1)").arg(report.layerTimes.size());
    });
    m_tabs->setTabToolTip(m_tabs->indexOf(m_layers),
        tr("The GPU time of each layer (the model's repeating block) on both sides, and the findings in each"));
    addResultsTab(m_operationSummary, tr("Operation summary"),
        [](const FusionReport& report) { return tr("Operation summary (%1)").arg(report.opSummary.size()); });
    addResultsTab(m_opportunities, tr("Fusion opportunities"),
        [](const FusionReport& report) { return tr("Fusion opportunities (%1)").arg(report.opportunities.size()); });
    addResultsTab(m_mappings, tr("Fusion mappings"),
        [](const FusionReport& report) { return tr("Fusion mappings (%1)").arg(report.mappings.size()); });
    addResultsTab(m_kernelTypes, tr("Kernel types"),
        [](const FusionReport& report) { return tr("Kernel types (%1)").arg(report.globalCounts.size()); });
    // Titles short enough that every tab fits a 1440-px-wide window: the counts' meanings are in
    // the tooltips and on the pages.
    addResultsTab(m_kernelsTab, tr("Kernels"),
        [](const FusionReport& report) { return tr("Kernels (%1)").arg(report.kernels.size()); });
    m_tabs->setTabToolTip(m_tabs->indexOf(m_kernelsTab),
        tr("Every kernel name of both traces, and which kernel of one trace does the work of which of the other"));
    addResultsTab(m_groups, tr("Correlation groups"),
        [](const FusionReport& report) { return tr("Groups (%1 matched)").arg(report.groupPairs.size()); });
    m_tabs->setTabToolTip(
        m_tabs->indexOf(m_groups), tr("Correlation groups (graph launches) matched across the traces, drilled into"));
    m_search = new GlobalSearch(this);
    m_tabs->setCornerWidget(m_search, Qt::TopRightCorner);
    connect(m_search, &GlobalSearch::hitActivated, this,
        [this](const GlobalSearch::Hit& hit) { showSearchHit(hit.kind, hit.row); });
    // Not a table: the timeline has no CSV of its own and is given the results on its own.
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_timeline), tr("Every kernel of both traces on two lanes, to scale"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        deliverShowUpdates();
        updateActions();
    });
    connect(m_summary, &SummaryPage::kernelTypeRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::KernelType, row); });
    connect(m_summary, &SummaryPage::gapCauseRequested, this, [this](GapCause cause) {
        switch (cause) {
        case GapCause::Fusion: // the findings name the extra kernels
            m_tabs->setCurrentWidget(m_operations);
            if (m_controller->results().report && !m_controller->results().report->opFindings.empty())
                m_operations->selectFinding(0);
            break;
        case GapCause::Speed: // the operations, with each side's time
        case GapCause::Collectives: // with the collectives beside them
        case GapCause::OneSide:
        case GapCause::NotCompared:
            m_tabs->setCurrentWidget(m_operationSummary);
            break;
        case GapCause::Unattributed: // kernels without an operation: their types
        case GapCause::Overlap:
        case GapCause::Idle:
        case GapCause::Copies:
        case GapCause::IdleHost:
        case GapCause::IdleSync:
        case GapCause::IdleLaunch:
        case GapCause::IdleOther:
            m_tabs->setCurrentWidget(m_kernelTypes);
            break;
        case GapCause::Residual:
            break;
        }
    });
    connect(m_summary, &SummaryPage::findingRequested, this, [this](int row) {
        m_tabs->setCurrentWidget(m_operations);
        m_operations->selectFinding(row);
    });
    // As a search hit: the findings' filter cleared if it hides the row, the table focused.
    connect(m_layers, &LayersPage::findingRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::OperationFinding, row); });
    connect(m_summary, &SummaryPage::layersRequested, this, [this] { m_tabs->setCurrentWidget(m_layers); });
    connect(m_operations, &OperationsPage::layersRequested, this, [this](int finding) {
        m_tabs->setCurrentWidget(m_layers);
        m_layers->selectLayersOf(finding);
    });
    connect(m_summary, &SummaryPage::operationRequested, this,
        [this](int row) { showSearchHit(GlobalSearch::Operation, row); });
    connect(m_summary, &SummaryPage::opportunityRequested, this, [this](int row) {
        m_tabs->setCurrentWidget(m_opportunities);
        m_opportunities->table()->selectSourceRows({ row });
    });
}

template<typename Page>
void MainWindow::addResultsTab(Page* page, const QString& name, TabTitle title)
{
    m_tabs->addTab(page, name);
    m_resultsTabs.push_back({ page, page, std::move(title) });
    connect(page, &Page::exportCsvRequested, this, &MainWindow::exportCsvDialog);
}

QWidget* MainWindow::createWelcomePage()
{
    auto* page = new QWidget(this);
    m_welcomeTitle = new QLabel(page);
    QLabel* title = m_welcomeTitle;
    auto* text = new QLabel(tr("<p>One trace from each platform (for example AMD and NVIDIA), or two runs of one "
                               "platform: Kineto Chrome-trace JSON, <tt>.json</tt> or <tt>.json.gz</tt>. Drop both "
                               "files at once, or one onto A and one onto B above. A is <i>trace1</i> and B "
                               "<i>trace2</i> in every table.</p>"),
        page);
    text->setWordWrap(true);
    // Between 480 and 720 pixels wide: centred, wrapped, and narrow enough for a small screen.
    text->setMinimumWidth(480);
    text->setMaximumWidth(720);
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    title->setMinimumWidth(480);
    title->setMaximumWidth(900);
    text->setAlignment(Qt::AlignCenter);

    m_sampleButton = new QPushButton(tr("Open the sample traces"), page);
    m_sampleButton->setToolTip(
        tr("Qwen1.5-0.5B-Chat traced with the PyTorch profiler on an AMD MI300X (A) and an NVIDIA H100 (B)"));
    QFont buttonFont = m_sampleButton->font();
    buttonFont.setPointSizeF(buttonFont.pointSizeF() * 1.2);
    m_sampleButton->setFont(buttonFont);
    m_sampleButton->setMinimumHeight(44);
    connect(m_sampleButton, &QPushButton::clicked, this, &MainWindow::openSampleTraces);
    auto* sampleText = new QLabel(
        tr("Qwen1.5-0.5B-Chat, eager PyTorch: AMD Instinct MI300X (A) vs NVIDIA H100 (B), bundled with FusionDiff"),
        page);
    sampleText->setAlignment(Qt::AlignCenter);
    sampleText->setWordWrap(true);
    sampleText->setMinimumWidth(480);
    sampleText->setMaximumWidth(720);

    auto* openA = new QPushButton(tr("Open trace A..."), page);
    auto* openB = new QPushButton(tr("Open trace B..."), page);
    m_welcomeOpen[0] = openA;
    m_welcomeOpen[1] = openB;
    connect(openA, &QPushButton::clicked, this, [this] { showOpenDialog(0); });
    connect(openB, &QPushButton::clicked, this, [this] { showOpenDialog(1); });
    auto* openRow = new QHBoxLayout;
    openRow->addStretch(1);
    openRow->addWidget(openA);
    openRow->addWidget(openB);
    openRow->addStretch(1);

    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(text, 0, Qt::AlignHCenter);
    layout->addSpacing(16);
    layout->addWidget(m_sampleButton, 0, Qt::AlignHCenter);
    layout->addWidget(sampleText, 0, Qt::AlignHCenter);
    layout->addSpacing(16);
    layout->addLayout(openRow);
    // The one trace loaded, while the page asks for the other.
    m_oneTrace = new QTextBrowser(page);
    m_oneTrace->setFrameShape(QFrame::NoFrame);
    m_oneTrace->setMaximumWidth(1100);
    m_oneTrace->hide();
    layout->addWidget(m_oneTrace, 6);
    layout->addStretch(2);

    if (sampleTracePaths().isEmpty()) {
        m_sampleButton->setEnabled(false);
        sampleText->setText(tr("The sample traces are not installed."));
    }
    return page;
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openA = file->addAction(tr("Open Trace &A..."), this, [this] { showOpenDialog(0); });
    openA->setShortcut(QKeySequence::Open);
    QAction* openB = file->addAction(tr("Open Trace &B..."), this, [this] { showOpenDialog(1); });
    openB->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    m_sampleAction = file->addAction(tr("Open the &Sample Traces"), this, &MainWindow::openSampleTraces);
    m_sampleAction->setEnabled(!sampleTracePaths().isEmpty());
    QAction* swap = file->addAction(tr("S&wap A and B"), this, &MainWindow::swapTraces);
    swap->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    file->addSeparator();
    m_exportAll = file->addAction(tr("&Export All Tables as CSV..."), this, &MainWindow::exportAllDialog);
    m_exportAll->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportTable = file->addAction(tr("Export &Current Table as CSV..."), this, &MainWindow::exportCurrentTableDialog);
    m_exportReport = file->addAction(tr("Export &Report (HTML or Markdown)..."), this, &MainWindow::exportReportDialog);
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* settings = m_settingsDock->toggleViewAction();
    settings->setText(tr("&Analysis Settings"));
    settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    view->addAction(settings);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About FusionDiff"), this, [this] {
        QMessageBox::about(this, tr("About FusionDiff"),
            tr("<h3>FusionDiff %1</h3><p>Compares kernel fusion between two PyTorch profiler traces: which kernel "
               "types one platform runs as several kernels where the other runs one.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::addTabShortcuts()
{
    // Window-wide, so that they work while a table (which takes Ctrl+PgDn itself) has the focus.
    const auto add = [this](const QList<QKeySequence>& keys, int step) {
        auto* action = new QAction(this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, [this, step] {
            if (m_stack->currentWidget() != m_tabs)
                return;
            const int count = m_tabs->count();
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + step + count) % count);
        });
        addAction(action);
    };
    add({ QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown) }, 1);

    auto* find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, &MainWindow::focusSearch);
    addAction(find);
    add({ QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab),
            QKeySequence(Qt::CTRL | Qt::Key_PageUp) },
        -1);
}

void MainWindow::focusSearch()
{
    if (m_stack->currentWidget() != m_tabs)
        return;
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void MainWindow::showSearchHit(int kind, int row)
{
    TablePage* table = nullptr;
    switch (kind) {
    case GlobalSearch::OperationFinding:
        m_tabs->setCurrentWidget(m_operations);
        table = m_operations->findingsTable();
        break;
    case GlobalSearch::Operation:
        m_tabs->setCurrentWidget(m_operationSummary);
        table = m_operationSummary->summaryTable();
        break;
    case GlobalSearch::KernelType:
        m_tabs->setCurrentWidget(m_kernelTypes);
        table = m_kernelTypes->table();
        break;
    default:
        m_tabs->setCurrentWidget(m_kernelsTab);
        table = m_kernels;
        break;
    }
    if (!table->filterEdit()->text().isEmpty()) {
        table->filterEdit()->clear();
        table->filterEdit()->applyNow();
    }
    table->selectSourceRows({ row });
    table->view()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::updateWelcome()
{
    // With one trace loaded, the start page asks for the other one.
    const auto loaded
        = [this](int side) { return m_controller->side(side).status == AnalysisController::Status::Loaded; };
    int missing = -1;
    if (loaded(0) != loaded(1))
        missing = loaded(0) ? 1 : 0;
    if (missing < 0) {
        m_welcomeTitle->setText(tr("<h2>Drop two PyTorch profiler traces here</h2>"));
    } else {
        const QString have = QFileInfo(m_controller->side(1 - missing).path).fileName().toHtmlEscaped();
        m_welcomeTitle->setText(missing == 1
                ? tr("<h2>Trace A is loaded (%1): now drop or open trace B</h2>").arg(have)
                : tr("<h2>Trace B is loaded (%1): now drop or open trace A</h2>").arg(have));
    }
    for (int side = 0; side < 2; ++side)
        m_welcomeOpen[side]->setDefault(side == missing);
    const TraceStore* store = missing < 0 ? nullptr : m_controller->side(1 - missing).store.get();
    if (store != m_oneTraceStore) {
        m_oneTraceStore = store;
        if (store)
            m_oneTrace->setHtml(oneTraceHtml(*store, *m_controller->classifier(), 15));
        m_oneTrace->setVisible(store != nullptr);
    }
}

void MainWindow::updateActions()
{
    const bool results = m_results.report != nullptr;
    m_exportAll->setEnabled(results);
    m_exportReport->setEnabled(results);
    m_exportTable->setEnabled(results && m_stack->currentWidget() == m_tabs);
}

void MainWindow::updateZone(int side)
{
    TraceDropZone* zone = m_zones[side];
    const AnalysisController::SideState& state = m_controller->side(side);
    updateWelcome();
    switch (state.status) {
    case AnalysisController::Status::Empty:
        zone->showEmpty();
        break;
    case AnalysisController::Status::Loading:
        zone->showLoading(state.path);
        break;
    case AnalysisController::Status::Loaded: {
        const TraceStore& store = *state.store;
        const QString details = tr("%1 \u00B7 %2 \u00B7 %3 kernels \u00B7 %4 GPU time")
                                    .arg(QString::fromLatin1(platformName(store.platform)),
                                        store.gpuName.empty() ? tr("GPU not recorded") : toQString(store.gpuName),
                                        formatCount(state.totals.kernels), formatDuration(state.totals.kernelTimeUs));
        zone->showLoaded(state.path, details);
        addRecentFile(state.path); // only files that loaded are offered again
        break;
    }
    case AnalysisController::Status::Failed: {
        const TraceError& error = *state.error;
        QString message = tr("Cannot use %1: %2").arg(error.fileName(), error.reason);
        if (error.byteOffset)
            message += tr(" (%1)").arg(error.offsetText());
        zone->showError(state.path, message);
        break;
    }
    case AnalysisController::Status::Cancelled:
        zone->showCancelled(state.path);
        break;
    }
    updateCapture(side);
}

void MainWindow::updateCapture(int side)
{
    const AnalysisController::SideState& state = m_controller->side(side);
    if (state.captureError) {
        QString message = state.captureError->reason;
        if (state.captureError->byteOffset)
            message += tr(" (%1)").arg(state.captureError->offsetText());
        m_zones[side]->showCapture(state.capturePath, {}, message);
        return;
    }
    QString details;
    if (state.capture) {
        size_t launches = 0;
        for (const CapturedGraph& graph : state.capture->graphs)
            launches += graph.launches.size();
        const size_t graphs = state.capture->graphs.size();
        details = (graphs == 1 ? tr("1 graph captured") : tr("%1 graphs captured").arg(formatCount(graphs)))
            + tr(", %1 kernel launches").arg(formatCount(launches));
        if (!state.path.isEmpty() && m_captureOf.value(state.path).toString() != state.capturePath) {
            m_captureOf.insert(state.path, state.capturePath); // only captures that loaded are offered again
            m_saveRecentTimer.start();
        }
    }
    m_zones[side]->showCapture(state.capturePath, details, {});
}

void MainWindow::setBusy(bool busy)
{
    m_progressRow->setVisible(busy);
    if (busy) {
        m_message->hide();
    }
}

void MainWindow::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void MainWindow::showResults(const AnalysisResults& results)
{
    m_results = results;
    const FusionReport& report = *results.report;
    // The pages first, then their contents: the page on screen is then laid out and its table
    // sized once, at their final size (the first time, the pages replace the welcome page).
    m_stack->setCurrentWidget(m_tabs);
    deliverShowUpdates();
    for (const ResultsTab& tab : m_resultsTabs) {
        tab.page->setResults(results);
        m_tabs->setTabText(m_tabs->indexOf(tab.widget), tab.title(report));
    }
    m_timeline->setResults(results);
    m_search->setReport(results.report);

    const QString a = toQString(report.traces[0].label);
    const QString b = toQString(report.traces[1].label);
    setWindowTitle(tr("%1 vs %2").arg(sideAlias(report, 0), sideAlias(report, 1)));
    m_resultsLabel->setText(
        tr("Showing A: %1  vs  B: %2  \u00B7  classifier %3  \u00B7  operations at the %4 level")
            .arg(a, b, toQString(report.classifier.name), QString::fromLatin1(opLevelKey(report.options.opLevel))));
    addRecentFile(toQString(report.traces[0].path));
    addRecentFile(toQString(report.traces[1].path));
    addRecentPair(toQString(report.traces[0].path), toQString(report.traces[1].path));
    showMessage({});
    updateActions();
    emit resultsShown();
}

void MainWindow::openTraces(
    const QString& pathA, const QString& pathB, const QString& captureA, const QString& captureB)
{
    m_controller->setTraces(pathA, pathB, captureA.isEmpty() ? rememberedCapture(pathA) : captureA,
        captureB.isEmpty() ? rememberedCapture(pathB) : captureB);
}

void MainWindow::openTrace(int side, const QString& path)
{
    m_controller->setTrace(side, path, rememberedCapture(path));
}

QString MainWindow::rememberedCapture(const QString& tracePath) const
{
    if (tracePath.isEmpty())
        return {};
    return m_captureOf.value(QFileInfo(tracePath).absoluteFilePath()).toString();
}

void MainWindow::setCaptureTrace(int side, const QString& path)
{
    const QString tracePath = m_controller->side(side).path;
    if (path.isEmpty() && !tracePath.isEmpty() && m_captureOf.remove(tracePath) > 0)
        m_saveRecentTimer.start();
    m_controller->setCaptureTrace(side, path);
}

void MainWindow::showCaptureDialog(int side)
{
    const QString file = openFileName(this,
        side == 0 ? tr("Capture Trace for A (--capture1)") : tr("Capture Trace for B (--capture2)"),
        tr("PyTorch profiler traces (*.json *.json.gz *.gz);;All files (*)"));
    if (!file.isEmpty())
        setCaptureTrace(side, file);
}

bool MainWindow::openSampleTraces()
{
    const QStringList samples = sampleTracePaths();
    if (samples.size() != 2) {
        showMessage(tr("The sample traces were not found next to the program (../share/fusiondiff/samples) nor in "
                       "the source tree."));
        return false;
    }
    m_controller->setTraces(samples[0], samples[1]);
    return true;
}

void MainWindow::showOpenDialog(int side)
{
    const QStringList files
        = openTraceFiles(this, side == 0 ? tr("Open Trace A (trace1)") : tr("Open Trace B (trace2)"));
    if (files.size() >= 2)
        openTraces(files[0], files[1]);
    else if (files.size() == 1)
        openTrace(side, files.first());
}

void MainWindow::swapTraces()
{
    m_controller->swapTraces();
}

QString MainWindow::exportAll(const QString& folder)
{
    if (!m_results.report)
        return tr("There are no results to export yet.");
    return writeAllCsvTables(*m_results.report, folder);
}

void MainWindow::exportAllDialog()
{
    if (!m_results.report)
        return;
    const QString folder = existingFolder(this, tr("Export All Tables as CSV into Folder"));
    if (folder.isEmpty())
        return;
    const QString error = exportAll(folder);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Wrote %1 CSV tables to %2").arg(csvTableNames().size()).arg(folder), 8000);
    else
        showMessage(error);
}

QString MainWindow::exportReport(const QString& path)
{
    if (!m_results.report)
        return tr("There are no results to export yet.");
    // The charts of the report's tables, at a size that reads well on a page.
    QList<ReportChart> charts;
    const QSize size(1000, 620);
    charts.append(
        { QStringLiteral("kernel_types"), tr("Kernels per type"), m_kernelTypes->chartPanel()->chart()->image(size) });
    if (!m_results.report->opportunities.empty())
        charts.append({ QStringLiteral("fusion_opportunities"), tr("Kernels of each fusion opportunity's type"),
            m_opportunities->chartPanel()->chart()->image(size) });
    if (!m_results.report->layerTimes.empty())
        charts.append({ QStringLiteral("layer_times"),
            tr("GPU time of each layer (B \u2212 A, or as the Layers tab shows it)"), m_layers->chart()->image(size) });
    const bool markdown = QFileInfo(path).suffix().compare(QLatin1String("md"), Qt::CaseInsensitive) == 0;
    return markdown ? writeMarkdownReport(*m_results.report, charts, path)
                    : writeHtmlReport(*m_results.report, charts, path);
}

void MainWindow::exportReportDialog()
{
    if (!m_results.report)
        return;
    const QString file = saveFileName(this, tr("Export Report"), QStringLiteral("fusiondiff-report.html"),
        tr("HTML, charts embedded (*.html);;Markdown, charts as PNG files beside it (*.md)"));
    if (file.isEmpty())
        return;
    const QString error = exportReport(file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Wrote %1").arg(file), 8000);
    else
        showMessage(error);
}

void MainWindow::exportCsvDialog(const QString& csvName)
{
    if (!m_results.report)
        return;
    const QString file = saveFileName(
        this, tr("Export Table as CSV"), csvName + QStringLiteral(".csv"), tr("CSV files (*.csv);;All files (*)"));
    if (file.isEmpty())
        return;
    const QString error = writeCsvTable(*m_results.report, csvName, file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Wrote %1").arg(file), 8000);
    else
        showMessage(error);
}

QString MainWindow::currentTableCsvName() const
{
    for (const ResultsTab& tab : m_resultsTabs) {
        if (tab.widget == m_tabs->currentWidget())
            return tab.page->csvName();
    }
    return {};
}

void MainWindow::exportCurrentTableDialog()
{
    const QString name = currentTableCsvName();
    if (!name.isEmpty())
        exportCsvDialog(name);
}

QStringList MainWindow::recentFiles() const
{
    return m_recentFiles;
}

QStringList MainWindow::recentPairs() const
{
    return m_recentPairs;
}

void MainWindow::saveRecent() const
{
    QSettings settings;
    settings.setValue(kRecentFilesKey, m_recentFiles);
    settings.setValue(kRecentPairsKey, m_recentPairs);
    settings.setValue(kRecentCapturesKey, m_captureOf);
}

void MainWindow::addRecentFile(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recentFiles.removeAll(absolute);
    m_recentFiles.prepend(absolute);
    while (m_recentFiles.size() > kMaxRecent)
        m_recentFiles.removeLast();
    // Written a little later, not while the user waits for the results.
    m_saveRecentTimer.start();
}

void MainWindow::addRecentPair(const QString& pathA, const QString& pathB)
{
    const QString pair = pathA + QLatin1Char('\n') + pathB;
    m_recentPairs.removeAll(pair);
    m_recentPairs.removeAll(pathB + QLatin1Char('\n') + pathA); // the pair swapped is the same pair
    m_recentPairs.prepend(pair);
    while (m_recentPairs.size() > kMaxRecent)
        m_recentPairs.removeLast();
    m_saveRecentTimer.start();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& pair : m_recentPairs) {
        const QStringList paths = pair.split(QLatin1Char('\n'));
        if (paths.size() != 2)
            continue;
        QAction* action = m_recentMenu->addAction(
            tr("%1  vs  %2").arg(QFileInfo(paths[0]).fileName(), QFileInfo(paths[1]).fileName()), this,
            [this, paths] { openTraces(paths[0], paths[1]); });
        action->setToolTip(pair);
    }
    if (!m_recentPairs.isEmpty())
        m_recentMenu->addSeparator();
    for (const QString& path : m_recentFiles) {
        QMenu* menu = m_recentMenu->addMenu(QFileInfo(path).fileName());
        menu->setToolTip(path);
        menu->addAction(tr("Open as A"), this, [this, path] { openTrace(0, path); });
        menu->addAction(tr("Open as B"), this, [this, path] { openTrace(1, path); });
    }
    if (m_recentMenu->isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::applyClassifierAndParameters(
    const QString& classifier, const QStringList& parameters, const QString& opLevel)
{
    if (!classifier.isEmpty() && !m_settings->setClassifierSpec(classifier)) {
        // The settings dock shows the error too; it may be hidden, the message bar is not.
        showMessage(tr("The classifier cannot be used: %1").arg(m_settings->classifierError()));
        m_settingsDock->show();
    }
    AnalysisOptions options = m_settings->options();
    for (const QString& parameter : parameters) {
        const qsizetype equals = parameter.indexOf(QLatin1Char('='));
        const std::string error = setAnalysisParameter(options, parameter.left(equals).toStdString(),
            equals < 0 ? std::string() : parameter.mid(equals + 1).toStdString());
        if (!error.empty())
            showMessage(QString::fromStdString(error));
    }
    if (!opLevel.isEmpty() && !parseOpLevel(opLevel.toStdString(), options.opLevel))
        showMessage(tr("The operation level is operator, module or launch, not '%1'.").arg(opLevel));
    m_settings->setOptions(options);
    m_controller->setOptions(options);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    m_recentFiles = settings.value(kRecentFilesKey).toStringList();
    m_recentPairs = settings.value(kRecentPairsKey).toStringList();
    m_captureOf = settings.value(kRecentCapturesKey).toMap();
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())
        || !screen()->availableGeometry().contains(frameGeometry()))
        fitToScreen();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (QSplitter* splitter : findChildren<QSplitter*>()) {
        if (splitter->objectName().isEmpty())
            continue;
        if (splitter->restoreState(settings.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray()))
            splitter->setProperty(kUserSizedProperty, true);
        connect(splitter, &QSplitter::splitterMoved, splitter,
            [splitter] { splitter->setProperty(kUserSizedProperty, true); });
    }

    AnalysisOptions options;
    for (const AnalysisParameter& parameter : analysisParameters()) {
        const QString key = QStringLiteral("analysis/parameters/")
            + QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
        if (!settings.contains(key))
            continue;
        setAnalysisParameter(options, parameter.name, settings.value(key).toString().toStdString());
    }
    parseOpLevel(settings.value(kOpLevelKey).toString().toStdString(), options.opLevel);
    m_settings->setOptions(options);
    m_controller->setOptions(options);
    const QString classifier
        = settings.value(QStringLiteral("analysis/classifier"), QStringLiteral("default")).toString();
    if (!m_settings->setClassifierSpec(classifier))
        m_settings->setClassifierSpec(QStringLiteral("default"));
    m_controller->setClassifier(m_settings->classifier());

    m_opportunities->chartPanel()->setMetric(static_cast<ChartPanel::Metric>(
        settings.value(QStringLiteral("charts/opportunitiesMetric"), ChartPanel::Launches).toInt()));
    m_kernelTypes->chartPanel()->setMetric(static_cast<ChartPanel::Metric>(
        settings.value(QStringLiteral("charts/kernelTypesMetric"), ChartPanel::Launches).toInt()));
    m_kernelTypes->chartPanel()->setLogarithmic(
        settings.value(QStringLiteral("charts/kernelTypesLog"), false).toBool());
    m_layers->setChartMode(static_cast<LayerChart::Mode>(
        settings.value(QStringLiteral("charts/layersMode"), LayerChart::Difference).toInt()));
}

void MainWindow::fitToScreen()
{
    // 1440x900 where there is room, else what the screen leaves for the window's frame and the
    // desktop's panels, centred: the status bar and its confirmations stay on screen.
    const QRect available = screen()->availableGeometry();
    const QSize frame(48, 64); // the title bar and borders of common window managers, unknown until shown
    const QSize room = (available.size() - frame).expandedTo(QSize(320, 240));
    resize(QSize(1440, 900).boundedTo(room).expandedTo(minimumSizeHint().boundedTo(room)));
    move(available.center() - QPoint(width() / 2, height() / 2 + frame.height() / 4));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    // Only the dividers the user placed: the others keep the pages' own sizing.
    for (const QSplitter* splitter : findChildren<QSplitter*>()) {
        if (!splitter->objectName().isEmpty() && splitter->property(kUserSizedProperty).toBool())
            settings.setValue(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
    }
    settings.setValue(QStringLiteral("analysis/classifier"), m_settings->classifierSpec());
    const AnalysisOptions options = m_settings->options();
    for (const AnalysisParameter& parameter : analysisParameters()) {
        const QString key = QStringLiteral("analysis/parameters/")
            + QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
        settings.setValue(key, QString::number(parameterValue(options, parameter), 'g', 17));
    }
    settings.setValue(kOpLevelKey, QString::fromLatin1(opLevelKey(options.opLevel)));
    settings.setValue(QStringLiteral("charts/opportunitiesMetric"), m_opportunities->chartPanel()->metric());
    settings.setValue(QStringLiteral("charts/kernelTypesMetric"), m_kernelTypes->chartPanel()->metric());
    settings.setValue(QStringLiteral("charts/kernelTypesLog"), m_kernelTypes->chartPanel()->chart()->isLogarithmic());
    settings.setValue(QStringLiteral("charts/layersMode"), m_layers->chart()->mode());
    settings.setValue(kRecentFilesKey, m_recentFiles);
    settings.setValue(kRecentPairsKey, m_recentPairs);
    settings.setValue(kRecentCapturesKey, m_captureOf);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    m_controller->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!TraceDropZone::localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = TraceDropZone::localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    if (files.size() >= 2) {
        openTraces(files[0], files[1]);
        return;
    }
    // One file dropped outside the zones: the first empty side takes it.
    const bool aEmpty = m_controller->side(0).status != AnalysisController::Status::Loaded
        && m_controller->side(0).status != AnalysisController::Status::Loading;
    openTrace(aEmpty ? 0 : 1, files.first());
}

} // namespace fusiondiff::ui
