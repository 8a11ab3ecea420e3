#pragma once

#include "model/jobreport.h"
#include "model/tracestore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {
class Classifier;
} // namespace fusiondiff

namespace fusiondiff::test {

// A job of several steps built from a real job's rank traces (one recorded step each, on one
// clock): each rank's trace repeated as the job's steps, the same copies starting at the same time
// on every rank (a gap between them that varies by step, as a data loader's does), so that each
// copy keeps the real waits between the ranks. Then each rank's profiler window: the steps it
// holds (`firstStep`, `lastStep`: a rank that started a step earlier holds one step more at the
// front, one that started later one step less), with ProfilerStep#N numbers or, without them, its
// steps as the calls of a Python step function; and its clock's offset.
struct RankWindowSpec
{
    size_t steps = 5; // the job's steps that every rank holds by default: copies 1 .. steps
    int64_t firstNumber = 10; // the ProfilerStep number of copy 0
    bool numbered = true; // ProfilerStep#N; false: a Python function "train.py: train_step" per step
    // Per rank (missing: the default window): the first and last copy it holds (0 .. steps + 1).
    std::vector<std::pair<size_t, size_t>> windows;
    std::vector<double> clockOffsetsUs; // per rank: added to every timestamp
};

struct RankWindowJob
{
    std::vector<TraceStore> ranks;
    // Per rank and copy: the step's begin on the rank's clock; NaN where the rank does not hold it.
    std::vector<std::vector<double>> stepBeginUs;
    size_t copies = 0; // steps + 2
};

RankWindowJob buildRankWindowJob(const std::vector<std::string>& rankPaths, const RankWindowSpec& spec);

// The job side of a windowed job (runs/jobside.h) against that of the same job with every rank in
// the default window: its steps are the copies every rank holds, each rank's step s its own record
// of that copy; each collective's waits those of the same call of the full job; each step's
// straggler the full job's in that copy; the steps only some ranks hold named in a note.
struct RankWindowScore
{
    bool steps = false; // the job's steps are the copies every rank holds, each rank's its own
    bool waits = false; // every measured call's waits are the full job's (within 10 us and 5%)
    bool stragglers = false; // each step's straggler is the full job's
    bool named = false; // the steps only some ranks hold are named (JobSide::partialSteps)
    size_t calls = 0; // calls measured
    std::string failure;
    bool pass() const { return steps && waits && stragglers && named; }
};

RankWindowScore scoreRankWindows(
    const std::vector<std::string>& rankPaths, const RankWindowSpec& spec, const Classifier& classifier);

} // namespace fusiondiff::test
