#include "ops/timegap/waitedidle.h"

#include "ops/timegap/idlegaps.h"
#include "util/textformat.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

namespace {

// Less than this much moved is not worth a note, nor a move: rounding and noise.
constexpr double kLeastMovedUs = 50.0;

struct Excess
{
    std::string key;
    double us = 0;
    ThreadId home;
};

struct Receiver
{
    std::string key;
    double us = 0;
    ThreadId home;
};

double ownOf(const std::map<std::string, CodeOwnTime>& own, const std::string& key)
{
    const auto found = own.find(key);
    return found == own.end() ? 0.0 : found->second.us;
}

double hostIdleOf(const std::map<CauseKey, CauseSums>& causes, const std::string& key)
{
    const auto found = causes.find({ int(IdleCause::Host), key });
    return found == causes.end() ? 0.0 : found->second.idleUs;
}

// The side's code for `key` (the one with the most own time's name is not known here: the first
// code of that key that is not a runtime call).
int32_t codeOfKey(const StepTimeSide& side, const std::string& key)
{
    for (size_t code = 0; code < side.codes.size(); ++code) {
        const HostCode& named = side.codes[code];
        if (named.kind != HostCodeKind::Runtime && named.kind != HostCodeKind::None && idlePairingKey(named) == key)
            return int32_t(code);
    }
    return -1;
}

// Per code of the side: it pairs under `key` and is not a runtime call or a reason.
std::vector<char> codesOfKey(const StepTimeSide& side, const std::string& key)
{
    std::vector<char> matches(side.codes.size(), 0);
    for (size_t code = 0; code < side.codes.size(); ++code) {
        const HostCode& named = side.codes[code];
        matches[code] = named.kind != HostCodeKind::Runtime && idlePairingKey(named) == key;
    }
    return matches;
}

// The gaps (runs of listed intervals that follow each other without a break) that hold a host
// interval of one of `codes`.
uint64_t gapsOf(const StepTimeSide& side, const std::vector<char>& codes)
{
    uint64_t gaps = 0;
    bool counted = false;
    for (size_t i = 0; i < side.idle.size(); ++i) {
        const IdleInterval& interval = side.idle[i];
        if (i == 0 || side.idle[i - 1].end != interval.begin)
            counted = false;
        if (!counted && interval.cause == IdleCause::Host && interval.step >= 0 && interval.code >= 0
            && size_t(interval.code) < codes.size() && codes[size_t(interval.code)]) {
            ++gaps;
            counted = true;
        }
    }
    return gaps;
}

// Moves up to `us` of the listed host intervals of `from` to `to` on one side, largest first;
// returns what moved.
double moveIntervals(WaitedIdleSide& side, const std::string& from, const std::string& to, int32_t toCode, double us)
{
    StepTimeSide& out = side.out;
    std::vector<uint32_t> listed = idleIntervalsOf(out, IdleCause::Host, from);
    std::stable_sort(listed.begin(), listed.end(), [&](uint32_t a, uint32_t b) {
        return out.idle[a].end - out.idle[a].begin > out.idle[b].end - out.idle[b].begin;
    });
    CauseSums& source = side.causes[{ int(IdleCause::Host), from }];
    CauseSums& target = side.causes[{ int(IdleCause::Host), to }];
    if (target.byPhase.size() < source.byPhase.size()) {
        target.byPhase.resize(source.byPhase.size(), 0.0);
        target.name = out.codes[size_t(toCode)].name;
        target.kind = out.codes[size_t(toCode)].kind;
        target.namedIdleUs = 0;
    }
    const std::vector<char> sourceCodes = codesOfKey(out, from);
    const std::vector<char> targetCodes = codesOfKey(out, to);
    const uint64_t sourceGaps = gapsOf(out, sourceCodes);
    const uint64_t targetGaps = gapsOf(out, targetCodes);
    double moved = 0;
    std::vector<IdleInterval> pieces;
    for (const uint32_t index : listed) {
        if (us - moved < kLeastMovedUs / 10)
            break;
        IdleInterval& interval = out.idle[index];
        const double length = interval.end - interval.begin;
        const double take = std::min(length, us - moved);
        if (take < length) {
            // The interval's end moves, its start stays the holder's.
            pieces.push_back({ interval.end - take, interval.end, IdleCause::Host, interval.step, toCode });
            interval.end -= take;
        } else {
            interval.code = toCode;
        }
        const int32_t phase = out.steps[size_t(interval.step)].phase;
        if (phase >= 0 && size_t(phase) < source.byPhase.size()) {
            source.byPhase[size_t(phase)] -= take;
            target.byPhase[size_t(phase)] += take;
        }
        moved += take;
    }
    // The launch idle after the moved gaps (drainedlaunch.h) goes with them, in proportion.
    if (source.idleUs > 0 && moved > 0) {
        const double share = std::min(1.0, moved / source.idleUs);
        const double drainedUs = source.drainedLaunchUs * share;
        const auto drainedLaunches = uint64_t(std::llround(double(source.drainedLaunches) * share));
        source.drainedLaunchUs -= drainedUs;
        target.drainedLaunchUs += drainedUs;
        source.drainedLaunches -= std::min(source.drainedLaunches, drainedLaunches);
        target.drainedLaunches += drainedLaunches;
    }
    source.idleUs -= moved;
    target.idleUs += moved;
    target.namedIdleUs += moved;
    if (!pieces.empty()) {
        out.idle.insert(out.idle.end(), pieces.begin(), pieces.end());
        std::stable_sort(out.idle.begin(), out.idle.end(),
            [](const IdleInterval& a, const IdleInterval& b) { return a.begin < b.begin; });
    }
    // The gaps each is charged in, as far as the listed intervals tell.
    const uint64_t sourceGapsAfter = gapsOf(out, sourceCodes);
    const uint64_t targetGapsAfter = gapsOf(out, targetCodes);
    source.intervals -= std::min(source.intervals, sourceGaps - std::min(sourceGaps, sourceGapsAfter));
    target.intervals += targetGapsAfter - std::min(targetGaps, targetGapsAfter);
    return moved;
}

} // namespace

