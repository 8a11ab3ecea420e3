// fusiondiff-cli as its users and scripts run it: arguments, outputs, exit codes and messages.

#include "testdata.h"
#include "tracewriter.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <simdjson.h>

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <sys/mount.h>

using namespace fusiondiff;
using test::filesIn;
using test::readFile;
using test::sampleA;
using test::sampleB;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList& arguments, const QString& workingDirectory = {})
{
    QProcess process;
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(test::cliPath(), arguments);
    if (!process.waitForFinished(120000)) { // a failure of the test that ran it, not of the whole suite
        process.kill();
        process.waitForFinished();
        return { -1, {}, "fusiondiff-cli did not finish within 120 s" };
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
        process.readAllStandardError() };
}

// This test process in a mount namespace of its own, so that it can mount a tiny or read-only
// tmpfs for fusiondiff-cli (its child) without the host seeing it: a real full disk and a real
// read-only folder, which root, who runs the tests here, cannot get from permission bits. The
// mounts vanish with the process. Returns why not, if this is not allowed (not root, a container).
QString privateMountNamespace()
{
    static const QString problem = [] {
        if (::unshare(CLONE_NEWNS) != 0)
            return QStringLiteral("unshare(CLONE_NEWNS): ") + QString::fromLocal8Bit(std::strerror(errno));
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            return QStringLiteral("mount --make-rprivate /: ") + QString::fromLocal8Bit(std::strerror(errno));
        return QString();
    }();
    return problem;
}

