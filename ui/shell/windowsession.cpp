#include "shell/windowsession.h"

#include "analysis/analysiscontroller.h"
#include "analysis/analysissettingswidget.h"
#include "efficiency/efficiencypage.h"
#include "model/jobreport.h"
#include "pages/groupspage.h"
#include "pages/kernelspage.h"
#include "pages/layerspage.h"
#include "pages/operationspage.h"
#include "pages/operationsummarypage.h"
#include "pages/stepspage.h"
#include "pages/summarypage.h"
#include "pages/tablechartpage.h"
#include "pages/tablepage.h"
#include "ranks/rankspage.h"
#include "shell/resultstabs.h"
#include "timeline/tracetimelinepage.h"
#include "widgets/filedialogs.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <vector>

namespace fusiondiff::ui {

namespace {

const QString kReopenLastKey = QStringLiteral("session/reopenLast");
const QString kTimelineKey = QStringLiteral("timeline");

// A results tab by the key a session names it by (its page's state is saved under that key).
struct NamedPage
{
    QString key;
    QWidget* widget;
    ResultsPage* page;
};

template<typename Page>
NamedPage named(const char* key, Page* page)
{
    return { QString::fromLatin1(key), page, page };
}

std::vector<NamedPage> namedPages(const ResultsTabs& tabs)
{
    return { named("summary", tabs.summaryPage()), named("operations", tabs.operationsPage()),
        named("layers", tabs.layersPage()), named("steps", tabs.stepsPage()),
        named("operation_summary", tabs.operationSummaryPage()), named("opportunities", tabs.opportunitiesPage()),
        named("mappings", tabs.mappingsPage()), named("kernel_types", tabs.kernelTypesPage()),
        named("kernels", tabs.kernelsTab()), named("groups", tabs.groupsPage()),
        named("efficiency", tabs.efficiencyPage()), named("ranks", tabs.ranksPage()) };
}

// "a" for "/x/a.json.gz".
QString traceName(const QString& path)
{
    QString name = QFileInfo(path).fileName();
    for (const QLatin1String suffix : { QLatin1String(".gz"), QLatin1String(".json") }) {
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    }
    return name;
}

bool samePath(const QString& a, const QString& b)
{
    return QDir::cleanPath(QFileInfo(a).absoluteFilePath()) == QDir::cleanPath(QFileInfo(b).absoluteFilePath());
}

bool samePaths(const QStringList& a, const QStringList& b)
{
    return std::ranges::equal(a, b, samePath);
}

// A side's inputs as the controller compares runs: a single trace beside a run is a run of one.
QStringList runInputs(const Session::Side& side)
{
    return side.run.isEmpty() ? QStringList { side.trace } : side.run;
}

} // namespace

WindowSession::WindowSession(
    AnalysisController* controller, AnalysisSettingsWidget* settings, ResultsTabs* tabs, QWidget* window)
    : QObject(window)
    , m_controller(controller)
    , m_settings(settings)
    , m_tabs(tabs)
    , m_window(window)
{
    connect(m_controller, &AnalysisController::sideChanged, this, [this](int side) {
        const AnalysisController::SideState& state = m_controller->side(side);
        if (!m_pending)
            return;
        const Session::Side& pending = m_pending->sides[static_cast<size_t>(side)];
        if (m_pending->comparesRuns() ? !samePaths(state.runInputs, runInputs(pending))
                                      : !samePath(state.path, pending.trace))
            return;
        if (state.error)
            abandon(state.error->text());
        else if (state.captureError)
            abandon(state.captureError->text());
    });
    connect(m_controller, &AnalysisController::analysisFailed, this, [this](const QString& message) {
        if (m_pending)
            abandon(message);
    });
    connect(m_controller, &AnalysisController::cancelled, this, [this] {
        if (m_pending)
            abandon(tr("cancelled"));
    });
}

void WindowSession::addActions(QMenu* menu)
{
    menu->addAction(tr("Open Sess&ion..."), this, &WindowSession::openDialog);
    m_saveAction = menu->addAction(tr("Save Sessio&n..."), this, &WindowSession::saveDialog);
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_saveAction->setToolTip(tr("Save the pair, the settings, the tab, the filters, the selections and the zoom"));
    m_saveAction->setEnabled(hasResults());
    QAction* reopen = menu->addAction(tr("Reopen the &Last Session at Start-up"));
    reopen->setCheckable(true);
    reopen->setChecked(reopensLastSession());
    reopen->setToolTip(tr("Save the session when the window closes and open it again at the next start"));
    connect(reopen, &QAction::toggled, this, &WindowSession::setReopensLastSession);
}

Session WindowSession::current() const
{
    if (!m_shown)
        return {};
    Session session = *m_shown;
    for (const NamedPage& page : namedPages(*m_tabs)) {
        session.pages.insert(page.key, page.page->saveState());
        if (page.widget == m_tabs->currentWidget())
            session.tab = page.key;
    }
    session.pages.insert(kTimelineKey, m_tabs->timelinePage()->saveState());
    if (m_tabs->currentWidget() == m_tabs->timelinePage())
        session.tab = kTimelineKey;
    return session;
}

bool WindowSession::save(const QString& path)
{
    if (!m_shown) {
        emit failed(tr("Cannot save a session before two traces are compared."));
        return false;
    }
    const QString error = writeSession(path, current());
    if (!error.isEmpty()) {
        emit failed(error);
        return false;
    }
    emit written(tr("Saved the session to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool WindowSession::open(const QString& path)
{
    SessionReading reading = readSession(path);
    if (!reading.session) {
        emit failed(reading.error);
        return false;
    }
    const Session& session = *reading.session;
    // The classifier first: a rule file that does not load leaves everything as it was.
    if (session.classifier != m_settings->classifierSpec() && !m_settings->setClassifierSpec(session.classifier)) {
        emit failed(tr("Cannot open the session %1: its classifier cannot be used: %2.")
                        .arg(QDir::toNativeSeparators(path), m_settings->classifierError()));
        return false;
    }
    m_settings->setOptions(session.options);
    m_controller->setOptions(session.options);
    m_pending = std::move(reading.session);
    m_pendingPath = path;
    m_pendingRanksAsked = false;
    const std::array<Session::Side, 2>& sides = m_pending->sides;
    if (m_pending->comparesRuns())
        m_controller->setRuns(runInputs(sides[0]), runInputs(sides[1]));
    else
        m_controller->setTraces(sides[0].trace, sides[1].trace, sides[0].capture, sides[1].capture);
    emit opened(path);
    return true;
}

void WindowSession::resultsShown()
{
    Session shown;
    for (size_t side = 0; side < 2; ++side) {
        const AnalysisController::SideState& state = m_controller->side(static_cast<int>(side));
        shown.sides[side] = { state.path, state.capturePath, {}, -1 };
        if (m_controller->comparesRuns() && m_controller->job()) {
            shown.sides[side].run = state.runInputs;
            shown.sides[side].rank = m_controller->job()->detailedPair[side];
        }
    }
    shown.classifier = m_settings->classifierSpec();
    shown.options = m_controller->options();
    m_shown = shown;
    if (m_saveAction)
        m_saveAction->setEnabled(true);

    if (!m_pending)
        return;
    // Other traces opened since: the session is not what is on screen.
    if (!showsPendingInputs(shown)) {
        m_pending.reset();
        return;
    }
    // The runs came back with the job's pair; the session's pair is asked for once.
    const std::array<int, 2> ranks { m_pending->sides[0].rank, m_pending->sides[1].rank };
    if (m_pending->comparesRuns() && ranks[0] >= 0 && ranks[1] >= 0
        && (ranks[0] != shown.sides[0].rank || ranks[1] != shown.sides[1].rank)) {
        if (m_pendingRanksAsked || !m_controller->setRankPair(ranks[0], ranks[1]))
            abandon(tr("the runs have no ranks %1 and %2 to show").arg(ranks[0]).arg(ranks[1]));
        m_pendingRanksAsked = true;
        return;
    }
    const Session session = *std::exchange(m_pending, std::nullopt);
    restorePages(session);
    emit restored(m_pendingPath);
    emit written(tr("Restored the session %1").arg(QDir::toNativeSeparators(m_pendingPath)));
}

bool WindowSession::showsPendingInputs(const Session& shown) const
{
    for (size_t side = 0; side < 2; ++side) {
        const Session::Side& pending = m_pending->sides[side];
        const bool same = m_pending->comparesRuns() ? samePaths(shown.sides[side].run, runInputs(pending))
                                                    : samePath(shown.sides[side].trace, pending.trace);
        if (!same)
            return false;
    }
    return true;
}

void WindowSession::restorePages(const Session& session)
{
    // The pages first, then the tab: a page shown for the first time then shows its restored state.
    // (The Ranks tab is only there for runs.)
    QWidget* tab = nullptr;
    for (const NamedPage& page : namedPages(*m_tabs)) {
        page.page->restoreState(session.pages.value(page.key).toObject());
        if (page.key == session.tab)
            tab = page.widget;
    }
    m_tabs->timelinePage()->restoreState(session.pages.value(kTimelineKey).toObject());
    if (session.tab == kTimelineKey)
        tab = m_tabs->timelinePage();
    if (tab && m_tabs->indexOf(tab) >= 0)
        m_tabs->setCurrentWidget(tab);
}

void WindowSession::abandon(const QString& reason)
{
    m_pending.reset();
    emit failed(tr("The session %1 was not restored: %2").arg(QDir::toNativeSeparators(m_pendingPath), reason));
}

void WindowSession::openDialog()
{
    const QString file
        = openFileName(m_window, tr("Open Session"), tr("FusionDiff sessions (*.fdsession);;All files (*)"));
    if (!file.isEmpty())
        open(file);
}

void WindowSession::saveDialog()
{
    if (!m_shown)
        return;
    const QString suggested = tr("%1 vs %2.%3")
                                  .arg(traceName(m_shown->sides[0].trace), traceName(m_shown->sides[1].trace),
                                      QLatin1String(kSessionSuffix));
    QString file
        = saveFileName(m_window, tr("Save Session"), suggested, tr("FusionDiff sessions (*.fdsession);;All files (*)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += QLatin1Char('.') + QLatin1String(kSessionSuffix);
    save(file);
}

QString WindowSession::lastSessionPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("last.") + QLatin1String(kSessionSuffix));
}

bool WindowSession::reopensLastSession()
{
    return QSettings().value(kReopenLastKey, false).toBool();
}

void WindowSession::setReopensLastSession(bool reopen)
{
    QSettings().setValue(kReopenLastKey, reopen);
}

void WindowSession::saveLastSession()
{
    if (!reopensLastSession() || !m_shown)
        return;
    QDir().mkpath(QFileInfo(lastSessionPath()).absolutePath());
    // The window is closing: an error can only go to the terminal.
    const QString error = writeSession(lastSessionPath(), current());
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
}

void WindowSession::openLastSession()
{
    if (reopensLastSession() && QFileInfo::exists(lastSessionPath()))
        open(lastSessionPath());
}

} // namespace fusiondiff::ui