std::vector<std::string> chargeWaitsToOtherThreads(
    std::array<WaitedIdleSide, 2> sides, const std::array<std::string, 2>& sideLetters)
{
    std::vector<std::string> notes;
    // Both sides' excess and receivers first, so that what one side moves does not change the other's.
    std::array<std::vector<Excess>, 2> excesses;
    std::array<std::vector<Receiver>, 2> receiverLists;
    for (size_t grew = 0; grew < 2; ++grew) {
        const WaitedIdleSide& side = sides[grew];
        const WaitedIdleSide& other = sides[1 - grew];
        // The codes whose idle grew beyond their own time, and those whose own time grew beyond their idle.
        for (const auto& [key, own] : side.ownByKey) {
            const double ownGrowth = own.us - ownOf(other.ownByKey, key);
            const double idleGrowth = hostIdleOf(side.causes, key) - hostIdleOf(other.causes, key);
            if (idleGrowth - std::max(0.0, ownGrowth) >= kLeastMovedUs)
                excesses[grew].push_back({ key, idleGrowth - std::max(0.0, ownGrowth), own.home });
            else if (ownGrowth - std::max(0.0, idleGrowth) >= kLeastMovedUs)
                receiverLists[grew].push_back({ key, ownGrowth - std::max(0.0, idleGrowth), own.home });
        }
        std::stable_sort(
            excesses[grew].begin(), excesses[grew].end(), [](const Excess& a, const Excess& b) { return a.us > b.us; });
        std::stable_sort(receiverLists[grew].begin(), receiverLists[grew].end(),
            [](const Receiver& a, const Receiver& b) { return a.us > b.us; });
    }
    for (size_t grew = 0; grew < 2; ++grew) {
        WaitedIdleSide& side = sides[grew];
        std::vector<Excess>& excess = excesses[grew];
        std::vector<Receiver>& receivers = receiverLists[grew];
        std::map<std::string, double> movedTo;
        double movedAll = 0;
        for (Excess& from : excess) {
            for (Receiver& to : receivers) {
                if (to.home == from.home || to.us < kLeastMovedUs || from.us < kLeastMovedUs)
                    continue;
                const int32_t toCode = codeOfKey(side.out, to.key);
                if (toCode < 0)
                    continue;
                const double wanted = std::min(from.us, to.us);
                const double moved = moveIntervals(side, from.key, to.key, toCode, wanted);
                // Short of what was wanted: the code's listed intervals are all gone (each move
                // reads every interval, so it is not asked again).
                from.us = moved < wanted - kLeastMovedUs / 10 ? 0.0 : from.us - moved;
                to.us -= moved;
                movedTo[to.key] += moved;
                movedAll += moved;
            }
        }
        if (movedAll < kLeastMovedUs)
            continue;
        std::string names;
        for (const auto& [key, us] : movedTo) {
            if (us >= kLeastMovedUs)
                names += (names.empty() ? "" : ", ") + key + " (" + formatDuration(us) + ")";
        }
        notes.push_back(sideLetters[grew] + ": " + formatDuration(movedAll)
            + " of host idle charged to code whose own time did not grow by as much is charged to code on another "
              "launching thread whose own time grew with no idle to show for it: "
            + names + ". The thread that ran first waited for it, and ran late from then on.");
    }
    return notes;
}

} // namespace fusiondiff