// A tmpfs of `size` at `folder` holding `files` (name, contents), read-only if asked.
QString mountTmpfs(
    const QString& folder, const char* size, const QList<QPair<QString, QByteArray>>& files, bool readOnly)
{
    const QByteArray where = folder.toLocal8Bit();
    if (::mount("tmpfs", where.constData(), "tmpfs", 0, size) != 0)
        return QStringLiteral("mount tmpfs: ") + QString::fromLocal8Bit(std::strerror(errno));
    for (const auto& [name, contents] : files) {
        const QString path = QDir(folder).filePath(name);
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size())
            return QStringLiteral("cannot write ") + path;
    }
    if (readOnly && ::mount(nullptr, where.constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0)
        return QStringLiteral("remount read-only: ") + QString::fromLocal8Bit(std::strerror(errno));
    return {};
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpAndVersion()
    {
        const Run help = cli({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("fusiondiff-cli compare A B [--json FILE|-] [--csv DIR] [--markdown FILE|-]"));
        QVERIFY(help.out.contains("classify (TRACE | --names FILE)"));
        const Run version = cli({ QStringLiteral("--version") });
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("fusiondiff-cli "));
        QVERIFY2(version.out.contains("\ngzip decoder: ISA-L ") || version.out.contains("\ngzip decoder: zlib "),
            version.out.constData());
        const Run params = cli({ QStringLiteral("params") });
        QCOMPARE(params.exitCode, 0);
        QVERIFY(params.out.contains("min_group_size"));
    }

    void summaryWithoutOutputOptions()
    {
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB() });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("Qwen1.5-0.5B-Chat.mi300x (AMD Instinct MI300X VF)"));
        QVERIFY(run.out.contains("Where to look first:"));
        QVERIFY(run.err.isEmpty()); // no progress display when stderr is not a terminal
    }

    void allOutputs()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("report.json"));
        const QString markdown = dir.filePath(QStringLiteral("report.md"));
        const QString csv = dir.filePath(QStringLiteral("tables/nested"));
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--json"), json,
            QStringLiteral("--markdown=") + markdown, QStringLiteral("--csv"), csv, QStringLiteral("--classifier"),
            QStringLiteral("seed"), QStringLiteral("--min-group-size"), QStringLiteral("10") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.isEmpty());
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        QVERIFY(!parser.load(json.toStdString()).get(root));
        QCOMPARE(std::string(root["metadata"]["classifier"].get_string().value()), std::string("seed"));
        QCOMPARE(root["options"]["min_group_size"].get_int64().value(), int64_t(10));
        QCOMPARE(root["metadata"]["trace1_total_kernels"].get_int64().value(), int64_t(1516));
        QVERIFY(readFile(markdown).startsWith("# FusionDiff report"));
        const QStringList tables = QDir(csv).entryList({ QStringLiteral("*.csv") }, QDir::Files, QDir::Name);
        QCOMPARE(tables,
            (QStringList { QStringLiteral("collective_calls.csv"), QStringLiteral("collectives.csv"),
                QStringLiteral("efficiency.csv"), QStringLiteral("extra_kernels.csv"),
                QStringLiteral("fusion_mappings.csv"), QStringLiteral("fusion_opportunities.csv"),
                QStringLiteral("global_counts.csv"), QStringLiteral("graph_coverage.csv"),
                QStringLiteral("graph_kinds.csv"), QStringLiteral("graph_pairs.csv"), QStringLiteral("host_time.csv"),
                QStringLiteral("kernels.csv"), QStringLiteral("layer_times.csv"), QStringLiteral("matched_groups.csv"),
                QStringLiteral("matched_kernels.csv"), QStringLiteral("op_findings.csv"),
                QStringLiteral("op_summary.csv"), QStringLiteral("step_times.csv"), QStringLiteral("time_gap.csv"),
                QStringLiteral("traces.csv"), QStringLiteral("where_to_look_first.csv") }));
        QVERIFY(readFile(csv + QStringLiteral("/kernels.csv")).startsWith("name,type,trace1_count"));
        // The sample's 24 decoder layers, one call each in its one step.
        const QList<QByteArray> layers = readFile(csv + QStringLiteral("/layer_times.csv")).trimmed().split('\n');
        QCOMPARE(layers.size(), 25);
        QVERIFY(layers[24].startsWith("23,1,1,"));
        QCOMPARE(root["op_comparison"]["layers"]["per_step"].get_int64().value(), int64_t(24));
        QCOMPARE(std::string(root["op_comparison"]["layers"]["trace2_unit"].get_string().value()),
            std::string("nn.Module: Qwen2DecoderLayer"));
    }

    void captureTraceNamesGraphOperations()
    {
        const Run run = cli({ QStringLiteral("compare"),
            test::dataPath(QStringLiteral("real/vllm_decode_full_graph.mi300x.json.gz")),
            test::dataPath(QStringLiteral("real/sglang_qwen3-8b_decode.mi300x.json.gz")), QStringLiteral("--capture2"),
            test::dataPath(QStringLiteral("real/sglang_qwen3-8b_decode_capture.mi300x.json.gz")) });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("graph launches"));
        QVERIFY(run.out.contains(
            "(A kind 1, 421 kernels, 1 launch) / capture_32_DECODE (B kind 1, 544 kernels, 1 launch)"));
        QVERIFY(run.out.contains("issued by sglang_profiler::"));
    }

    void jsonToStandardOutput()
    {
        const Run run
            = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--json"), QStringLiteral("-") });
        QCOMPARE(run.exitCode, 0);
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        QVERIFY(!parser.parse(run.out.constData(), size_t(run.out.size())).get(root));
        QCOMPARE(
            std::string(root["metadata"]["trace2_gpu"].get_string().value()), std::string("NVIDIA H100 80GB HBM3"));
    }

    void threadCountDoesNotChangeTheReport()
    {
        QByteArray reference;
        for (const char* threads : { "1", "2", "7" }) {
            const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--json"),
                QStringLiteral("-"), QStringLiteral("--threads"), QString::fromUtf8(threads) });
            QCOMPARE(run.exitCode, 0);
            QVERIFY(run.out.size() > 1000);
            if (reference.isEmpty())
                reference = run.out;
            QCOMPARE(run.out, reference);
        }
    }

    void classifyTrace()
    {
        const Run run
            = cli({ QStringLiteral("classify"), sampleB(), QStringLiteral("--classifier"), QStringLiteral("default") });
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("name\tcategory\tcount\ttotal_us"));
        int kernels = 0;
        double previous = 1e300;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> fields = lines[i].split('\t');
            QCOMPARE(fields.size(), 4);
            kernels += fields[2].toInt();
            const double total = fields[3].toDouble();
            QVERIFY(total <= previous);
            previous = total;
        }
        QCOMPARE(kernels, 1465);
    }

    void classifyNames()
    {
        QTemporaryDir dir;
        const QString names = test::writeFile(dir, QStringLiteral("names.txt"),
            "Cijk_Alik_Bljk_gemm\r\nvoid vllm::fused_add_rms_norm_kernel<float>\n\nweird\tname\n");
        const Run run = cli({ QStringLiteral("classify"), QStringLiteral("--names"), names });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out,
            QByteArray("name\tcategory\tcount\ttotal_us\n"
                       "Cijk_Alik_Bljk_gemm\tGEMM\t0\t0\n"
                       "void vllm::fused_add_rms_norm_kernel<float>\tNorm\t0\t0\n"
                       "weird\\tname\tOther\t0\t0\n"));
        const Run seed = cli(
            { QStringLiteral("classify"), QStringLiteral("--names"), names, QStringLiteral("--classifier=seed") });
        QVERIFY(seed.out.contains("void vllm::fused_add_rms_norm_kernel<float>\tOther"));
    }

    void badInputExitsWithTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << QStringList { QStringLiteral("compare"), QStringLiteral("/nope/a.json"),
            sampleB() } << "fusiondiff-cli: error: /nope/a.json: no such file";
        // A folder is a multi-rank run (docs/cli.md): one without trace files is an error.
        QTest::newRow("directory") << QStringList { QStringLiteral("compare"), sampleA(),
            test::sourcePath(QStringLiteral("docs")) }
                                   << "docs: the folder holds no trace files (*.json, *.json.gz)";
        QTest::newRow("classifier file") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--classifier"), QStringLiteral("/nope/rules.json") }
                                         << "/nope/rules.json: cannot open the classifier rule file";
        QTest::newRow("peaks file") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--peaks"), QStringLiteral("/nope/peaks.json") }
                                    << "/nope/peaks.json: cannot open the GPU peaks file";
        QTest::newRow("not a peaks file")
            << QStringList { QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--peaks"), sampleA() }
            << "invalid GPU peaks file: not valid JSON";
        QTest::newRow("unknown option") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--fast") } << "unknown option for compare: --fast";
        QTest::newRow("one trace") << QStringList { QStringLiteral("compare"), sampleA() }
                                   << "compare needs exactly two trace files";
        QTest::newRow("bad parameter") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--param"), QStringLiteral("size_tolerance=wide") }
                                       << "parameter size_tolerance needs a number";
        QTest::newRow("two outputs to stdout") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--json"), QStringLiteral("-"), QStringLiteral("--markdown"), QStringLiteral("-") }
                                               << "only one of --json and --markdown";
        QTest::newRow("capture trace without a capture")
            << QStringList { QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--capture2"), sampleB() }
            << "no graph capture in this trace";
        QTest::newRow("no threads") << QStringList { QStringLiteral("compare"), sampleA(), sampleB(),
            QStringLiteral("--threads=0") }
                                    << "--threads takes a whole number from 1 to 1024, not '0'";
        QTest::newRow("no command") << QStringList {} << "no command given";
        QTest::newRow("classify without input")
            << QStringList { QStringLiteral("classify") } << "classify needs either a trace file or --names FILE";
    }

    void badInputExitsWithTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = cli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void brokenTracesAreNamedWithTheirOffsets()
    {
        QTemporaryDir dir;
        const QByteArray json = test::TraceWriter().nvidia().kernels("k", 100).json();
        const QString truncated
            = test::writeFile(dir, QStringLiteral("cut.json.gz"), json.left(json.size() - 300), true);
        const QString garbage = test::writeFile(dir, QStringLiteral("garbage.json"), "PK\x03\x04 not a trace");
        const Run run = cli({ QStringLiteral("compare"), truncated, garbage, QStringLiteral("--json"),
            dir.filePath(QStringLiteral("never.json")) });
        QCOMPARE(run.exitCode, 2);
        // Both problems are reported, each with its file.
        QVERIFY2(run.err.contains((truncated + QStringLiteral(": ")).toUtf8()), run.err.constData());
        QVERIFY2(run.err.contains("truncated"), run.err.constData());
        QVERIFY2(run.err.contains("of the decompressed data)"), run.err.constData());
        QVERIFY2(run.err.contains((garbage
                     + QStringLiteral(": not a JSON trace: expected '{' or '[' at the start but found 'P' (at byte 0)"))
                                      .toUtf8()),
            run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("never.json")))); // nothing half-written
    }

    void unwritableOutput()
    {
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--json"),
            QStringLiteral("/nonexistent-dir/report.json") });
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("/nonexistent-dir/report.json: cannot write the output file"));
    }

    // Where the outputs go is checked before the traces load: with a trace that does not exist,
    // the output's problem is the one reported, and nothing is written.
    void outputsAreCheckedBeforeLoading_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("expected");
        QTest::newRow("json into a missing folder") << QStringList { "--json",
            "missing/report.json" } << "missing/report.json: cannot write the output file: No such file or directory";
        QTest::newRow("markdown onto a folder")
            << QStringList { "--markdown", "folder" } << "folder: cannot write the output file: Is a directory";
        QTest::newRow("markdown below a file") << QStringList { "--markdown", "file.txt/report.md" }
                                               << "file.txt/report.md: cannot write the output file: Not a directory";
        QTest::newRow("csv onto a file") << QStringList { "--csv", "file.txt" }
                                         << "file.txt: cannot create the output directory: Not a directory";
        QTest::newRow("csv below a file") << QStringList { "--csv",
            "file.txt/tables/more" } << "file.txt/tables/more: cannot create the output directory: Not a directory";
        QTest::newRow("a good json, a bad markdown") << QStringList { "--json", "report.json", "--markdown",
            "missing/report.md" } << "missing/report.md: cannot write the output file: No such file or directory";
    }

    void outputsAreCheckedBeforeLoading()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
        test::writeFile(dir, QStringLiteral("file.txt"), "kept");
        const QStringList before = filesIn(dir.path());
        const Run run = cli(
            QStringList { QStringLiteral("compare"), dir.filePath(QStringLiteral("absent.json")), sampleB() } + options,
            dir.path());
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("fusiondiff-cli: error: ") + expected + QLatin1Char('\n'));
        QCOMPARE(filesIn(dir.path()), before);
        QCOMPARE(readFile(dir.filePath(QStringLiteral("file.txt"))), QByteArray("kept"));
    }

    // The --csv folder is made before the other outputs are written, so they can go into it
    // (however its name is written: with a trailing '/', through '..').
    void otherOutputsGoIntoTheNewCsvFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("out/tables"));
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--csv"),
            folder + QStringLiteral("/"), QStringLiteral("--markdown"), folder + QStringLiteral("/report.md"),
            QStringLiteral("--json"), dir.filePath(QStringLiteral("out/tables/../tables/report.json")) });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        QVERIFY(readFile(folder + QStringLiteral("/report.md")).startsWith("# "));
        QVERIFY(readFile(folder + QStringLiteral("/report.json")).startsWith("{"));
        QVERIFY(QFile::exists(folder + QStringLiteral("/kernels.csv")));
    }

    // A full disk (a 16 KiB tmpfs that the old files nearly fill): each output keeps its old
    // contents, no temporary file is left, and the CLI exits with 2 naming the file.
    void fullDiskKeepsTheOldReports_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("output");
        QTest::newRow("json") << "--json"
                              << "report.json";
        QTest::newRow("markdown") << "--markdown"
                                  << "report.md";
        QTest::newRow("csv") << "--csv"
                             << "."; // the first small tables fit, the next one does not
    }

    void fullDiskKeepsTheOldReports()
    {
        QFETCH(QString, option);
        QFETCH(QString, output);
        const QString problem = privateMountNamespace();
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(folder));
        const QList<QPair<QString, QByteArray>> old = { { QStringLiteral("report.json"), "old json" },
            { QStringLiteral("report.md"), "old markdown" }, { QStringLiteral("kernels.csv"), "old kernels" } };
        const QString mounted = mountTmpfs(folder, "size=16k", old, false);
        QVERIFY2(mounted.isEmpty(), qPrintable(mounted));
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), option,
            QDir::cleanPath(QDir(folder).filePath(output)) });
        const QStringList files = filesIn(folder);
        QList<QByteArray> kept;
        for (const auto& [name, contents] : old)
            kept.append(readFile(QDir(folder).filePath(name)));
        ::umount2(folder.toLocal8Bit().constData(), MNT_DETACH);

        QCOMPARE(run.exitCode, 2);
        const QString file = option == QStringLiteral("--csv")
            ? QRegularExpression::escape(folder + QStringLiteral("/")) + QStringLiteral("[a-z_]+\\.csv")
            : QRegularExpression::escape(QDir(folder).filePath(output));
        const QRegularExpression expected(QRegularExpression::anchoredPattern(QStringLiteral("fusiondiff-cli: error: ")
            + file + QStringLiteral(": cannot write the output file: No space left on device\n")));
        QVERIFY2(expected.match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());
        for (qsizetype i = 0; i < old.size(); ++i)
            QCOMPARE(kept[i], old[i].second);
        for (const QString& name : files)
            QVERIFY2(!name.endsWith(QStringLiteral(".tmp")), qPrintable(name));
    }

    // A read-only folder: the same. (Root ignores permission bits; a read-only mount it does not.)
    void readOnlyFolderKeepsTheOldReport()
    {
        const QString problem = privateMountNamespace();
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("readonly"));
        QVERIFY(QDir().mkpath(folder));
        const QString mounted
            = mountTmpfs(folder, "size=1m", { { QStringLiteral("report.md"), "old markdown" } }, true);
        QVERIFY2(mounted.isEmpty(), qPrintable(mounted));
        const QString path = QDir(folder).filePath(QStringLiteral("report.md"));
        const Run run = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--markdown"), path });
        const Run csv = cli({ QStringLiteral("compare"), sampleA(), sampleB(), QStringLiteral("--csv"), folder });
        const QStringList files = filesIn(folder);
        const QByteArray kept = readFile(path);
        ::umount2(folder.toLocal8Bit().constData(), MNT_DETACH);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err),
            QStringLiteral("fusiondiff-cli: error: %1: cannot write the output file: Read-only file system\n")
                .arg(path));
        QCOMPARE(kept, QByteArray("old markdown"));
        QCOMPARE(files, QStringList { QStringLiteral("report.md") });
        QCOMPARE(csv.exitCode, 2);
        QCOMPARE(QString::fromUtf8(csv.err),
            QStringLiteral("fusiondiff-cli: error: %1: cannot write the CSV tables into the directory: Read-only file "
                           "system\n")
                .arg(folder));
    }

    void fullStandardOutput()
    {
        QProcess process;
        process.setStandardOutputFile(QStringLiteral("/dev/full"));
        process.start(test::cliPath(), { QStringLiteral("compare"), sampleA(), sampleB() });
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 2);
        QCOMPARE(process.readAllStandardError(),
            QByteArray("fusiondiff-cli: error: standard output: cannot write: No space left on device\n"));
    }

    // A usage error is one line that says where the help is, not the whole help text.
    void usageErrorIsOneLine()
    {
        for (const QStringList& arguments : { QStringList { QStringLiteral("compare"), QStringLiteral("--fast") },
                 QStringList { QStringLiteral("frobnicate") }, QStringList {} }) {
            const Run run = cli(arguments);
            QCOMPARE(run.exitCode, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(run.err.count('\n'), 1);
            QVERIFY2(run.err.startsWith("fusiondiff-cli: "), run.err.constData());
            QVERIFY2(run.err.endsWith(" (see fusiondiff-cli --help)\n"), run.err.constData());
        }
    }

    void sameFileTwice()
    {
        const Run run
            = cli({ QStringLiteral("compare"), sampleA(), sampleA(), QStringLiteral("--json"), QStringLiteral("-") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("\"trace1_label\": \"A: Qwen1.5-0.5B-Chat.mi300x (AMD Instinct MI300X VF)\""));
    }

    // Two runs of one job keep their file names and differ by folder: the labels say the folders
    // where the paths part, nearest to the file first, so that every sentence tells the sides apart.
    void alikeFileNamesAreToldApartByTheirFolders()
    {
        QTemporaryDir dir;
        for (const char* folder : { "before/node3", "after/node3", "deep/x/y/node3", "other/x/y/node3" }) {
            QVERIFY(QDir(dir.path()).mkpath(QString::fromLatin1(folder)));
            QVERIFY(QFile::copy(sampleA(), dir.filePath(QString::fromLatin1(folder) + "/rank0.json.gz")));
        }
        const auto labels = [&](const char* a, const char* b) {
            const Run run = cli({ QStringLiteral("compare"), dir.filePath(QString::fromLatin1(a) + "/rank0.json.gz"),
                dir.filePath(QString::fromLatin1(b) + "/rank0.json.gz"), QStringLiteral("--json"),
                QStringLiteral("-") });
            return run.out;
        };
        const QByteArray near = labels("before/node3", "after/node3");
        QVERIFY2(near.contains("\"trace1_label\": \"before/node3/rank0 (AMD Instinct MI300X VF)\""),
            near.left(600).constData());
        QVERIFY(near.contains("\"trace2_label\": \"after/node3/rank0 (AMD Instinct MI300X VF)\""));
        const QByteArray far = labels("deep/x/y/node3", "other/x/y/node3");
        QVERIFY2(far.contains("\"trace1_label\": \"deep/\xe2\x80\xa6/rank0 (AMD Instinct MI300X VF)\""),
            far.left(600).constData());
        QVERIFY(far.contains("\"trace2_label\": \"other/\xe2\x80\xa6/rank0 (AMD Instinct MI300X VF)\""));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
