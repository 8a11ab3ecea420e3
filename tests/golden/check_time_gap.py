#!/usr/bin/env python3
"""Checks FusionDiff's time_gap section against the raw traces, independently of its code.

From the two traces it recomputes, per side: the GPU kernel time (the sum of kernel durations),
the GPU wall time (first kernel start to last kernel end), the time the GPU is busy (the union of
the kernel intervals) and so the overlap and idle parts, the time of the communication kernels
(by name), and the time of the kernels that have no launch in the trace (the "unattributed" part:
no runtime call with the kernel's correlation id inside a cpu_op or nn.Module on its thread, and no
cpu_op with its External id; graph kernels the graph comparison compared, and kernels launched
inside only a Python function whose calls were compared, are not in it, so there the script
checks a range). It then checks that the report's parts add up to its gap.

A graph launch whose trace stops recording its kernels (its last recorded kernel ends, a
…Synchronize call of its process that was already waiting returns at least 100 us and 5% of the
launch's kernel time later, and no other GPU work starts in between) ran on until that return: the
script counts that time as the "not recorded" part, in the kernel time (as kernels) and in the wall
time and busy time (as GPU work).

Usage: check_time_gap.py TRACE_A TRACE_B REPORT.json   (REPORT from fusiondiff-cli compare A B --json)
"""
import bisect
import collections
import json
import sys

from tracefile import load_events

COMMUNICATION = ("nccl", "rccl", "msccl", "cross_device_reduce", "multimem", "quickreduce", "custom_ar",
                 "allreduce", "all_reduce", "allgather", "all_gather", "reduce_scatter", "reducescatter",
                 "alltoall", "all_to_all", "deep_ep", "mori::", "epdispatch", "epcombine", "pplx",
                 "a2a_dispatch", "a2a_combine")


def side(path):
    events = load_events(path)
    kernels = [e for e in events if e.get("cat") in ("kernel", "Kernel") and "ts" in e and "name" in e]
    frames = [e for e in events if "ts" in e and (e.get("cat") in ("cpu_op", "Operator") or (
        e.get("cat") == "python_function" and str(e.get("name", "")).startswith("nn.Module: ")))]
    runtime = {}
    for e in events:
        if e.get("cat") in ("cuda_runtime", "cuda_driver", "Runtime") and "args" in e:
            runtime.setdefault(e["args"].get("correlation"), e)
    externals = {e["args"].get("External id") for e in frames if "args" in e and e.get("cat") != "python_function"}
    externals |= {e["args"].get("external id") for e in frames if "args" in e}
    externals -= {None, 0}
    def interval_index(spans):
        threads = collections.defaultdict(list)
        for f in spans:
            threads[(f.get("pid"), f.get("tid"))].append((float(f["ts"]), float(f["ts"]) + float(f.get("dur", 0))))
        index = {}
        for key, intervals in threads.items():
            intervals.sort()
            starts = [s for s, _ in intervals]
            reach, best = [], float("-inf")
            for _, end in intervals:
                best = max(best, end)
                reach.append(best)
            index[key] = (starts, reach)
        return index

    index = interval_index(frames)
    # Where a launch has no operator or module around it, FusionDiff takes the Python function
    # around it (if any) as its launcher.
    python_index = interval_index(e for e in events if e.get("cat") == "python_function" and "ts" in e)

    def enclosed(call, within=index):
        starts, reach = within.get((call.get("pid"), call.get("tid")), ([], []))
        i = bisect.bisect_right(starts, float(call["ts"])) - 1
        return i >= 0 and reach[i] >= float(call["ts"])

    def under_python(kernel):
        call = runtime.get(kernel.get("args", {}).get("correlation"))
        return call is not None and enclosed(call, python_index)

    def attributed(kernel):
        args = kernel.get("args", {})
        call = runtime.get(args.get("correlation"))
        if call is not None and (call["args"].get("External id") in externals or enclosed(call)):
            return True
        external = args.get("External id", args.get("external id"))
        return external not in (None, 0) and external in externals

    tails = not_recorded(events, kernels)
    total = sum(float(k.get("dur", 0)) for k in kernels) + sum(e - s for s, e in tails)
    intervals = sorted([(float(k["ts"]), float(k["ts"]) + max(0.0, float(k.get("dur", 0)))) for k in kernels] + tails)
    busy, start, end = 0.0, intervals[0][0], intervals[0][1]
    for s, e in intervals[1:]:
        if s > end:
            busy += end - start
            start, end = s, e
        else:
            end = max(end, e)
    busy += end - start
    span = max(e for _, e in intervals) - intervals[0][0]
    comm = [k for k in kernels if any(p in k["name"].lower() for p in COMMUNICATION)]
    comm_ids = {id(k) for k in comm}
    # Kernels of graph launches (two or more sharing a correlation id) without a launch count as
    # unattributed unless the graph comparison compared their graph, and kernels launched inside
    # only a Python function unless the comparison compared that function's calls: the report's
    # figure lies between the time without any of those kernels and the time with all of them.
    shared = collections.Counter(k.get("args", {}).get("correlation") for k in kernels)
    loose = [k for k in kernels if id(k) not in comm_ids and not attributed(k)]
    unattributed = (sum(float(k.get("dur", 0)) for k in loose
                        if shared[k.get("args", {}).get("correlation")] < 2 and not under_python(k)),
                    sum(float(k.get("dur", 0)) for k in loose))
    return {"gpu_kernel_time": total, "gpu_wall_time": span, "overlap": total - busy, "idle": span - busy,
            "collectives": sum(float(k.get("dur", 0)) for k in comm), "unattributed": unattributed,
            "not_recorded": sum(e - s for s, e in tails)}


