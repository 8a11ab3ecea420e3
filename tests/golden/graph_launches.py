#!/usr/bin/env python3
"""What each CUDA/HIP graph launch of two traces runs, read from the raw trace JSON (independent of
FusionDiff), to check the graph comparison on a pair where one side launches one graph and the
other a sequence of graph replays (CUDA graph trees, piecewise graphs).

Usage: graph_launches.py A B [--capture1 FILE] [--capture2 FILE]

For each trace it prints:
- every graph launch call (cudaGraphLaunch / hipGraphLaunch): its correlation id, host start and
  duration, the annotations and operators around it on the host, its kernels (they carry the
  call's correlation id), their GPU time (sum of durations) and span (first start to last end);
- the kernels outside graph launches;
- the blocking call (…Synchronize) that waits for each launch: when it returns later than the
  launch's last recorded kernel ends, with no kernel of the trace starting in between, the GPU
  was still running work of that launch that the trace does not record (the gap is printed);
- the whole run: from the first graph launch call to the last GPU work (or the wait's return).

Then it looks for the other side's repeated graph (the kind launched most often) inside each
long launch: the first two of the replay's first kernels that run more than once on this side
(Inductor's Triton kernels keep their names across vendors) mark where each replay's work begins; it prints the kernels and time
of the part before the first mark (the prefix) and of each part, and, for a launch that ran on
past its last recorded kernel, how many replays the unrecorded time holds at this side's speed.

With a capture trace (--capture1/--capture2, recorded while the graphs were captured) it names the
operator that launched each captured kernel; the capture traces in the shared collection
(graphs/capture/) are vLLM's and SGLang's: there is none for Pi0.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracefile import load_events  # noqa: E402

MARK_KERNELS = 2  # kernels of a replay's start that must recur, in order, to mark one on the other side
MARK_WINDOW = 16  # ... within this many kernels
MARK_SEARCH = 40  # ... chosen among the replay's first kernels


def ms(us):
    return f"{us / 1000:.2f} ms" if abs(us) >= 1000 else f"{us:.1f} us"


class Trace:
    def __init__(self, path):
        self.path = path
        events = load_events(path)
        xs = [e for e in events if e.get("ph") == "X" and "ts" in e]
        self.t0 = min(e["ts"] for e in xs)
        self.kernels = sorted((e for e in xs if e.get("cat") == "kernel"), key=lambda e: e["ts"])
        self.gpu = sorted((e for e in xs if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")),
                          key=lambda e: e["ts"])
        self.runtime = sorted((e for e in xs if e.get("cat") in ("cuda_runtime", "cuda_driver")),
                              key=lambda e: e["ts"])
        self.host = [e for e in xs if e.get("cat") in ("cpu_op", "user_annotation")]
        self.launches = [e for e in self.runtime if "GraphLaunch" in e["name"]]
        by_corr = collections.defaultdict(list)
        for k in self.kernels:
            by_corr[k.get("args", {}).get("correlation")].append(k)
        self.graph_kernels = {c["args"]["correlation"]: by_corr.get(c["args"]["correlation"], [])
                              for c in self.launches}
        graph_corrs = set(self.graph_kernels)
        self.eager = [k for k in self.kernels if k.get("args", {}).get("correlation") not in graph_corrs]

    def rel(self, ts):
        return ts - self.t0

    def around(self, call):
        """The host annotations and operators that enclose a call, outermost first."""
        inside = [e for e in self.host if e["ts"] <= call["ts"] and call["ts"] + call["dur"] <= e["ts"] + e["dur"]]
        inside.sort(key=lambda e: (e["ts"], -e["dur"]))
        return [e["name"] for e in inside]

    def wait_after(self, kernels):
        """The blocking call that waits for these kernels, and how long after their last end it returns."""
        end = max(k["ts"] + k["dur"] for k in kernels)
        for call in self.runtime:
            if "Synchronize" in call["name"] and call["ts"] <= end < call["ts"] + call["dur"]:
                returns = call["ts"] + call["dur"]
                later = [g for g in self.gpu if end <= g["ts"] < returns and g not in kernels]
                return call, returns - end, later
        return None, 0.0, []


def name_of(kernel):
    return kernel["name"]


def marks(kernels, replay_start):
    """Positions in `kernels` where the replay's first MARK_KERNELS names begin, in order."""
    wanted = replay_start[:MARK_KERNELS]
    names = [name_of(k) for k in kernels]
    found = []
    i = 0
    while i < len(names):
        if names[i] == wanted[0]:
            j, w = i + 1, 1
            while j < min(len(names), i + MARK_WINDOW) and w < len(wanted):
                w += names[j] == wanted[w]
                j += 1
            if w == len(wanted):
                found.append(i)
                i = j
                continue
        i += 1
    return found


