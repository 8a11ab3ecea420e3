#include "shell/mainwindow.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "analysis/peaksfilesetting.h"
#include "display/colors.h"
#include "display/formatting.h"
#include "display/pairlabel.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "ranks/rankspage.h"
#include "shell/globalsearch.h"
#include "shell/helpdialog.h"
#include "shell/recentfiles.h"
#include "shell/recentmenu.h"
#include "shell/resultsexports.h"
#include "shell/resultstabs.h"
#include "shell/samplefiles.h"
#include "shell/welcomepage.h"
#include "shell/windowsession.h"
#include "shell/windowsettings.h"
#include "shell/zonestate.h"
#include "widgets/filedialogs.h"
#include "widgets/fittinglabel.h"
#include "widgets/minimumsizescrollarea.h"
#include "widgets/tooltipwrapping.h"
#include "widgets/tracedropzone.h"
#include "widgets/wraplabel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace fusiondiff::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new AnalysisController(this))
    , m_settings(new AnalysisSettingsWidget(this))
    , m_recent(new RecentFiles(this))
{
    // The desktop adds the application's display name ("FusionDiff") after the window's title.
    setWindowTitle(QApplication::applicationDisplayName().isEmpty() ? QStringLiteral("FusionDiff") : QString());
    setAcceptDrops(true);
    installToolTipWrapping(QCoreApplication::instance());

    QLayout* zones = createZones();
    m_progressRow = createProgressRow();
    // An error shown whole, however many lines it wraps to: the window scrolls rather than cut it.
    auto* message = new WrapLabel(this);
    message->setMinimumHeightFollowsText(true);
    m_message = message;
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_message->hide();

    m_tabs = new ResultsTabs(this);
    m_exports = new ResultsExports(m_tabs, this);
    m_session = new WindowSession(m_controller, m_settings, m_tabs, this);
    m_welcome = new WelcomePage(this);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_welcome, &WelcomePage::sampleTracesRequested, this, &MainWindow::openSampleTraces);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_welcome);
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

    // The search in the menu bar's row: beside the tabs it took the room their titles need (with
    // a larger font at 1024 pixels they were cut to a letter, the last one under the search). In
    // a box of its own: the menu bar gives its corner the widget's size hint, the box gives the
    // search its minimum width, which shows its whole placeholder. Shown with the results.
    m_searchBox = new QWidget(this);
    auto* searchLayout = new QHBoxLayout(m_searchBox);
    searchLayout->setContentsMargins(0, 2, 4, 2);
    searchLayout->addWidget(m_tabs->search());
    menuBar()->setCornerWidget(m_searchBox, Qt::TopRightCorner);
    m_searchBox->hide();

    createSettingsDock();
    // The pair shown, in the words the bar has room for (what tells the traces apart last), whole
    // in its tooltip.
    m_resultsLabel = new FittingLabel(this);
    statusBar()->addPermanentWidget(m_resultsLabel, 1);
    // A passing message ("Saved … to …") gets the whole bar: beside the pair's label it was cut.
    connect(statusBar(), &QStatusBar::messageChanged, m_resultsLabel,
        [this](const QString& passing) { m_resultsLabel->setVisible(passing.isEmpty()); });

    createMenus();
    addTabShortcuts();
    connectController();
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_tabs, &ResultsTabs::exportCsvRequested, m_exports, &ResultsExports::exportCsvDialog);
    connect(m_exports, &ResultsExports::written, this, [this](const QString& text) {
        // A save that worked makes an earlier save's error stale.
        if (!m_exportError.isEmpty() && m_message->text() == m_exportError)
            showMessage({});
        m_exportError.clear();
        statusBar()->showMessage(text, 8000);
    });
    connect(m_exports, &ResultsExports::failed, this, [this](const QString& error) {
        m_exportError = error;
        showMessage(error);
    });
    connect(this, &MainWindow::resultsShown, m_session, &WindowSession::resultsShown);
    connect(m_session, &WindowSession::written, this,
        [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_session, &WindowSession::failed, this, &MainWindow::showMessage);
    connect(m_session, &WindowSession::opened, m_recent, &RecentFiles::addSession);

    m_recent->load();
    WindowSettings(this, m_settings, m_controller, m_tabs).restore();
    updateSide(0);
    updateSide(1);
    updateActions();
}