def not_recorded(events, kernels):
    """The (start, end) of each graph launch's time after its last recorded kernel (see the top)."""
    calls = [e for e in events if e.get("ph") == "X" and "ts" in e and "dur" in e
             and e.get("cat") in ("cuda_runtime", "cuda_driver", "Runtime")]
    gpu = [e for e in events if e.get("ph") == "X" and "ts" in e
           and e.get("cat") in ("kernel", "Kernel", "gpu_memcpy", "gpu_memset")]
    by_correlation = collections.defaultdict(list)
    for k in kernels:
        by_correlation[k.get("args", {}).get("correlation")].append(k)
    tails = []
    for launch in (c for c in calls if "GraphLaunch" in c["name"]):
        own = by_correlation.get(launch.get("args", {}).get("correlation"), [])
        if not own:
            continue
        last = max(own, key=lambda k: float(k["ts"]) + float(k.get("dur", 0)))
        end = float(last["ts"]) + float(last.get("dur", 0))
        returns = max([float(c["ts"]) + float(c["dur"]) for c in calls if c.get("pid") == launch.get("pid")
                       and "Synchronize" in c["name"] and float(c["ts"]) <= end] + [end])
        if returns - end < max(100.0, 0.05 * sum(float(k.get("dur", 0)) for k in own)):
            continue
        correlation = launch["args"]["correlation"]
        if any(end <= float(e["ts"]) < returns and e.get("args", {}).get("device") == last.get("args", {}).get("device")
               and not (e.get("cat") in ("kernel", "Kernel") and e.get("args", {}).get("correlation") == correlation)
               for e in gpu):
            continue
        tails.append((end, returns))
    return tails


def main():
    a, b = side(sys.argv[1]), side(sys.argv[2])
    report = json.load(open(sys.argv[3]))["time_gap"]
    ok = True

    def check(name, ours, theirs, tolerance=0.01):
        nonlocal ok
        if isinstance(theirs, tuple):  # a range
            good = theirs[0] - tolerance <= ours <= theirs[1] + tolerance
            shown = f"{theirs[0]:.3f} to {theirs[1]:.3f}"
        else:
            good = abs(ours - theirs) <= tolerance
            shown = f"{theirs:.3f}"
        ok &= good
        print(f"  {name:34} fusiondiff {ours:14.3f}  raw trace {shown:>14}  {'ok' if good else 'DIFFERS'}")

    for breakdown in (report.get("kernel_time", report), report.get("wall_time")):  # the headline may be step_time
        if not breakdown:
            continue
        basis = breakdown["basis"]
        parts = {p["cause"]: p for p in breakdown["parts"]}
        print(f"{basis}: A - B = {breakdown['delta_us']:.3f} us, residual {parts['residual']['delta_us']:.2e} us")
        check("trace1 time", breakdown["trace1_time_us"], a[basis])
        check("trace2 time", breakdown["trace2_time_us"], b[basis])
        check("sum of the parts' delta_us", sum(p["delta_us"] for p in breakdown["parts"]), breakdown["delta_us"],
              1e-6)
        for cause in ("collectives", "unattributed", "overlap", "idle", "not_recorded"):
            if cause in ("overlap", "idle") and basis == "gpu_kernel_time":
                continue
            part = parts.get(cause, {"trace1_time_us": 0.0, "trace2_time_us": 0.0})
            check(cause + " trace1", part["trace1_time_us"], a[cause])
            check(cause + " trace2", part["trace2_time_us"], b[cause])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
