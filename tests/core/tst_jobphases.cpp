// A job step's phase is the one most of its ranks run, not the first rank's: a rank with a phase
// of its own in some step (an eval it alone runs, a step it is behind in) does not relabel the
// step for the others, and the note names it.

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "model/jobreport.h"
#include "multirankrun.h"
#include "multirankscore.h"
#include "report/jsonwriter.h"
#include "report/reportjob.h"
#include "report/reporttables.h"
#include "runs/jobphases.h"
#include "runs/jobside.h"
#include "runs/runloader.h"
#include "testdata.h"

#include <QtTest>

#include <algorithm>
#include <memory>

using namespace fusiondiff;
using namespace fusiondiff::test;

namespace {

bool hasNote(const std::vector<std::string>& notes, const std::string& text)
{
    return std::any_of(
        notes.begin(), notes.end(), [&text](const std::string& note) { return note.find(text) != std::string::npos; });
}

// A side of `ranks` ranks whose steps run the phases `phases` (signatures; "" outside phases), each
// rank numbering its phases in the order it first runs them.
JobSide sideOf(const std::vector<std::vector<std::string>>& phases)
{
    JobSide side;
    for (size_t r = 0; r < phases.size(); ++r) {
        RankSummary rank;
        rank.rank = int32_t(r);
        for (const std::string& phase : phases[r]) {
            StepRecord step;
            step.phase = -1;
            if (!phase.empty()) {
                auto known = std::find(rank.phaseSignatures.begin(), rank.phaseSignatures.end(), phase);
                if (known == rank.phaseSignatures.end())
                    known = rank.phaseSignatures.insert(rank.phaseSignatures.end(), phase);
                step.phase = int32_t(known - rank.phaseSignatures.begin());
            }
            rank.steps.push_back(step);
        }
        side.ranks.push_back(std::move(rank));
    }
    side.steps.resize(phases.empty() ? 0 : phases[0].size());
    return side;
}

std::vector<int32_t> stepPhases(const JobSide& side)
{
    std::vector<int32_t> phases;
    for (const JobStep& step : side.steps)
        phases.push_back(step.phase);
    return phases;
}

// A rank of a job whose steps are numbered 9 to 14 on one clock (step k begins at stepBegin(k), its
// length varying by step): it holds steps `first` to `last`, each with an all-to-all and an
// all-reduce, both ending on every rank when the last rank arrives; rank 3 arrives 2 ms late at
// step 12's all-reduce. `numbered`: ProfilerStep numbers; else none (a step found from a Python call).
double stepBegin(int64_t number)
{
    double begin = 0;
    for (int64_t k = 9; k < number; ++k)
        begin += 10000 + 1000 * double((k * 3) % 5);
    return begin;
}

RankSummary windowedRank(int32_t rank, int64_t first, int64_t last, bool numbered, double clockUs)
{
    RankSummary summary;
    summary.rank = rank;
    summary.worldSize = 4;
    summary.phaseSignatures = { "train" };
    for (int64_t number = first; number <= last; ++number) {
        const auto own = int32_t(summary.steps.size());
        StepRecord step;
        step.phase = 0;
        step.begin = stepBegin(number) + clockUs;
        step.end = stepBegin(number + 1) - 100 + clockUs;
        summary.steps.push_back(step);
        summary.stepNumbers.push_back(numbered ? number : -1);
        summary.stepKernelTypesUs.emplace_back();
        summary.stepHostIdleUs.emplace_back();
        const bool late = number == 12;
        const double allToAll = step.begin + 1000;
        summary.collectives.push_back({ "AllToAll", "", 4096, -1, allToAll, allToAll + 300, own });
        const double allReduce = step.begin + 5000;
        const double end = allReduce + (late ? 2000 : 0) + 500;
        summary.collectives.push_back(
            { "AllReduce", "", 1 << 20, -1, allReduce + (late && rank == 3 ? 2000 : 0), end, own });
    }
    return summary;
}

// Rank 0 holds steps 10-13, rank 1 started a step later (11-14), rank 2 a step earlier (9-13),
// rank 3 10-13: the job's steps are 11-13, each rank's own, and rank 3 is step 12's straggler.
void checkWindowedJob(bool numbered)
{
    const std::vector<double> clocks
        = numbered ? std::vector<double> { 0, 0, 0, 0 } : std::vector<double> { 0, 3e6, -1.5e6, 7e5 };
    std::vector<RankSummary> ranks { windowedRank(0, 10, 13, numbered, clocks[0]),
        windowedRank(1, 11, 14, numbered, clocks[1]), windowedRank(2, 9, 13, numbered, clocks[2]),
        windowedRank(3, 10, 13, numbered, clocks[3]) };
    std::vector<std::string> notes;
    const JobSide side = buildJobSide(std::move(ranks), "A", notes);
    QCOMPARE(side.steps.size(), size_t(3));
    for (size_t j = 0; j < 3; ++j) {
        QCOMPARE(side.steps[j].number, numbered ? int64_t(11 + j) : int64_t(-1));
        for (size_t r = 0; r < 4; ++r)
            QCOMPARE(side.ranks[r].steps[j].begin, stepBegin(int64_t(11 + j)) + clocks[r]);
        QCOMPARE(side.steps[j].straggler, j == 1 ? 3 : -1);
    }
    QCOMPARE(side.steps[1].stragglerDelayUs, 2000.0);
    QCOMPARE(side.waitUs, (std::vector<double> { 2000, 2000, 2000, 0 }));
    QCOMPARE(side.instances.size(), size_t(6)); // the calls of the steps every rank recorded
    const std::vector<std::string> partial = numbered
        ? std::vector<std::string> { "ProfilerStep#9 (rank 2 only)", "ProfilerStep#10 (all ranks but 1)",
              "ProfilerStep#14 (rank 1 only)" }
        : std::vector<std::string> { "the step 2 before the first every rank recorded (rank 2 only)",
              "the step before the first every rank recorded (all ranks but 1)",
              "the step after the last every rank recorded (rank 1 only)" };
    QCOMPARE(side.partialSteps, partial);
    QVERIFY(hasNote(notes,
        "A: the ranks' profilers did not record the same steps; the steps every rank recorded "
        "are aligned "));
}

} // namespace

class TestJobPhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mostRanksNameTheStepsPhase()
    {
        // Rank 0 runs an eval in step 3 that ranks 1-3 do not, and misses step 5's train (a warm-up
        // there): each step keeps the phase the three others run.
        const std::vector<std::string> others { "", "train", "train", "train", "train" };
        std::vector<std::vector<std::string>> phases { { "", "train", "eval", "train", "" }, others, others, others };
        JobSide side = sideOf(phases);
        std::vector<std::string> notes;
        labelJobStepPhases(side, "A", notes);
        QCOMPARE(side.phaseSignatures, (std::vector<std::string> { "train" }));
        QCOMPARE(stepPhases(side), (std::vector<int32_t> { -1, 0, 0, 0, 0 }));
        QCOMPARE(notes.size(), size_t(1));
        QVERIFY2(notes[0]
                == "A: rank 0 runs another phase than most ranks in steps 3, 5: each job step is labelled "
                   "with the phase most of its ranks run",
            notes[0].c_str());
    }

    void ranksNumberingTheirPhasesApartAgree()
    {
        // Rank 1 meets the eval phase first, so its phase 0 is eval and its phase 1 train: the
        // phases are compared by what they run, and the first rank's numbering stays.
        JobSide side
            = sideOf({ { "train", "train", "eval" }, { "eval", "train", "eval" }, { "train", "train", "eval" } });
        std::vector<std::string> notes;
        labelJobStepPhases(side, "B", notes);
        QCOMPARE(side.phaseSignatures, (std::vector<std::string> { "train", "eval" }));
        QCOMPARE(stepPhases(side), (std::vector<int32_t> { 0, 0, 1 }));
        QCOMPARE(notes,
            (std::vector<std::string> { "B: rank 1 runs another phase than most ranks in step 1: each job "
                                        "step is labelled with the phase most of its ranks run" }));
        // Two ranks that disagree: the lower rank's.
        JobSide tie = sideOf({ { "eval" }, { "train" } });
        notes.clear();
        labelJobStepPhases(tie, "A", notes);
        QCOMPARE(tie.phaseSignatures, (std::vector<std::string> { "eval" }));
        QCOMPARE(notes.size(), size_t(1));
    }

    // Ranks whose profiler windows start or end a step apart: their steps pair by ProfilerStep
    // number, not by position (before, rank 1's first step, #11, was measured as #10 with the
    // others, and its all-reduces waited a step for theirs).
    void stepsAlignByTheirNumbers()
    {
        checkWindowedJob(true);
        // The job against itself: job_steps says each step's number, the JSON the steps left out.
        const std::vector<RankSummary> ranks { windowedRank(0, 10, 13, true, 0), windowedRank(1, 11, 14, true, 0),
            windowedRank(2, 9, 13, true, 0), windowedRank(3, 10, 13, true, 0) };
        FusionReport report;
        report.job = std::make_shared<JobReport>(compareRankSummaries({ ranks, ranks }));
        const ReportTable table = reportTable(ReportTableId::JobSteps, report);
        QCOMPARE(table.rows, size_t(3));
        for (const char* key : { "trace1_profiler_step", "trace2_profiler_step" }) {
            const TableColumn& column = table.columns[size_t(table.columnIndex(key))];
            for (size_t row = 0; row < 3; ++row)
                QCOMPARE(std::get<int64_t>(column.value(row)), int64_t(11 + row));
        }
        JsonWriter json;
        writeJobJson(json, report);
        const std::string text = json.finish();
        QVERIFY2(text.find("\"partial_steps\": [\n      \"ProfilerStep#9 (rank 2 only)\",") != std::string::npos,
            text.c_str());
    }

    // The same without step numbers, the clocks seconds apart: the steps align on the collectives
    // (the shift of each rank's calls whose ends meet on one clock offset, the steps' lengths varying).
    void stepsWithoutNumbersAlignOnTheCollectives() { checkWindowedJob(false); }

    // Numbers that share no step (rank 1's profiler counted from another step): aligned on the
    // collectives, said in a note, and job_steps names no number.
    void numbersThatShareNoStepAlignOnTheCollectives()
    {
        std::vector<RankSummary> ranks { windowedRank(0, 10, 13, true, 0), windowedRank(1, 11, 14, true, 0),
            windowedRank(2, 9, 13, true, 0), windowedRank(3, 10, 13, true, 0) };
        for (int64_t& number : ranks[1].stepNumbers)
            number += 100;
        std::vector<std::string> notes;
        const JobSide side = buildJobSide(std::move(ranks), "A", notes);
        QCOMPARE(side.steps.size(), size_t(3));
        for (size_t j = 0; j < 3; ++j) {
            QCOMPARE(side.steps[j].number, int64_t(-1));
            for (size_t r = 0; r < 4; ++r)
                QCOMPARE(side.ranks[r].steps[j].begin, stepBegin(int64_t(11 + j)));
        }
        QCOMPARE(side.steps[1].straggler, 3);
        QVERIFY(hasNote(notes, "A: the ranks' ProfilerStep numbers have no step in common"));
    }

    // The constructed four-rank job of tst_multirank (two phases: four steps of one, one of the
    // other, after a warm-up): rank 0 of A labels one of its steps with a phase of its own. Before,
    // the job took rank 0's phases: that step fell out of the comparison under a phase B has not.
    void aRankWithAPhaseOfItsOwnDoesNotMislabelTheJob()
    {
        const Classifier classifier = Classifier::builtin("default");
        const std::string base = dataPath("real/hta_trace_diff_control.a100.json.gz").toStdString();
        MultiRankSpec spec;
        spec.ranks = 4;
        spec.clockOffsetsUs = { 0, 5e5, -2e5, 1e6 };
        const MultiRankRun run = buildMultiRankRun(base, spec, classifier);
        std::vector<RankSummary> a = summariesOf(run, classifier);
        const std::vector<RankSummary> b = a;
        QCOMPARE(a[0].phaseSignatures.size(), size_t(2));
        const auto job = [](std::vector<RankSummary> sideA, std::vector<RankSummary> sideB) {
            return std::make_shared<JobReport>(compareRankSummaries({ std::move(sideA), std::move(sideB) }));
        };
        const std::shared_ptr<JobReport> same = job(a, b);
        QCOMPARE(same->steps.size(), size_t(6));

        // Rank 0's last step of phase 1 becomes an eval only it runs.
        size_t relabelled = a[0].steps.size();
        for (size_t s = 0; s < a[0].steps.size(); ++s) {
            if (a[0].steps[s].phase == 0)
                relabelled = s;
        }
        QVERIFY(relabelled < a[0].steps.size());
        a[0].phaseSignatures.push_back("eval");
        a[0].steps[relabelled].phase = 2;
        const std::shared_ptr<JobReport> mixed = job(a, b);
        QCOMPARE(mixed->steps.size(), same->steps.size());
        QCOMPARE(mixed->phases.size(), same->phases.size());
        for (size_t i = 0; i < mixed->steps.size(); ++i) {
            QCOMPARE(mixed->steps[i].step, same->steps[i].step);
            QCOMPARE(mixed->steps[i].phase, same->steps[i].phase);
        }
        QVERIFY(hasNote(mixed->notes,
            "A: rank 0 runs another phase than most ranks in step " + std::to_string(relabelled + 1) + ":"));
    }
};

QTEST_GUILESS_MAIN(TestJobPhases)
#include "tst_jobphases.moc"