MainWindow::~MainWindow() = default;

QLabel* MainWindow::pairLabel() const
{
    return m_resultsLabel;
}

QLayout* MainWindow::createZones()
{
    // Drop zones A and B with the swap button between them.
    auto* zones = new QHBoxLayout;
    for (int side = 0; side < 2; ++side) {
        m_zones[side] = new TraceDropZone(side, this);
        connect(m_zones[side], &TraceDropZone::fileDropped, this, &MainWindow::openTrace);
        connect(m_zones[side], &TraceDropZone::filesDropped, this,
            [this](const QStringList& files) { openTraces(files.value(0), files.value(1)); });
        connect(m_zones[side], &TraceDropZone::runDropped, this, &MainWindow::openRun);
        connect(m_zones[side], &TraceDropZone::openRequested, this, &MainWindow::showOpenDialog);
        connect(m_zones[side], &TraceDropZone::captureRequested, this, &MainWindow::showCaptureDialog);
        connect(
            m_zones[side], &TraceDropZone::captureRemoved, this, [this](int removed) { setCaptureTrace(removed, {}); });
    }
    auto* swap = new QToolButton(this);
    swap->setText(QStringLiteral("A \u21C4 B"));
    swap->setToolTip(tr("Swap A and B (re-runs the analysis without reading the files again)"));
    connect(swap, &QToolButton::clicked, this, &MainWindow::swapTraces);
    m_zones[0]->setOtherZone(m_zones[1]);
    m_zones[1]->setOtherZone(m_zones[0]);
    zones->addWidget(m_zones[0], 1);
    zones->addWidget(swap);
    zones->addWidget(m_zones[1], 1);
    return zones;
}

