// Words the core writes: counts with their nouns (one gap, no graphs), and kernel names as a reader
// knows them (demangled, also C++20 names an older demangler does not know, without a return type).

#include "model/fusionreport.h"
#include "ops/comparison/kernelcomparison.h"
#include "report/graphtables.h"
#include "util/kernelname.h"
#include "util/plural.h"

#include <QTest>

using namespace fusiondiff;

class TestWording : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsTakeTheirNoun()
    {
        QCOMPARE(countedNoun(1, "gap", "gaps"), std::string("1 gap"));
        QCOMPARE(countedNoun(0, "gap", "gaps"), std::string("0 gaps"));
        QCOMPARE(countedNoun(1234, "launch", "launches"), std::string("1,234 launches"));
    }

    void aSideWithoutGraphsLaunchesNoGraphs()
    {
        FusionReport report;
        GraphComparison& graphs = report.graphComparison;
        graphs.launches = { 0, 1 };
        graphs.kernels = { 0, 1 };
        graphs.timeUs = { 0, 5 };
        GraphKind kind;
        kind.number = 1;
        kind.launches = 1;
        kind.kernels = 1;
        graphs.kinds[1].push_back(kind);
        const std::vector<std::string> notes = graphComparisonNotes(report);
        QVERIFY(!notes.empty());
        QCOMPARE(notes.front(),
            std::string("Graphs: A launches no graphs; B launches 1 graph of 1 kind (1 kernel, 5.0 us)."));
    }

    void cpp20NamesAreDemangled()
    {
        // A non-type template parameter declared "auto" (Clang 17, GCC 14: "TnDa" before the argument).
        QCOMPARE(demangledKernelName("_ZN2at6native6kernelITnDaLi3EEEvPf"),
            std::string("void at::native::kernel<3>(float*)"));
        QCOMPARE(demangledKernelName("_Z1fITniLi4EEvv"), std::string("void f<4>()"));
        QCOMPARE(demangledKernelName("_Z1fILi3EEvv"), std::string("void f<3>()"));
        QCOMPARE(demangledKernelName("not_mangled_kernel"), std::string("not_mangled_kernel"));
        QCOMPARE(demangledKernelName("_Zgarbage"), std::string("_Zgarbage"));
    }

    void returnTypesAreDropped()
    {
        QCOMPARE(withoutReturnType("void at::native::f<int>(float*)"), std::string("at::native::f<int>(float*)"));
        QCOMPARE(
            withoutReturnType("std::enable_if<true, void>::type k<3>(float*, int)"), std::string("k<3>(float*, int)"));
        QCOMPARE(withoutReturnType("unsigned int g(int)"), std::string("g(int)"));
        QCOMPARE(withoutReturnType("at::native::(anonymous namespace)::softmax<float>(float)"),
            std::string("at::native::(anonymous namespace)::softmax<float>(float)"));
        QCOMPARE(withoutReturnType("void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>"),
            std::string("at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>>"));
        QCOMPARE(
            withoutReturnType("nvjet_tst_128x64_64x4_2x1_v_bz_TNT"), std::string("nvjet_tst_128x64_64x4_2x1_v_bz_TNT"));
        // In a sentence: demangled, without the return type, template arguments and parameters.
        QCOMPARE(shortKernelName("_ZN2at6native6kernelITnDaLi3EEEvPf"), std::string("at::native::kernel"));
        QCOMPARE(shortKernelName("std::enable_if<true, void>::type k<3>(float*)"), std::string("k"));
    }
};

QTEST_GUILESS_MAIN(TestWording)
#include "tst_wording.moc"
