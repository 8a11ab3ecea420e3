// The analysis runs work of one trace alone on a thread per side (forBothSides, AnalysisOptions::threads):
// these tests check the helper itself (both sides run, on two threads when asked, errors come back)
// and `together`, which lends a finished side's thread to the other side), and that real pairs of
// every kind give the same report byte for byte on one thread and on two.
#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "load/traceloader.h"
#include "report/reportwriters.h"
#include "testdata.h"
#include "util/bothsides.h"

#include <QTest>

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace fusiondiff;

class TestParallelAnalysis : public QObject
{
    Q_OBJECT

    // Runs forBothSides with side 1 ending at once and side 0 running `sideZero` once it has:
    // side 1's thread is then free to help. Returns side 1's thread.
    template<typename SideZero>
    static std::thread::id onSideZeroOnceSideOneHasEnded(SideZero&& sideZero)
    {
        std::atomic<bool> sideOneEnded { false };
        std::thread::id sideOneThread;
        forBothSides(true, [&](size_t side) {
            if (side == 1) {
                sideOneThread = std::this_thread::get_id();
                sideOneEnded = true;
                return;
            }
            while (!sideOneEnded)
                std::this_thread::yield();
            sideZero();
        });
        return sideOneThread;
    }

private slots:
    void bothSidesRunOnTwoThreadsWhenParallel()
    {
        std::array<std::thread::id, 2> ranOn {};
        forBothSides(true, [&](size_t side) { ranOn[side] = std::this_thread::get_id(); });
        QCOMPARE(ranOn[0], std::this_thread::get_id());
        QVERIFY(ranOn[1] != std::thread::id());
        QVERIFY(ranOn[1] != ranOn[0]);
    }

    void bothSidesRunInOrderOnTheCallerOtherwise()
    {
        std::vector<size_t> order;
        std::array<std::thread::id, 2> ranOn {};
        forBothSides(false, [&](size_t side) {
            order.push_back(side);
            ranOn[side] = std::this_thread::get_id();
        });
        QCOMPARE(order, (std::vector<size_t> { 0, 1 }));
        QCOMPARE(ranOn[0], std::this_thread::get_id());
        QCOMPARE(ranOn[1], std::this_thread::get_id());
    }

    void anErrorOnEitherSideComesBackAfterBothEnded()
    {
        for (const bool parallel : { false, true }) {
            for (size_t failing = 0; failing < 2; ++failing) {
                std::array<bool, 2> ended {};
                try {
                    forBothSides(parallel, [&](size_t side) {
                        if (side == failing)
                            throw std::runtime_error("side " + std::to_string(side));
                        ended[side] = true;
                    });
                    QFAIL("no exception");
                } catch (const std::runtime_error& error) {
                    QCOMPARE(std::string(error.what()), "side " + std::to_string(failing));
                }
                if (parallel || failing == 1)
                    QVERIFY(ended[1 - failing]); // the other side ran to its end
            }
        }
        // Both failing: side 0's error, as one thread would have thrown first.
        try {
            forBothSides(true, [](size_t side) { throw std::runtime_error("side " + std::to_string(side)); });
            QFAIL("no exception");
        } catch (const std::runtime_error& error) {
            QCOMPARE(std::string(error.what()), std::string("side 0"));
        }
    }

    void togetherRunsSecondOnTheThreadOfTheSideThatEnded()
    {
        std::atomic<bool> secondRan { false };
        std::thread::id secondThread;
        bool secondRanDuringFirst = false;
        const std::thread::id sideOneThread = onSideZeroOnceSideOneHasEnded([&] {
            together(
                [&] {
                    // Waits for `second` (at most 10 s, so that the test fails rather than hangs).
                    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                    while (!secondRan && std::chrono::steady_clock::now() < deadline)
                        std::this_thread::yield();
                    secondRanDuringFirst = secondRan;
                },
                [&] {
                    secondThread = std::this_thread::get_id();
                    secondRan = true;
                });
        });
        QVERIFY(secondRanDuringFirst);
        QCOMPARE(secondThread, sideOneThread);
    }