def captured_ops(path):
    """Kernel name -> the operators that launched it while the graphs were captured."""
    events = load_events(path)
    xs = [e for e in events if e.get("ph") == "X"]
    ops = [e for e in xs if e.get("cat") == "cpu_op"]
    launches = [e for e in xs if e.get("cat") in ("cuda_runtime", "cuda_driver") and "Launch" in e["name"]]
    named = collections.defaultdict(collections.Counter)
    for call in launches:
        kernel = call.get("args", {}).get("kernel", "")
        inner = [o for o in ops if o["ts"] <= call["ts"] <= o["ts"] + o["dur"] and o.get("tid") == call.get("tid")]
        if kernel and inner:
            named[kernel][min(inner, key=lambda o: o["dur"])["name"]] += 1
    return named


def describe(label, trace, other, capture):
    print(f"== {label}: {os.path.basename(trace.path)}")
    print(f"   {len(trace.kernels)} kernels, {ms(sum(k['dur'] for k in trace.kernels))} of GPU kernel time; "
          f"{len(trace.launches)} graph launch calls; {len(trace.eager)} kernels outside them "
          f"({ms(sum(k['dur'] for k in trace.eager))})")
    names = collections.Counter(tuple(name_of(k) for k in ks) for ks in trace.graph_kernels.values() if ks)
    for n, call in enumerate(trace.launches, 1):
        corr = call["args"]["correlation"]
        ks = trace.graph_kernels[corr]
        kind = list(names).index(tuple(name_of(k) for k in ks)) + 1 if ks else 0
        line = (f"   launch {n:2}: correlation {corr}, call at {ms(trace.rel(call['ts']))} for {ms(call['dur'])}, "
                f"kind {kind}, {len(ks)} kernels")
        if ks:
            span = ks[-1]["ts"] + ks[-1]["dur"] - ks[0]["ts"]
            line += (f", GPU {ms(sum(k['dur'] for k in ks))} (span {ms(span)}, "
                     f"{ms(trace.rel(ks[0]['ts']))} to {ms(trace.rel(ks[-1]['ts'] + ks[-1]['dur']))})")
            wait, tail, later = trace.wait_after(ks)
            if wait is not None:
                line += f"; {wait['name']} returns {ms(tail)} after its last kernel"
                if later:
                    line += f" ({len(later)} GPU events of the trace start in between)"
        print(line)
        outer = [a for a in trace.around(call) if a.startswith("## Call") or a.startswith("Torch-Compiled")]
        if outer:
            print(f"             around it: {' > '.join(outer)}")
        if capture and ks:
            ops = collections.Counter()
            for k in ks:
                for op, c in capture.get(name_of(k), {}).items():
                    ops[op] += c
            if ops:
                print(f"             captured operators: {', '.join(f'{o} x{c}' for o, c in ops.most_common(5))}")
    first = min(trace.gpu, key=lambda g: g["ts"])
    last_end = max(g["ts"] + g["dur"] for g in trace.gpu)
    ends = [last_end]
    for call in trace.launches:
        ks = trace.graph_kernels[call["args"]["correlation"]]
        if ks:
            wait, tail, later = trace.wait_after(ks)
            if wait is not None and not later:
                ends.append(wait["ts"] + wait["dur"])
    launch0 = trace.launches[0]["ts"] if trace.launches else first["ts"]
    print(f"   whole run: first graph launch call at {ms(trace.rel(launch0))}, last recorded GPU work ends at "
          f"{ms(trace.rel(last_end))}, the GPU's last wait returns at {ms(trace.rel(max(ends)))}: "
          f"{ms(max(ends) - launch0)} from the first graph launch")

    find_replays(trace, other)


