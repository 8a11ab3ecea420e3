// writeFileAtomically (core/util/atomicfile.h): the old file survives every failure, and no
// temporary file is left behind, on a real full disk and a real read-only folder (a tmpfs in a
// private mount namespace: root ignores permission bits, a read-only mount it does not), with
// injected system-call failures, and when the writer is killed in the middle.

#include "testdata.h"
#include "util/atomicfile.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace fusiondiff;
using test::filesIn;
using test::readFile;

namespace {

std::string bigContents(size_t size)
{
    std::string text(size, '\0');
    for (size_t i = 0; i < size; ++i)
        text[i] = static_cast<char>('a' + i % 26);
    return text;
}

// The failure to inject, for the hook (a plain function pointer).
AtomicWriteStep g_failStep = AtomicWriteStep::Create;
int g_failErrno = 0;
uint64_t g_failAfterBytes = 0;

int failingHook(AtomicWriteStep step, uint64_t written)
{
    return step == g_failStep && written >= g_failAfterBytes ? g_failErrno : 0;
}

int killingHook(AtomicWriteStep step, uint64_t written)
{
    if (step == AtomicWriteStep::Write && written >= (uint64_t(1) << 20))
        ::raise(SIGKILL);
    return 0;
}

struct ChildResult
{
    bool skipped = false;
    QString failure; // empty: every check in the child passed
};

// Runs `check` in a child process with a private mount namespace and a 64 KiB tmpfs at `folder`,
// which vanish with the child. `check` returns an empty string on success. Skipped where mount
// namespaces are not allowed.
template<typename Check>
ChildResult inTinyTmpfs(const QString& folder, Check check)
{
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        qFatal("pipe");
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(pipeFds[0]);
        auto report = [&](const std::string& text, int status) {
            [[maybe_unused]] const ssize_t written = ::write(pipeFds[1], text.data(), text.size());
            ::_exit(status);
        };
        if (::unshare(CLONE_NEWNS) != 0 && ::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            report(std::string("unshare: ") + std::strerror(errno), 77);
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            report(std::string("mount --make-rprivate /: ") + std::strerror(errno), 77);
        const QByteArray where = folder.toLocal8Bit();
        if (::mount("tmpfs", where.constData(), "tmpfs", 0, "size=64k") != 0)
            report(std::string("mount tmpfs: ") + std::strerror(errno), 77);
        const std::string failure = check(where.toStdString());
        report(failure, failure.empty() ? 0 : 1);
    }
    ::close(pipeFds[1]);
    QByteArray message;
    char buffer[512];
    ssize_t got;
    while ((got = ::read(pipeFds[0], buffer, sizeof buffer)) > 0)
        message.append(buffer, got);
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
        return { true, QString::fromLocal8Bit(message) };
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return { false, QStringLiteral("child failed: ") + QString::fromLocal8Bit(message) };
    return {};
}

// Writes an old report, then `contents` after `prepare`, expecting an error that contains
// `reason`, the old report intact and no other file in the folder.
std::string expectFailureKeepsOldFile(
    const std::string& folder, const std::string& contents, const std::string& reason, int (*prepare)(const char*))
{
    const std::string path = folder + "/report.json";
    writeFileAtomically(path, "old report");
    if (prepare && prepare(folder.c_str()) != 0)
        return std::string("preparing: ") + std::strerror(errno);
    try {
        writeFileAtomically(path, contents);
        return "the write did not fail";
    } catch (const InputError& error) {
        if (error.path() != path || error.reason().find(reason) == std::string::npos)
            return std::string("unexpected error: ") + error.what();
    }
    const QString qfolder = QString::fromStdString(folder);
    if (readFile(qfolder + QStringLiteral("/report.json")) != "old report")
        return "the old report was changed";
    if (filesIn(qfolder) != QStringList { QStringLiteral("report.json") })
        return "files left behind: " + filesIn(qfolder).join(QLatin1Char(' ')).toStdString();
    return {};
}

int remountReadOnly(const char* folder)
{
    return ::mount(nullptr, folder, nullptr, MS_REMOUNT | MS_RDONLY, nullptr);
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { setAtomicWriteHookForTesting(nullptr); }

    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.json"));
        writeFileAtomically(path.toStdString(), "first");
        QCOMPARE(readFile(path), QByteArray("first"));
        const mode_t mask = ::umask(022);
        ::umask(mask);
        struct stat info
        {
        };
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, 0666 & ~mask);

