#!/usr/bin/env python3
"""Makes a copy of a multi-rank run in which one rank runs slower, with every other rank's
collectives waiting for it as they would: the input for comparing a job with its straggler.

    slowrank.py SRC_DIR DST_DIR --rank K --factor F

Rank K's kernels other than the collectives' (NCCL/RCCL) run F times as long; everything the rank
does after a slowed kernel moves by the time added. Then, collective by collective (the n-th
communication kernel on every rank), each rank's kernel ends its old transfer time (its old end
minus the old last arrival) after the new last arrival, and everything after it moves with it.
The slowed rank's host events during a collective it now waits less in are compressed into its
shorter span (keep_host_order): they keep their order, nesting and calls, so that no operation,
phase or fusion changes.
The ranks' clocks are aligned on the collectives' ends (the median difference to rank 0's), as
FusionDiff does. Prints the time the straggler added to the job's collectives (the sum over collectives of the
last arrival's move), to the job's end (its work after the last collective counts too), and each
rank's added wait. Timestamps stay integers where they were, except those of host events placed in
a collective's shorter span (fractional microseconds).
"""
import argparse
import bisect
import gzip
import json
import os
import statistics


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def save(path, trace):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt") as f:
        json.dump(trace, f)


def is_collective(event):
    return event.get("cat") == "kernel" and event.get("name", "").lower().startswith(("nccl", "rccl"))


def timed(trace):
    return [e for e in trace["traceEvents"] if isinstance(e, dict) and "ts" in e]


def is_gpu(event):
    return event.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")


def keep_host_order(events, before):
    """The host events during a collective that the rank now waits less in, compressed into its shorter span.

    Everything after a slowed kernel moves by the time it added, host events too (the host follows
    the GPU), and everything after a collective's end moves back by the wait the rank no longer
    has: host events in flight during that collective (launching the next work while it waits)
    would move forward by the first and not back by the second, and change places with those after
    its end (launches slip into the operator before them, a kernel starts before its launch), which
    the analysis rightly reads as other calls. So the host events from such a collective's start
    to its end (both included) are placed proportionally up to its new end: every thread keeps its
    order and nesting, and each launch stays before its kernel. Where the collective's span shrank
    to less than half, the span placed starts earlier, as far before its end as twice the time it
    lost (not before the previous collective's end), so that events a microsecond apart stay half a
    microsecond apart (epoch timestamps in microseconds carry quarters at most: packed tighter, they
    would start together and nest anew).
    `before` holds each event's original start and end; a rank whose collectives all end as late
    as they start moves unchanged."""
    host = [e for e in events if not is_gpu(e) and e.get("ph") != "f"]  # a flow's end sits on its kernel
    points = sorted((before[id(e)][0], e["ts"]) for e in host)
    originals = [t for t, _ in points]

    def position(t):
        """Where the host point at `t` went, by the latest host event that starts at or before it."""
        i = bisect.bisect_right(originals, t) - 1
        return t if i < 0 else points[i][1] + (t - points[i][0])

    collectives = [e for e in events if is_collective(e)]
    windows = []
    for e in collectives:
        start, end = before[id(e)]
        lost = (e["ts"] - start) - (e["ts"] + e["dur"] - end)
        if end > start and lost > 0:
            # Not before the previous collective's end: before it, the rank's events moved otherwise.
            previous = max((before[id(c)][1] for c in collectives if before[id(c)][1] <= start), default=start)
            first = max(previous, min(start, end - 2 * lost))
            windows.append([first, end, position(first), e["ts"] + e["dur"]])
    windows.sort()
    merged = []
    for w in windows:
        if merged and w[0] < merged[-1][1]:
            if w[1] > merged[-1][1]:
                merged[-1][1], merged[-1][3] = w[1], w[3]
        else:
            merged.append(w)
    starts = [w[0] for w in merged]

    def placed(t, moved):
        i = bisect.bisect_right(starts, t) - 1
        if i < 0 or t > merged[i][1]:
            return moved
        start, end, new_start, new_end = merged[i]
        return new_start + (t - start) * max(0, new_end - new_start) / (end - start)

    if not merged:
        return
    for e in host:
        start, end = before[id(e)]
        new_start = placed(start, e["ts"])
        new_end = placed(end, e["ts"] + e.get("dur", 0))
        e["ts"] = new_start
        if "dur" in e:
            e["dur"] = max(0, new_end - new_start)


