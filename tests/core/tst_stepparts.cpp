// The part of a training step each operation occurrence belongs to (ops/attribution/stepparts.h):
// a hand-built frame tree with autograd nodes (wrapped by the engine and recorded on their own), an
// optimizer step operator, an optimizer step annotation on one thread, Python frames between an
// operator and its node, and occurrences that meet frames another occurrence has decided already.
#include "model/tracestore.h"
#include "ops/attribution/stepparts.h"

#include <QtTest>

using namespace fusiondiff;

class TestStepParts : public QObject
{
    Q_OBJECT

private slots:
    void partsFollowTheFramesAroundAndTheOptimizerSpans()
    {
        TraceStore store;
        KernelAttribution attribution;
        // Cpu ops are frames 0..n-1; the Python frame comes after them.
        const auto op = [&](const char* name, int64_t tid, double ts, double dur, int32_t parent) {
            const StringId id = store.strings.intern(name);
            store.cpuOps.push_back({ ts, dur, kNoId, 1, tid, id });
            attribution.frames.push_back(
                { .ts = ts, .end = ts + dur, .name = id, .parent = parent, .depth = parent < 0 ? 0 : 1 });
        };
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
};

QTEST_GUILESS_MAIN(TestStepParts)
#include "tst_stepparts.moc"