QWidget* MainWindow::createProgressRow()
{
    // Progress and Cancel, shown while busy.
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_progress = new QProgressBar(row);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_cancel = new QPushButton(tr("Cancel"), row);
    m_cancel->setToolTip(tr("Stop loading and analysing (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancel, &QPushButton::clicked, m_controller, &AnalysisController::cancel);
    layout->addWidget(m_progress, 1);
    layout->addWidget(m_cancel);
    row->hide();
    return row;
}

void MainWindow::createSettingsDock()
{
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
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openA = file->addAction(tr("Open Trace &A..."), this, [this] { showOpenDialog(0); });
    openA->setShortcut(QKeySequence::Open);
    QAction* openB = file->addAction(tr("Open Trace &B..."), this, [this] { showOpenDialog(1); });
    openB->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("Open Run Folder A..."), this, [this] { showOpenRunDialog(0); });
    file->addAction(tr("Open Run Folder B..."), this, [this] { showOpenRunDialog(1); });
    auto* recent = new RecentMenu(tr("Open &Recent"), m_recent, file);
    connect(recent, &RecentMenu::pairRequested, this, [this](const QString& a, const QString& b) { openTraces(a, b); });
    connect(recent, &RecentMenu::fileRequested, this, &MainWindow::openTrace);
    connect(recent, &RecentMenu::sessionRequested, m_session, &WindowSession::open);
    file->addMenu(recent);
    QAction* samples = file->addAction(tr("Open the &Sample Traces"), this, &MainWindow::openSampleTraces);
    samples->setEnabled(!sampleTracePaths().isEmpty());
    QAction* swap = file->addAction(tr("S&wap A and B"), this, &MainWindow::swapTraces);
    swap->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    file->addSeparator();
    m_session->addActions(file);
    file->addSeparator();
    m_exportAll = file->addAction(tr("&Export All Tables as CSV..."), m_exports, &ResultsExports::exportAllDialog);
    m_exportAll->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportTable = file->addAction(tr("Export &Current Table as CSV..."), this, &MainWindow::exportCurrentTableDialog);
    m_exportReport
        = file->addAction(tr("Export &Report (HTML or Markdown)..."), m_exports, &ResultsExports::exportReportDialog);
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* settings = m_settingsDock->toggleViewAction();
    settings->setText(tr("&Analysis Settings"));
    settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    view->addAction(settings);
    // As fusiondiff-cli --peaks: in the settings, where its error is shown.
    QAction* peaks = view->addAction(tr("GPU &Peaks File..."), this, [this] {
        m_settingsDock->show();
        m_settings->peaksSetting()->choosePeaksFile();
    });
    peaks->setObjectName(QStringLiteral("peaks_file_action"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* glossary = help->addAction(tr("&Glossary and Keyboard Shortcuts"), this, [this] {
        auto* dialog = new HelpDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    glossary->setShortcut(QKeySequence::HelpContents);
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
    const auto add = [this](const QString& text, const QList<QKeySequence>& keys, int step) {
        auto* action = new QAction(text, this);
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
    add(tr("Next tab"), { QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown) }, 1);

    auto* find = new QAction(tr("Find a kernel, type or operation"), this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, &MainWindow::focusSearch);
    addAction(find);
    add(tr("Previous tab"),
        { QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab),
            QKeySequence(Qt::CTRL | Qt::Key_PageUp) },
        -1);
}

void MainWindow::connectController()
{
    connect(m_controller, &AnalysisController::sideChanged, this, &MainWindow::updateSide);
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
    connect(m_tabs->ranksPage(), &RanksPage::rankPairRequested, m_controller, &AnalysisController::setRankPair);
    connect(m_controller, &AnalysisController::analysisFailed, this,
        [this](const QString& message) { showMessage(tr("The analysis failed: %1").arg(message)); });
    connect(m_controller, &AnalysisController::cancelled, this,
        [this] { statusBar()->showMessage(tr("Cancelled."), 5000); });
    connect(m_settings, &AnalysisSettingsWidget::classifierChanged, m_controller, &AnalysisController::setClassifier);
    connect(m_settings, &AnalysisSettingsWidget::optionsChanged, m_controller, &AnalysisController::setOptions);
}

void MainWindow::focusSearch()
{
    if (m_stack->currentWidget() != m_tabs)
        return;
    m_tabs->search()->setFocus(Qt::ShortcutFocusReason);
    m_tabs->search()->selectAll();
}

void MainWindow::updateActions()
{
    const bool results = m_tabs->results().report != nullptr;
    m_exportAll->setEnabled(results);
    m_exportReport->setEnabled(results);
    m_exportTable->setEnabled(results && m_stack->currentWidget() == m_tabs);
}

void MainWindow::updateSide(int side)
{
    const AnalysisController::SideState& state = m_controller->side(side);
    // With one trace loaded, the start page asks for the other one.
    m_welcome->showSides(*m_controller);
    showSideState(*m_zones[side], state, 0, runText(side));
    // Only files and captures that loaded are offered again.
    if (state.status == AnalysisController::Status::Loaded)
        m_recent->addFile(state.path);
    if (state.capture && !state.captureError)
        m_recent->rememberCapture(state.path, state.capturePath);
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
    const FusionReport& report = *results.report;
    // The pages first, then their contents: the page on screen is then laid out and its table
    // sized once, at their final size (the first time, the pages replace the welcome page).
    m_stack->setCurrentWidget(m_tabs);
    m_searchBox->show();
    m_tabs->setResults(results);
    for (size_t side = 0; side < 2; ++side)
        showSideState(*m_zones[side], m_controller->side(int(side)), report.graphComparison.unrecordedUs[side],
            runText(int(side)));

    if (report.job) {
        // Which ranks every view shows: the rank, not only the run, names the pair.
        setWindowTitle(tr("%1 rank %2 vs %3 rank %4")
                           .arg(runName(*report.job, 0))
                           .arg(report.job->detailedPair[0])
                           .arg(runName(*report.job, 1))
                           .arg(report.job->detailedPair[1]));
    } else {
        setWindowTitle(tr("%1 vs %2").arg(sideAlias(report, 0), sideAlias(report, 1)));
    }
    const PairDescription pair = describePair(report);
    m_resultsLabel->setTextFor(
        [pair](const QFontMetrics& metrics, int width) { return fittedPairText(pair, metrics, width); },
        wholePairText(pair));
    m_recent->addFile(toQString(report.traces[0].path));
    m_recent->addFile(toQString(report.traces[1].path));
    m_recent->addPair(toQString(report.traces[0].path), toQString(report.traces[1].path));
    showMessage({});
    updateActions();
    emit resultsShown();
}

QString MainWindow::runText(int side) const
{
    const AnalysisController::SideState& state = m_controller->side(side);
    const std::shared_ptr<const JobReport>& job = m_controller->job();
    if (!m_controller->comparesRuns())
        return {};
    const QString inputs = state.runInputs.size() == 1 ? QFileInfo(state.runInputs[0]).fileName()
                                                       : tr("%1 files").arg(state.runInputs.size());
    if (!job || state.status != AnalysisController::Status::Loaded)
        return tr("Run: %1").arg(inputs);
    return tr("Rank %1 of %2 (%3)")
        .arg(job->detailedPair[size_t(side)])
        .arg(job->sides[size_t(side)].ranks.size())
        .arg(inputs);
}

void MainWindow::openRun(int side, const QStringList& inputs)
{
    m_controller->setRun(side, inputs);
}

void MainWindow::showOpenRunDialog(int side)
{
    const QString folder = existingFolder(
        this, side == 0 ? tr("Open Run A: a Folder of Rank Traces") : tr("Open Run B: a Folder of Rank Traces"));
    if (!folder.isEmpty())
        openRun(side, { folder });
}

void MainWindow::openTraces(
    const QString& pathA, const QString& pathB, const QString& captureA, const QString& captureB)
{
    // A folder is a run of rank traces: the two sides are then compared as jobs.
    if (QFileInfo(pathA).isDir() || QFileInfo(pathB).isDir()) {
        m_controller->setRuns({ pathA }, { pathB });
        return;
    }
    m_controller->setTraces(pathA, pathB, captureA.isEmpty() ? rememberedCapture(pathA) : captureA,
        captureB.isEmpty() ? rememberedCapture(pathB) : captureB);
}

void MainWindow::openTrace(int side, const QString& path)
{
    if (isSessionFile(path)) {
        m_session->open(path);
        return;
    }
    if (QFileInfo(path).isDir()) {
        openRun(side, { path });
        return;
    }
    m_controller->setTrace(side, path, rememberedCapture(path));
}

void MainWindow::setCaptureTrace(int side, const QString& path)
{
    if (path.isEmpty())
        m_recent->forgetCapture(m_controller->side(side).path);
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
    if (files.size() > 2) // rank traces: the side is a run
        openRun(side, files);
    else if (files.size() == 2)
        openTraces(files[0], files[1]);
    else if (files.size() == 1)
        openTrace(side, files.first());
}

void MainWindow::swapTraces()
{
    m_controller->swapTraces();
}

void MainWindow::exportCurrentTableDialog()
{
    const QString name = currentTableCsvName();
    if (!name.isEmpty())
        m_exports->exportCsvDialog(name);
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

void MainWindow::closeEvent(QCloseEvent* event)
{
    WindowSettings(this, m_settings, m_controller, m_tabs).save();
    m_session->saveLastSession();
    m_recent->save();
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
