// The detailed pair's entries read against what the job lost (runs/jobentries.h), on hand-built
// reports: a rank's entries keep their share of the job's loss through the rank; the faster job,
// and jobs that take the same time, lost nothing through a rank that is not their straggler.

#include "model/fusionreport.h"
#include "model/jobreport.h"
#include "runs/jobentries.h"

#include <QTest>

#include <algorithm>
#include <string>

using namespace fusiondiff;

namespace {

LookFirstEntry entry(LookFirstKind kind, Side slower, double stakeUs, const std::string& title)
{
    LookFirstEntry e;
    e.kind = kind;
    e.slowerSide = slower;
    e.stakeUs = stakeUs;
    e.savingUs = stakeUs;
    e.savingSpeedUs = stakeUs;
    e.title = title;
    e.againstGap = slower == Side::Trace1; // B is the slower job below
    return e;
}

// Rank 0 paired with rank 0; its waits at collectives and its step medians on A and B.
JobReport jobOf(double timeA, double timeB, double waitA, double waitB, double stepA, double stepB)
{
    JobReport job;
    job.timeUs = { timeA, timeB };
    job.detailedPair = { 0, 0 };
    RankTimeRow row;
    row.rank = { 0, 0 };
    row.collectiveWaitUs = { waitA, waitB };
    row.stepMedianUs = { stepA, stepB };
    job.rankTimes.push_back(row);
    return job;
}

double stakeOf(const FusionReport& report, const std::string& title)
{
    const auto found = std::find_if(report.whereToLookFirst.begin(), report.whereToLookFirst.end(),
        [&](const LookFirstEntry& e) { return e.title == title; });
    return found == report.whereToLookFirst.end() ? -1 : found->stakeUs;
}

} // namespace

class TestJobEntries : public QObject
{
    Q_OBJECT

private slots:
    void theSlowerJobsRankEntriesShareWhatTheJobLostThroughIt()
    {
        // Rank 0 of B stalled: its waits shrank 1.4 ms, the job lost 100 us through it.
        FusionReport report;
        report.whereToLookFirst = { entry(LookFirstKind::Host, Side::Trace2, 1000, "host B"),
            entry(LookFirstKind::Launch, Side::Trace2, 600, "launch B") };
        JobReport job = jobOf(20000, 20100, 3000, 1600, 14000, 14100);
        Straggler straggler;
        straggler.slowerSide = Side::Trace2;
        straggler.rank = 0;
        straggler.stakeUs = 100;
        job.stragglers.push_back(straggler);
        boundRankEntriesByTheJob(report, job);
        QCOMPARE(stakeOf(report, "host B"), 62.5);
        QCOMPARE(stakeOf(report, "launch B"), 37.5);
        const std::string& detail = report.whereToLookFirst.front().details.front();
        QVERIFY2(detail.find("the job lost 100 us through rank 0 of B") != std::string::npos, detail.c_str());
        QVERIFY2(detail.find("its waits at collectives shrank 1.4 ms") != std::string::npos, detail.c_str());
    }

    void theSlowerJobsEntriesAreBoundedWhereItsWaitsDidNotShrink()
    {
        // A launch-bound rank whose kernels slowed: its GPU ran them in time it waited on the host
        // anyway; its waits and steps are as they were, and the job lost 8 us.
        FusionReport report;
        report.whereToLookFirst = { entry(LookFirstKind::Speed, Side::Trace2, 300, "speed B"),
            entry(LookFirstKind::Launch, Side::Trace2, 100, "launch B") };
        const JobReport job = jobOf(20000, 20008, 1534, 1534, 12509, 12517);
        boundRankEntriesByTheJob(report, job);
        QCOMPARE(stakeOf(report, "speed B"), 6.0);
        QCOMPARE(stakeOf(report, "launch B"), 2.0);
        const std::string& detail = report.whereToLookFirst.front().details.front();
        QVERIFY2(detail.find("the rest did not hold the job up") != std::string::npos, detail.c_str());
    }

    void theFasterJobLostNothingThroughARankThatIsNotItsStraggler()
    {
        FusionReport report;
        report.whereToLookFirst = { entry(LookFirstKind::Host, Side::Trace2, 80, "host B"),
            entry(LookFirstKind::Host, Side::Trace1, 149, "host A"),
            entry(LookFirstKind::Straggler, Side::Trace1, 30, "straggler A") };
        report.whereToLookFirst.back().rank = 7;
        JobReport job = jobOf(20000, 20100, 3000, 1600, 14000, 14100);
        boundRankEntriesByTheJob(report, job);
        QCOMPARE(stakeOf(report, "host A"), 0.0);
        QCOMPARE(stakeOf(report, "host B"), 80.0); // within what the job lost: as it was
        QCOMPARE(stakeOf(report, "straggler A"), 30.0); // stragglers are the job's own entries
        // Where it is the faster job's straggler, its entries keep up to that stake.
        report.whereToLookFirst[1].stakeUs = 149;
        Straggler straggler;
        straggler.slowerSide = Side::Trace1;
        straggler.rank = 0;
        straggler.stakeUs = 40;
        job.stragglers.push_back(straggler);
        FusionReport again;
        again.whereToLookFirst = { entry(LookFirstKind::Host, Side::Trace1, 149, "host A") };
        boundRankEntriesByTheJob(again, job);
        QCOMPARE(stakeOf(again, "host A"), 40.0);
    }

    void jobsThatTakeTheSameTimeLostNothingOnEitherSide()
    {
        FusionReport report;
        report.whereToLookFirst = { entry(LookFirstKind::Launch, Side::Trace1, 292, "launch A"),
            entry(LookFirstKind::Speed, Side::Trace2, 50, "speed B") };
        const JobReport job = jobOf(20823.5, 20823.5, 5588, 5438, 14455, 14521);
        boundRankEntriesByTheJob(report, job);
        QCOMPARE(stakeOf(report, "launch A"), 0.0);
        QCOMPARE(stakeOf(report, "speed B"), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestJobEntries)
#include "tst_jobentries.moc"