        ::chmod(path.toLocal8Bit().constData(), 0600);
        const std::string big = bigContents(3 << 20); // several write blocks
        writeFileAtomically(path.toStdString(), big);
        QCOMPARE(readFile(path), QByteArray::fromStdString(big));
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600)); // the old file's permissions are kept
        writeFileAtomically(path.toStdString(), "");
        QCOMPARE(readFile(path), QByteArray());
        QCOMPARE(filesIn(dir.path()), QStringList { QStringLiteral("report.json") });
    }

    void followsSymbolicLinksAndWritesDevicesInPlace()
    {
        QTemporaryDir dir;
        const QString real = dir.filePath(QStringLiteral("real.md"));
        const QString link = dir.filePath(QStringLiteral("link.md"));
        writeFileAtomically(real.toStdString(), "old");
        QVERIFY(QFile::link(real, link));
        writeFileAtomically(link.toStdString(), "new");
        QCOMPARE(readFile(real), QByteArray("new"));
        QVERIFY(QFileInfo(link).isSymLink());

        writeFileAtomically("/dev/null", "discarded"); // not replaced by a regular file
        QVERIFY(QFileInfo(QStringLiteral("/dev/null")).exists() && !QFileInfo(QStringLiteral("/dev/null")).isFile());
        try {
            writeFileAtomically(dir.path().toStdString(), "x");
            QFAIL("wrote over a directory");
        } catch (const InputError& error) {
            QVERIFY2(
                QString::fromStdString(error.reason()).contains(QStringLiteral("it is a directory")), error.what());
        }
    }

    void missingFolder()
    {
        try {
            writeFileAtomically("/nonexistent-folder/report.json", "x");
            QFAIL("wrote into a folder that does not exist");
        } catch (const InputError& error) {
            QCOMPARE(error.path(), std::string("/nonexistent-folder/report.json"));
            QCOMPARE(error.reason(), std::string("cannot write the output file: No such file or directory"));
        }
    }

    // Every step failing as the system would make it fail.
    void injectedFailures_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("error");
        QTest::addColumn<qulonglong>("afterBytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("create: disk full") << int(AtomicWriteStep::Create) << ENOSPC << qulonglong(0)
                                           << "cannot write the output file: No space left on device";
        QTest::newRow("first block: disk full") << int(AtomicWriteStep::Write) << ENOSPC << qulonglong(0)
                                                << "cannot write the output file: No space left on device";
        QTest::newRow("after 2 MiB: disk full") << int(AtomicWriteStep::Write) << ENOSPC << qulonglong(2 << 20)
                                                << "cannot write the output file: No space left on device";
        QTest::newRow("fsync: I/O error") << int(AtomicWriteStep::Sync) << EIO << qulonglong(0)
                                          << "cannot write the output file: flushing it to disk: Input/output error";
        QTest::newRow("close: disk quota") << int(AtomicWriteStep::Close) << EDQUOT << qulonglong(0)
                                           << "cannot write the output file: closing it: Disk quota exceeded";
        QTest::newRow("rename") << int(AtomicWriteStep::Rename) << EXDEV << qulonglong(0)
                                << "cannot write the output file: renaming the temporary file over it: Invalid "
                                   "cross-device link";
    }

    void injectedFailures()
    {
        QFETCH(int, step);
        QFETCH(int, error);
        QFETCH(qulonglong, afterBytes);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("table.csv"));
        writeFileAtomically(path.toStdString(), "old table");
        g_failStep = static_cast<AtomicWriteStep>(step);
        g_failErrno = error;
        g_failAfterBytes = afterBytes;
        setAtomicWriteHookForTesting(failingHook);
        try {
            writeFileAtomically(path.toStdString(), bigContents(5 << 20));
            QFAIL("the injected failure was not reported");
        } catch (const InputError& thrown) {
            QCOMPARE(QString::fromStdString(thrown.path()), path);
            QCOMPARE(QString::fromStdString(thrown.reason()), reason);
        }
        QCOMPARE(readFile(path), QByteArray("old table"));
        QCOMPARE(filesIn(dir.path()), QStringList { QStringLiteral("table.csv") });
    }

    void fullDisk()
    {
        QTemporaryDir dir;
        const ChildResult result = inTinyTmpfs(dir.path(), [](const std::string& folder) {
            return expectFailureKeepsOldFile(folder, bigContents(1 << 20), "No space left on device", nullptr);
        });
        if (result.skipped)
            QSKIP(qPrintable(QStringLiteral("no private mount namespace here: ") + result.failure));
        QVERIFY2(result.failure.isEmpty(), qPrintable(result.failure));
    }

    void readOnlyFolder()
    {
        QTemporaryDir dir;
        const ChildResult result = inTinyTmpfs(dir.path(), [](const std::string& folder) {
            return expectFailureKeepsOldFile(folder, "new report", "Read-only file system", remountReadOnly);
        });
        if (result.skipped)
            QSKIP(qPrintable(QStringLiteral("no private mount namespace here: ") + result.failure));
        QVERIFY2(result.failure.isEmpty(), qPrintable(result.failure));
    }

    // A writer killed in the middle of its temporary file: the report is untouched, the temporary
    // file stays (nobody is left to remove it) until the next write of the same report.
    void killedWriter()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.md"));
        writeFileAtomically(path.toStdString(), "old report");
        // Another writer's temporary file, of a process that still runs (init): never removed.
        const QString alive = dir.filePath(QStringLiteral(".report.md.fusiondiff-1-0.tmp"));
        writeFileAtomically(alive.toStdString(), "someone else's");

        const pid_t child = ::fork();
        if (child == 0) {
            setAtomicWriteHookForTesting(killingHook);
            writeFileAtomically(path.toStdString(), bigContents(4 << 20));
            ::_exit(0); // not reached: killed after the first MiB
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        QCOMPARE(readFile(path), QByteArray("old report"));
        const QStringList files = filesIn(dir.path());
        QCOMPARE(files.size(), 3);
        const QString stale = files[1];
        QVERIFY2(stale.startsWith(QStringLiteral(".report.md.fusiondiff-%1-").arg(child)), qPrintable(stale));
        QCOMPARE(QFileInfo(dir.filePath(stale)).size(), qint64(1) << 20); // what it wrote before it died

        writeFileAtomically(path.toStdString(), "new report");
        QCOMPARE(readFile(path), QByteArray("new report"));
        QCOMPARE(filesIn(dir.path()),
            (QStringList { QStringLiteral(".report.md.fusiondiff-1-0.tmp"), QStringLiteral("report.md") }));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