def shift(events, at, by):
    """Everything from `at` on moves by `by`; host spans that hold `at` grow by it."""
    for e in events:
        if e["ts"] >= at:
            e["ts"] += by
        elif e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset") and e["ts"] + e.get("dur", 0) > at:
            e["dur"] = e.get("dur", 0) + by


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src")
    parser.add_argument("dst")
    parser.add_argument("--rank", type=int, required=True)
    parser.add_argument("--factor", type=float, default=1.5)
    args = parser.parse_args()

    names = sorted(n for n in os.listdir(args.src) if n.endswith((".json", ".json.gz")))
    traces = {}
    for name in names:
        trace = load(os.path.join(args.src, name))
        traces[trace["distributedInfo"]["rank"]] = (name, trace)
    ranks = sorted(traces)
    events = {r: timed(traces[r][1]) for r in ranks}

    def collectives(r):
        return sorted((e for e in events[r] if is_collective(e)), key=lambda e: e["ts"])

    recorded = {r: collectives(r) for r in ranks}
    count = min(len(c) for c in recorded.values())
    ref = ranks[0]
    offset = {r: statistics.median(recorded[r][i]["ts"] + recorded[r][i]["dur"] - recorded[ref][i]["ts"]
                                   - recorded[ref][i]["dur"] for i in range(count)) for r in ranks}
    old_arrival = [{r: recorded[r][i]["ts"] - offset[r] for r in ranks} for i in range(count)]
    old_last = [max(a.values()) for a in old_arrival]
    transfer = [{r: max(0.0, recorded[r][i]["ts"] + recorded[r][i]["dur"] - offset[r] - old_last[i]) for r in ranks}
                for i in range(count)]
    old_job_end = max(recorded[r][count - 1]["ts"] + recorded[r][count - 1]["dur"] - offset[r] for r in ranks)

    def job_end():
        """The latest end, over the ranks, of the last profiler step's events (those that start in it)."""
        ends = []
        for r in ranks:
            steps = [e for e in events[r] if e.get("name", "").startswith("ProfilerStep#")]
            inside = events[r]
            if steps:
                last = max(steps, key=lambda e: e["ts"])
                inside = [e for e in events[r] if last["ts"] <= e["ts"] < last["ts"] + last["dur"]] + [last]
            ends.append(max(e["ts"] + e.get("dur", 0) for e in inside) - offset[r])
        return max(ends)

    old_end = job_end()

    before = {r: {id(e): (e["ts"], e["ts"] + e.get("dur", 0)) for e in events[r]} for r in ranks}
    slow = events[args.rank]
    for kernel in sorted((e for e in slow if e.get("cat") == "kernel" and not is_collective(e)), key=lambda e: e["ts"]):
        extra = kernel["dur"] * (args.factor - 1)
        if isinstance(kernel["dur"], int):
            extra = round(extra)
        shift(slow, kernel["ts"] + kernel["dur"], extra)
        kernel["dur"] += extra

    added_wait = {r: 0.0 for r in ranks}
    for i in range(count):
        calls = {r: collectives(r)[i] for r in ranks}
        arrival = {r: calls[r]["ts"] - offset[r] for r in ranks}
        new_last = max(arrival.values())
        for r in ranks:
            kernel = calls[r]
            delta = new_last + transfer[i][r] - (kernel["ts"] + kernel["dur"] - offset[r])
            if isinstance(kernel["dur"], int):
                delta = round(delta)
            shift(events[r], kernel["ts"] + kernel["dur"], delta)
            kernel["dur"] += delta
            added_wait[r] += (new_last - arrival[r]) - (old_last[i] - old_arrival[i][r])
    for r in ranks:
        keep_host_order(events[r], before[r])
    new_job_end = max(collectives(r)[count - 1]["ts"] + collectives(r)[count - 1]["dur"] - offset[r] for r in ranks)
    added = new_job_end - old_job_end

    os.makedirs(args.dst, exist_ok=True)
    for r in ranks:
        name, trace = traces[r]
        save(os.path.join(args.dst, name), trace)
    print(f"rank {args.rank} slowed x{args.factor}: its last collective ends {added:.0f} us later on every rank")
    print(f"the job's last step (to its last rank's end) ends {job_end() - old_end:.0f} us later")
    for r in ranks:
        print(f"  rank {r}: added wait {added_wait[r]:+.0f} us")


if __name__ == "__main__":
    main()