    void togetherRunsInOrderWhileBothSidesAreBusy()
    {
        std::atomic<bool> sideZeroDone { false };
        std::vector<int> order;
        std::thread::id secondThread;
        forBothSides(true, [&](size_t side) {
            if (side == 1) {
                while (!sideZeroDone) // busy until side 0's `together` has returned: it cannot help
                    std::this_thread::yield();
                return;
            }
            together([&] { order.push_back(1); },
                [&] {
                    order.push_back(2);
                    secondThread = std::this_thread::get_id();
                });
            sideZeroDone = true;
        });
        QCOMPARE(order, (std::vector<int> { 1, 2 }));
        QCOMPARE(secondThread, std::this_thread::get_id());

        order.clear(); // outside forBothSides, and on one thread
        together([&] { order.push_back(1); }, [&] { order.push_back(2); });
        forBothSides(false, [&](size_t) { together([&] { order.push_back(3); }, [&] { order.push_back(4); }); });
        QCOMPARE(order, (std::vector<int> { 1, 2, 3, 4, 3, 4 }));
    }

    void togetherBringsErrorsBackAfterBothParts()
    {
        for (const bool firstFails : { true, false }) {
            std::array<bool, 2> ran {};
            try {
                onSideZeroOnceSideOneHasEnded([&] {
                    together(
                        [&] {
                            ran[0] = true;
                            if (firstFails)
                                throw std::runtime_error("first");
                        },
                        [&] {
                            ran[1] = true;
                            if (!firstFails)
                                throw std::runtime_error("second");
                        });
                });
                QFAIL("no exception");
            } catch (const std::runtime_error& error) {
                QCOMPARE(std::string(error.what()), std::string(firstFails ? "first" : "second"));
            }
            QVERIFY(ran[0] && ran[1]);
        }
    }

    void theSettingDecides()
    {
        QVERIFY(!analyzeSidesInParallel(1));
        QCOMPARE(analyzeSidesInParallel(0), std::thread::hardware_concurrency() > 1);
        QCOMPARE(analyzeSidesInParallel(8), std::thread::hardware_concurrency() > 1);
    }

    void reportsAreTheSameOnOneThreadAndOnTwo_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        const auto real
            = [](const char* name) { return test::dataPath(QStringLiteral("real/") + QString::fromUtf8(name)); };
        QTest::newRow("bundled sample") << test::sampleA() << test::sampleB();
        QTest::newRow("with Python stacks (owlv2)")
            << real("owlv2-large-patch14-ensemble.mi300x.json.gz") << real("owlv2-large-patch14-ensemble.h100.json.gz");
        QTest::newRow("two stacks with graphs (Pi0)")
            << real("pi0_torchcompile_hipgraph.mi350.json.gz") << real("pi0_torchcompile_cudagraph.h200.json.gz");
        QTest::newRow("graph pair (vLLM, SGLang)")
            << real("vllm_decode_full_graph.mi300x.json.gz") << real("sglang_qwen3-8b_decode.mi300x.json.gz");
        QTest::newRow("training (HTA)") << real("hta_trace_diff_control.a100.json.gz")
                                        << real("hta_trace_diff_test.v100.json.gz");
        QTest::newRow("different work") << real("minitoy_train_rocm6.2.mi250.json.gz")
                                        << real("bert-small-uncased.h100.json.gz");
        // The small side ends first: the large side's `together` runs its parts on both threads.
        QTest::newRow("a large trace against a small one")
            << real("owlv2-large-patch14-ensemble.mi300x.json.gz") << test::sampleB();
    }

    void reportsAreTheSameOnOneThreadAndOnTwo()
    {
        if (!analyzeSidesInParallel(0))
            QSKIP("one core: the analysis runs on one thread whatever the setting");
        QFETCH(QString, a);
        QFETCH(QString, b);
        const Classifier classifier = Classifier::load("default");
        const TraceStore first = loadTrace(a.toStdString());
        const TraceStore second = loadTrace(b.toStdString());
        AnalysisOptions oneThread;
        oneThread.threads = 1;
        AnalysisOptions twoThreads;
        twoThreads.threads = 2;
        const FusionReport one = analyzeFusion(first, second, classifier, oneThread);
        const FusionReport two = analyzeFusion(first, second, classifier, twoThreads);
        QVERIFY(!one.kernels.empty());
        QCOMPARE(reportToJson(two), reportToJson(one));
        QCOMPARE(reportToMarkdown(two), reportToMarkdown(one));
    }
};

QTEST_GUILESS_MAIN(TestParallelAnalysis)
#include "tst_parallelanalysis.moc"
