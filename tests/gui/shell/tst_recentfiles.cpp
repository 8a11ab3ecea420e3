// The recent files, pairs and sessions (File > Open Recent): paths kept absolute and most recent
// first, at most ten of each, a pair swapped the same pair, the capture trace remembered with its trace,
// all kept in the settings a little after a change; and the menu built from them.

#include "guitestsupport.h"

#include "shell/recentfiles.h"
#include "shell/recentmenu.h"

#include <QDir>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace fusiondiff;
using namespace fusiondiff::ui;

namespace {

QString absolute(const QString& path)
{
    return QFileInfo(path).absoluteFilePath();
}

QStringList texts(const QList<QAction*>& actions)
{
    QStringList result;
    for (const QAction* action : actions)
        result.append(action->isSeparator() ? QStringLiteral("---") : action->text());
    return result;
}

} // namespace

class TestRecentFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_recentfiles")); }

    void cleanupTestCase() { test::removeOwnSettings(); }

    void init() { QSettings().clear(); }

    void filesAreAbsoluteMostRecentFirstAndAtMostTen()
    {
        RecentFiles recent;
        recent.addFile(QStringLiteral("a.json"));
        recent.addFile(QStringLiteral("/traces/b.json.gz"));
        recent.addFile({}); // nothing opened: nothing to remember
        QCOMPARE(
            recent.files(), QStringList({ QStringLiteral("/traces/b.json.gz"), absolute(QStringLiteral("a.json")) }));

        // Opened again: first again, not twice.
        recent.addFile(QDir::current().filePath(QStringLiteral("a.json")));
        QCOMPARE(
            recent.files(), QStringList({ absolute(QStringLiteral("a.json")), QStringLiteral("/traces/b.json.gz") }));

        for (int i = 0; i < 12; ++i)
            recent.addFile(QStringLiteral("/traces/%1.json").arg(i));
        QCOMPARE(recent.files().size(), RecentFiles::kMaxRecent);
        QCOMPARE(recent.files().first(), QStringLiteral("/traces/11.json"));
        QCOMPARE(recent.files().last(), QStringLiteral("/traces/2.json"));
    }

    void aPairSwappedIsTheSamePair()
    {
        RecentFiles recent;
        recent.addPair(QStringLiteral("/t/a.json"), QStringLiteral("/t/b.json"));
        recent.addPair(QStringLiteral("/t/c.json"), QStringLiteral("/t/d.json"));
        recent.addPair(QStringLiteral("/t/b.json"), QStringLiteral("/t/a.json"));
        QCOMPARE(recent.pairs(),
            QStringList({ QStringLiteral("/t/b.json\n/t/a.json"), QStringLiteral("/t/c.json\n/t/d.json") }));

        for (int i = 0; i < 12; ++i)
            recent.addPair(QStringLiteral("/t/%1a.json").arg(i), QStringLiteral("/t/%1b.json").arg(i));
        QCOMPARE(recent.pairs().size(), RecentFiles::kMaxRecent);
        QCOMPARE(recent.pairs().first(), QStringLiteral("/t/11a.json\n/t/11b.json"));
    }

    void theCaptureIsRememberedWithItsTrace()
    {
        RecentFiles recent;
        const QString trace = absolute(QStringLiteral("run.json"));
        recent.rememberCapture(trace, QStringLiteral("/captures/graphs.json"));
        recent.rememberCapture({}, QStringLiteral("/captures/other.json")); // no trace: nothing to go with
        // Looked up by the trace's absolute path, however it is named.
        QCOMPARE(recent.captureOf(QStringLiteral("run.json")), QStringLiteral("/captures/graphs.json"));
        QCOMPARE(recent.captureOf(trace), QStringLiteral("/captures/graphs.json"));
        QCOMPARE(recent.captureOf(QStringLiteral("other.json")), QString());
        QCOMPARE(recent.captureOf({}), QString());

        recent.rememberCapture(trace, QStringLiteral("/captures/newer.json"));
        QCOMPARE(recent.captureOf(trace), QStringLiteral("/captures/newer.json"));
        recent.forgetCapture(trace);
        QCOMPARE(recent.captureOf(trace), QString());
    }

    // A change is written a little later (not while the user waits for the results), and what
    // is written is what the next run reads.
    void theListsAreKeptInTheSettings()
    {
        {
            RecentFiles recent;
            recent.addFile(QStringLiteral("/t/a.json"));
            recent.addPair(QStringLiteral("/t/a.json"), QStringLiteral("/t/b.json"));
            recent.rememberCapture(QStringLiteral("/t/a.json"), QStringLiteral("/t/capture.json"));
            QVERIFY(!QSettings().contains(QStringLiteral("recent/files")));
            QTRY_VERIFY_WITH_TIMEOUT(QSettings().contains(QStringLiteral("recent/files")), 10000);
        }
        RecentFiles next;
        next.load();
        QCOMPARE(next.files(), QStringList({ QStringLiteral("/t/a.json") }));
        QCOMPARE(next.pairs(), QStringList({ QStringLiteral("/t/a.json\n/t/b.json") }));
        QCOMPARE(next.captureOf(QStringLiteral("/t/a.json")), QStringLiteral("/t/capture.json"));

        next.forgetCapture(QStringLiteral("/t/a.json"));
        next.save();
        RecentFiles third;
        third.load();
        QCOMPARE(third.captureOf(QStringLiteral("/t/a.json")), QString());
        QCOMPARE(third.files(), next.files());
    }

    void theMenuOffersThePairsThenEachFileAsAOrB()
    {
        RecentFiles recent;
        RecentMenu menu(QStringLiteral("Open Recent"), &recent, nullptr);
        menu.rebuild();
        QCOMPARE(texts(menu.actions()), QStringList({ QStringLiteral("(none)") }));
        QVERIFY(!menu.actions().first()->isEnabled());

        recent.addFile(QStringLiteral("/t/a.json"));
        recent.addFile(QStringLiteral("/t/b.json"));
        recent.addPair(QStringLiteral("/t/a.json"), QStringLiteral("/t/b.json"));
        menu.rebuild();
        QCOMPARE(texts(menu.actions()),
            QStringList({ QStringLiteral("a.json  vs  b.json"), QStringLiteral("---"), QStringLiteral("b.json"),
                QStringLiteral("a.json") }));
        QCOMPARE(menu.actions().first()->toolTip(), QStringLiteral("/t/a.json\n/t/b.json"));

        QSignalSpy pairs(&menu, &RecentMenu::pairRequested);
        QSignalSpy files(&menu, &RecentMenu::fileRequested);
        menu.actions().first()->trigger();
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs.first(), QVariantList({ QStringLiteral("/t/a.json"), QStringLiteral("/t/b.json") }));

        QMenu* fileB = menu.actions().at(2)->menu();
        QVERIFY(fileB);
        QCOMPARE(fileB->toolTip(), QStringLiteral("/t/b.json"));
        QCOMPARE(texts(fileB->actions()), QStringList({ QStringLiteral("Open as A"), QStringLiteral("Open as B") }));
        fileB->actions().at(1)->trigger();
        fileB->actions().at(0)->trigger();
        QCOMPARE(files.size(), 2);
        QCOMPARE(files.at(0), QVariantList({ 1, QStringLiteral("/t/b.json") }));
        QCOMPARE(files.at(1), QVariantList({ 0, QStringLiteral("/t/b.json") }));

        // Built anew when it opens: what was added since is there.
        recent.addFile(QStringLiteral("/t/c.json"));
        emit menu.aboutToShow();
        QCOMPARE(menu.actions().at(2)->text(), QStringLiteral("c.json"));
    }

    void theSessionsComeFirstAndAreKept()
    {
        {
            RecentFiles recent;
            recent.addSession(QStringLiteral("/t/one.fdsession"));
            recent.addSession(QStringLiteral("/t/two.fdsession"));
            recent.addSession(QStringLiteral("/t/one.fdsession"));
            recent.addPair(QStringLiteral("/t/a.json"), QStringLiteral("/t/b.json"));
            QCOMPARE(recent.sessions(),
                QStringList({ QStringLiteral("/t/one.fdsession"), QStringLiteral("/t/two.fdsession") }));
            recent.save();
        }
        RecentFiles recent;
        recent.load();
        QCOMPARE(recent.sessions().size(), 2);
        RecentMenu menu(QStringLiteral("Open Recent"), &recent, nullptr);
        menu.rebuild();
        QCOMPARE(texts(menu.actions()),
            QStringList({ QStringLiteral("Session: one.fdsession"), QStringLiteral("Session: two.fdsession"),
                QStringLiteral("---"), QStringLiteral("a.json  vs  b.json"), QStringLiteral("---") }));
        QSignalSpy sessions(&menu, &RecentMenu::sessionRequested);
        menu.actions().at(1)->trigger();
        QCOMPARE(sessions.size(), 1);
        QCOMPARE(sessions.first().first().toString(), QStringLiteral("/t/two.fdsession"));
    }
};

QTEST_MAIN(TestRecentFiles)
#include "tst_recentfiles.moc"
