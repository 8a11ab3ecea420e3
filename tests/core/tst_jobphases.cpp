// A job step's phase is the one most of its ranks run, not the first rank's: a rank with a phase
// of its own in some step (an eval it alone runs, a step it is behind in) does not relabel the
// step for the others, and the note names it.

#include "classify/classifier.h"
#include "fusionanalysis.h"
#include "model/jobreport.h"
#include "multirankrun.h"
#include "multirankscore.h"
#include "runs/jobphases.h"
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