def find_replays(trace, other):
    """The other side's replayed graph (the kind it launches most often) inside this side's long launches."""
    kinds = collections.Counter(tuple(name_of(k) for k in ks) for ks in other.graph_kernels.values() if ks)
    if not kinds:
        return
    replay, count = kinds.most_common(1)[0]
    if count < 2:
        return
    replay_time = sorted(sum(k["dur"] for k in ks) for ks in other.graph_kernels.values()
                         if tuple(name_of(k) for k in ks) == replay)
    print(f"   the other trace replays a graph of {len(replay)} kernels {count} times "
          f"({ms(replay_time[len(replay_time) // 2])} each, median)")
    for n, call in enumerate(trace.launches, 1):
        ks = trace.graph_kernels[call["args"]["correlation"]]
        if len(ks) < 2 * len(replay) // 3 or tuple(name_of(k) for k in ks) == replay:
            continue
        # The replay's first kernels that this launch runs more than once (a name Inductor numbers
        # anew in each step, such as the time embedding's, recurs only once).
        here = collections.Counter(name_of(k) for k in ks)
        shared = [n for n in replay[:MARK_SEARCH] if here[n] >= 2]
        found = marks(ks, shared) if len(shared) >= MARK_KERNELS else []
        if not found:
            continue
        bounds = [0] + found + [len(ks)]
        parts = []
        for p in range(len(bounds) - 1):
            part = ks[bounds[p]:bounds[p + 1]]
            if part:
                parts.append((bounds[p] + 1, bounds[p + 1], len(part), part[-1]["ts"] + part[-1]["dur"] - part[0]["ts"],
                              sum(k["dur"] for k in part)))
        print(f"   launch {n}: the replay's first kernels that run here too ({', '.join(shared[:MARK_KERNELS])}) "
              f"recur at kernels {', '.join(str(f + 1) for f in found)}")
        for p, (first, last, kernels, span, busy) in enumerate(parts):
            what = "before the first replay (prefix)" if p == 0 else f"replay {p}"
            print(f"     kernels {first:4}-{last:4}: {kernels:4} kernels, GPU {ms(busy)} (span {ms(span)})  {what}")
        full = [span for (_, _, kernels, span, _) in parts[1:-1]]
        wait, tail, later = trace.wait_after(ks)
        if full and wait is not None and not later:
            per = sorted(full)[len(full) // 2]
            last_span = parts[-1][3]
            print(f"   the trace records {len(found) - 1} whole replays and {parts[-1][2]} kernels of one more "
                  f"({ms(last_span)} of {ms(per)}); {wait['name']} returns {ms(tail)} after the last recorded kernel: "
                  f"at {ms(per)} a replay that is {(last_span + tail) / per:.2f} more replays, "
                  f"{len(found) - 1 + (last_span + tail) / per:.2f} in all (the other trace: {count})")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--capture")]
    captures = {}
    for i, a in enumerate(argv):
        if a in ("--capture1", "--capture2"):
            captures[a[-1]] = captured_ops(argv[i + 1])
            args.remove(argv[i + 1])
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    a, b = Trace(args[0]), Trace(args[1])
    describe("A", a, b, captures.get("1"))
    print()
    describe("B", b, a, captures.get("2"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
