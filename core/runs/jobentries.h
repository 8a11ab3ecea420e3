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

} // namespace fusiondiff
