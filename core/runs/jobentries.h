#pragma once

namespace fusiondiff {

struct FusionReport;
struct JobReport;

// The detailed pair's `collective` entries of where to look first read against the job's waits:
// on one rank, a collective's kernel time is the wait for the last rank to arrive plus the
// transfer after it. A rank that arrives late waits less, and what the others wait for it is its
// straggler entry, so an entry keeps the transfer only (each side's kernel time less the share of
// it the job measures as that rank's wait), says the waits, and is judged against noise and ranked
// again. Entries of collectives the job did not match across its ranks stay as they are.
void readCollectiveEntriesAgainstWaits(FusionReport& report, const JobReport& job);

// The detailed pair's entries (one rank of each job) read against what the job lost: where the
// detailed rank of the slower job waits less at its collectives than its partner (its own time
// grew, and part of that growth only shortened its waits: the others were late anyway), the job
// lost L through it (its straggler stake, else the jobs' gap). Where its entries that the slower
// job is slower in add up to more than L, each keeps its share of L (in proportion to its stake),
// so that they add up to what the job lost through the rank, not to the rank's own growth, and
// says so. Where the jobs take the same time, the job lost nothing through it on either side.
// A rank whose waits did not shrink keeps its entries as they are.
void boundRankEntriesByTheJob(FusionReport& report, const JobReport& job);

} // namespace fusiondiff
