// The part of a training step each operation occurrence belongs to (ops/attribution/stepparts.h):
// a hand-built frame tree with autograd nodes (wrapped by the engine and recorded on their own), an
// optimizer step operator, an optimizer step annotation on one thread, Python frames between an
// operator and its node, and occurrences that meet frames another occurrence has decided already;
// a node named apart from PyTorch's names on the autograd engine's thread.
#include "model/tracestore.h"
#include "ops/attribution/stepparts.h"

#include <QtTest>

#include <functional>

using namespace fusiondiff;

namespace {

// An operator on thread `tid` and its frame (the operator's index), inside frame `parent` (-1: none).
void addOperator(TraceStore& store, KernelAttribution& attribution, const char* name, int64_t tid, double ts,
    double dur, int32_t parent)
{
    const StringId id = store.strings.intern(name);
    store.cpuOps.push_back({ ts, dur, kNoId, 1, tid, id });
    attribution.frames.push_back(
        { .ts = ts, .end = ts + dur, .name = id, .parent = parent, .depth = parent < 0 ? 0 : 1 });
}

} // namespace

class TestStepParts : public QObject
{
    Q_OBJECT

private slots:
    void partsFollowTheFramesAroundAndTheOptimizerSpans()
    {
        TraceStore store;
        KernelAttribution attribution;
        // Cpu ops are frames 0..n-1; the Python frame comes after them.
        const auto op = std::bind_front(addOperator, std::ref(store), std::ref(attribution));
        op("aten::linear", 1, 0, 10, -1); // 0
        op("aten::mm", 1, 1, 5, 0); // 1
        op("autograd::engine::evaluate_function: MmBackward0", 2, 20, 10, -1); // 2
        op("aten::mm", 2, 21, 5, 2); // 3
        op("Optimizer.step#SGD.step", 1, 40, 10, -1); // 4
        op("aten::add_", 1, 41, 5, 4); // 5
        op("aten::mul", 3, 60, 30, -1); // 6: on the thread with an optimizer step annotation
        op("MmBackward0", 2, 100, 10, -1); // 7
        attribution.frames.push_back({ .ts = 101,
            .end = 105,
            .name = store.strings.intern("model.py: forward"),
            .parent = 7,
            .depth = 1,
            .isPython = true }); // 8
        store.annotations.push_back({ 70, 10, 1, 3, store.strings.intern("Optimizer.step#Adam.step"), false });
        store.annotations.push_back({ 0, 200, 1, 1, store.strings.intern("ProfilerStep#1"), false });

        std::vector<OpOccurrence> occurrences;
        for (const auto& [frame, ts] : std::vector<std::pair<int32_t, double>> { { 1, 1 }, { 0, 0 }, { 3, 21 },
                 { 2, 20 }, { 5, 41 }, { 4, 40 }, { 6, 75 }, { 6, 60 }, { 8, 101 }, { -1, 0 } }) {
            OpOccurrence occurrence;
            occurrence.frame = frame;
            occurrence.ts = ts;
            occurrences.push_back(occurrence);
        }
        const std::vector<StepPart> parts = stepPartsOf(store, attribution, occurrences);
        const std::vector<StepPart> expected { StepPart::Forward, StepPart::Forward, StepPart::Backward,
            StepPart::Backward, StepPart::Optimizer, StepPart::Optimizer, StepPart::Optimizer, StepPart::Forward,
            StepPart::Backward, StepPart::Forward };
        QCOMPARE(parts.size(), expected.size());
        for (size_t i = 0; i < parts.size(); ++i) {
            QVERIFY2(parts[i] == expected[i],
                qPrintable(QStringLiteral("occurrence %1: part %2, expected %3")
                               .arg(i)
                               .arg(int(parts[i]))
                               .arg(int(expected[i]))));
        }
    }

    void aNodeNamedApartIsBackwardOnTheEnginesThread()
    {
        // Another stack's node recorded on its own under a name that says nothing (VendorGrad7 for
        // MeanBackward1, the 2021 schema): on the thread where the engine's known nodes run
        // (AccumulateGrad), and the forward's thread runs none, it is backward work; the optimizer
        // step stays the optimizer's. On one thread alone nothing tells it from forward work.
        for (const int64_t engine : { int64_t(2), int64_t(1) }) {
            TraceStore store;
            KernelAttribution attribution;
            const auto op = std::bind_front(addOperator, std::ref(store), std::ref(attribution));
            op("aten::mean", 1, 0, 10, -1); // 0
            op("aten::div", 1, 1, 5, 0); // 1
            op("torch::autograd::AccumulateGrad", engine, 20, 5, -1); // 2
            op("VendorGrad7", engine, 30, 10, -1); // 3
            op("aten::div", engine, 31, 5, 3); // 4
            op("Optimizer.step#SGD.step", engine, 50, 10, -1); // 5
            op("aten::add_", engine, 51, 5, 5); // 6
            std::vector<OpOccurrence> occurrences;
            for (const auto& [frame, ts] :
                std::vector<std::pair<int32_t, double>> { { 1, 1 }, { 2, 20 }, { 4, 31 }, { 6, 51 } }) {
                OpOccurrence occurrence;
                occurrence.frame = frame;
                occurrence.ts = ts;
                occurrences.push_back(occurrence);
            }
            const std::vector<StepPart> parts = stepPartsOf(store, attribution, occurrences);
            QCOMPARE(parts.size(), size_t(4));
            QVERIFY(parts[0] == StepPart::Forward);
            QVERIFY(parts[1] == StepPart::Backward);
            QVERIFY(parts[2] == (engine == 2 ? StepPart::Backward : StepPart::Forward));
            QVERIFY(parts[3] == StepPart::Optimizer);
        }
    }
};

QTEST_GUILESS_MAIN(TestStepParts)
#include "tst_stepparts.moc"
