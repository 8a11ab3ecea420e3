// The operation occurrences (ops/attribution/opoccurrences.h): each attributed kernel goes to the
// occurrence of the frame that stands for its launching frame at the level asked. Random stacks of
// operators, modules and Python frames, against a walk up each launching frame's stack as the
// levels define it (opreport.h), frame by frame: groupByOperation remembers what it found for the
// frames it passed, and must find the same.
#include "model/tracestore.h"
#include "ops/attribution/opattribution.h"
#include "ops/attribution/opoccurrences.h"

#include <QtTest>

#include <random>
#include <string>
#include <vector>

using namespace fusiondiff;

namespace {

bool isOperator(const OpFrame& frame)
{
    return !frame.isModule && !frame.isPython;
}

// The frame that stands for `launching` at `level`, walked frame by frame.
int32_t walkedGroup(const std::vector<OpFrame>& frames, int32_t launching, OpLevel level)
{
    if (level == OpLevel::LaunchingOperator) {
        for (int32_t f = launching; f >= 0; f = frames[size_t(f)].parent) {
            if (isOperator(frames[size_t(f)]))
                return f;
        }
        return launching;
    }
    if (level == OpLevel::Module) {
        for (int32_t f = launching; f >= 0; f = frames[size_t(f)].parent) {
            if (frames[size_t(f)].isModule)
                return f;
        }
    }
    // The outermost operator; at the operator levels, up to the innermost module around the first
    // operator met.
    int32_t outermost = -1;
    for (int32_t f = launching; f >= 0; f = frames[size_t(f)].parent) {
        if (frames[size_t(f)].isModule && level != OpLevel::Module && outermost >= 0)
            break;
        if (isOperator(frames[size_t(f)]))
            outermost = f;
    }
    return outermost >= 0 ? outermost : launching;
}

} // namespace

class TestOpOccurrences : public QObject
{
    Q_OBJECT

private slots:
    void everyLevelGroupsAsAWalkUpTheStack()
    {
        std::mt19937 random(2112);
        for (int round = 0; round < 40; ++round) {
            TraceStore store;
            KernelAttribution attribution;
            const size_t frameCount = 1 + random() % 300;
            for (size_t f = 0; f < frameCount; ++f) {
                OpFrame frame;
                frame.ts = double(f);
                frame.end = double(f) + 1;
                frame.name = store.strings.intern("frame " + std::to_string(random() % 20));
                // Parents among the frames before, or none; deep chains of Python frames included.
                frame.parent = f == 0 || random() % 8 == 0 ? -1 : int32_t(f - 1 - random() % std::min<size_t>(f, 3));
                const unsigned kind = random() % 6;
                frame.isModule = kind == 0;
                frame.isPython = kind >= 3;
                attribution.frames.push_back(frame);
            }
            const size_t kernelCount = random() % 400;
            for (size_t k = 0; k < kernelCount; ++k) {
                KernelEvent kernel;
                kernel.ts = double(k);
                store.kernels.push_back(kernel);
                attribution.launchingFrame.push_back(random() % 10 == 0 ? -1 : int32_t(random() % frameCount));
            }
            for (const OpLevel level :
                { OpLevel::Auto, OpLevel::Operator, OpLevel::Module, OpLevel::LaunchingOperator }) {
                SymbolTable symbols;
                const std::vector<OpOccurrence> occurrences = groupByOperation(store, attribution, level, symbols);
                size_t kernels = 0;
                for (const OpOccurrence& occurrence : occurrences) {
                    for (const uint32_t k : occurrence.kernels) {
                        ++kernels;
                        QCOMPARE(
                            occurrence.frame, walkedGroup(attribution.frames, attribution.launchingFrame[k], level));
                    }
                }
                QCOMPARE(kernels,
                    size_t(std::count_if(attribution.launchingFrame.begin(), attribution.launchingFrame.end(),
                        [](int32_t f) { return f >= 0; })));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestOpOccurrences)
#include "tst_opoccurrences.moc"
