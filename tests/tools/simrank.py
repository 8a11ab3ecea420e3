#!/usr/bin/env python3
"""Makes a perturbed copy of a multi-rank run by re-timing every rank from causality, not by
shifting events: the input for scoring the job comparison on constructions it was not built on.

    simrank.py SRC_DIR DST_DIR --rank K --perturb compute|stall|link|extra|none [--factor F]
               [--stall-ms D] [--stall-op NAME] [--extra-kernel NAME]

Perturbations of rank K: `compute` (its kernels other than the collectives' run F times as
long), `stall` (the host thread is held D ms at the end of the first CPU op named NAME in the
step), `link` (its collectives' transfer takes F times as long, which holds up every rank of
the collective), `extra` (one more kernel a step: a copy of the kernel NAME, or of the longest
compute kernel, launched right after it on the same stream); `none` re-times without a
perturbation, which reproduces the run exactly (the model's self-check).

The model, built from what the trace records (no knowledge of the analysis):
- GPU: an op starts at the latest of its launch (launch call start + the launch offset seen
  when the launch was what it waited for; the rank's median offset otherwise), the previous op
  on its stream, and the ops on other streams it depends on. A cross-stream dependency is
  either seen (the op waited for neither launch nor stream and started as an op of another
  stream ended) or possible (a cudaStreamWaitEvent before the launch on the same host thread:
  the op may wait for every other stream's op launched before it) and not ruled out by the
  recorded times (the op did not start before that op ended).
- Collectives (nccl/rccl kernels, the n-th of each rank together): a rank arrives when its
  kernel starts; every rank's kernel ends at the last arrival plus its own transfer time (its
  recorded end minus the recorded last arrival), the ranks' clocks taken as recorded.
- Host: a thread's events keep their durations and move by the delay accumulated so far.
  Blocking calls (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize, cudaMemcpy
  and a DtoH memcpy to pageable memory) end when the GPU work they wait for ends (plus the time
  they took after it); a thread that resumes after 100 us idle takes on the other threads'
  delay (it was woken by them, e.g. the main thread after the autograd thread's backward).
  Enclosing CPU ops grow by the delay accrued inside them.
Prints the job's end before and after and the constructed gap (latest step end over the ranks).
"""
import argparse
import bisect
import copy
import gzip
import json
import os
import statistics

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset")
BLOCKING_STREAM = ("cudaStreamSynchronize", "hipStreamSynchronize", "cudaEventSynchronize", "hipEventSynchronize")
BLOCKING_DEVICE = ("cudaDeviceSynchronize", "hipDeviceSynchronize")
LAUNCH_BOUND_US = 10
STREAM_BOUND_US = 10
RESUME_GAP_US = 100


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        return json.load(f)


def save(path, trace):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt") as f:
        json.dump(trace, f)


def is_collective(e):
    return e.get("cat") in GPU_CATS and e.get("name", "").lower().startswith(("nccl", "rccl"))


def correlation(e):
    return e.get("args", {}).get("correlation")


class Rank:
    """One rank's causal model: its GPU ops, host threads and the edges between them."""

    def __init__(self, trace):
        self.trace = trace
        self.events = [e for e in trace["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X"]
        self.gpu = sorted((e for e in self.events if e.get("cat") in GPU_CATS), key=lambda e: (e["ts"], e["dur"]))
        self.host = [e for e in self.events if e.get("cat") not in GPU_CATS and isinstance(e.get("tid"), int)
                     and isinstance(e.get("pid"), int)]
        self.runtime = {correlation(e): e for e in self.host if e.get("cat") in ("cuda_runtime", "Runtime")
                        and correlation(e) is not None}
        self.collectives = [e for e in self.gpu if is_collective(e)]
        self._link()

    def _link(self):
        launch_of = {}
        for op in self.gpu:
            call = self.runtime.get(correlation(op))
            if call is not None:
                launch_of[id(op)] = call
        self.launch_of = launch_of
        by_stream = {}
        for op in self.gpu:
            by_stream.setdefault((op["pid"], op["tid"]), []).append(op)
        self.prev = {}
        for ops in by_stream.values():
            for a, b in zip(ops, ops[1:]):
                self.prev[id(b)] = a
        offsets = [op["ts"] - launch_of[id(op)]["ts"] for op in self.gpu if id(op) in launch_of
                   and op["ts"] - launch_of[id(op)]["ts"] - launch_of[id(op)]["dur"] <= LAUNCH_BOUND_US]
        median_offset = statistics.median(offsets) if offsets else 5
        ends = sorted(((op["ts"] + op["dur"], i) for i, op in enumerate(self.gpu)))
        end_times = [t for t, _ in ends]
        self.offset, self.gap, self.deps = {}, {}, {}
        for op in self.gpu:
            call = launch_of.get(id(op))
            prev = self.prev.get(id(op))
            waited_launch = call is not None and op["ts"] - call["ts"] - call["dur"] <= LAUNCH_BOUND_US
            prev_gap = op["ts"] - (prev["ts"] + prev["dur"]) if prev else None
            waited_stream = prev_gap is not None and prev_gap <= STREAM_BOUND_US
            self.gap[id(op)] = max(0, min(prev_gap, 1)) if prev_gap is not None and not waited_stream else \
                max(0, prev_gap or 0)
            self.offset[id(op)] = (op["ts"] - call["ts"]) if waited_launch else median_offset
            self.deps[id(op)] = []
            if call is not None and not waited_launch and not waited_stream:
                # waited for something else: the op of another stream that ended as it started
                k = bisect.bisect_right(end_times, op["ts"] + 2) - 1
                while k >= 0 and end_times[k] >= op["ts"] - STREAM_BOUND_US:
                    other = self.gpu[ends[k][1]]
                    if (other["pid"], other["tid"]) != (op["pid"], op["tid"]) and other["pid"] == op["pid"]:
                        self.deps[id(op)].append((other, max(0, op["ts"] - end_times[k])))
                        break
                    k -= 1
                if not self.deps[id(op)]:
                    self.offset[id(op)] = op["ts"] - call["ts"]  # an unknown wait, kept as recorded
        self._stream_waits(by_stream)

    def _stream_waits(self, by_stream):
        """cudaStreamWaitEvent then a launch on the same thread: possible waits on other streams."""
        threads = {}
        for e in self.host:
            if e.get("cat") in ("cuda_runtime", "Runtime"):
                threads.setdefault(e["tid"], []).append(e)
        op_of_call = {id(c): op for op in self.gpu for c in [self.launch_of.get(id(op))] if c is not None}
        launched = sorted((self.launch_of[id(op)]["ts"], id(op), op) for op in self.gpu if id(op) in self.launch_of)
        launch_times = [t for t, _, _ in launched]
        for calls in threads.values():
            calls.sort(key=lambda e: e["ts"])
            pending = None
            for c in calls:
                if "StreamWaitEvent" in c["name"]:
                    pending = pending or c
                    continue
                op = op_of_call.get(id(c))
                if op is None or pending is None:
                    continue
                last_on = {}
                for t, _, other in launched[:bisect.bisect_left(launch_times, pending["ts"])]:
                    if other["pid"] == op["pid"] and other["tid"] != op["tid"]:
                        last_on[other["tid"]] = other
                for other in last_on.values():
                    if op["ts"] >= other["ts"] + other["dur"] - 1:
                        self.deps[id(op)].append((other, 0))
                pending = None


def awaited_ops(rank, call, launched_before):
    """The GPU ops a blocking host call waits for (empty for a call that does not block)."""
    name = call["name"]
    if name in BLOCKING_DEVICE:
        return [op for op in launched_before if op["pid"] == launched_before[-1]["pid"]] if launched_before else []
    if name in BLOCKING_STREAM:
        if not launched_before:
            return []
        # the stream whose last op ended closest before the call returned; else the last launch's
        last = {}
        for op in launched_before:
            last[(op["pid"], op["tid"])] = op
        fitting = [op for op in last.values() if op["ts"] + op["dur"] <= call["ts"] + call["dur"] + 10]
        best = max(fitting, key=lambda op: op["ts"] + op["dur"]) if fitting else launched_before[-1]
        return [best]
    if "Memcpy" in name:
        op = next((o for o in rank.gpu if correlation(o) == correlation(call)), None)
        if op is not None and ("Async" not in name or ("DtoH" in op["name"] and "Pageable" in op["name"])):
            return [op]
    return []


def retime(rank, collective_end, perturb):
    """New (start, end) of every GPU op and the host shift points, given the collectives' ends."""
    new = {}
    shifts = {}  # tid -> list of (old time, shift)
    current = {}
    host_calls = sorted((e for e in rank.host if e.get("cat") in ("cuda_runtime", "Runtime")),
                        key=lambda e: e["ts"])
    launched = sorted((rank.launch_of[id(op)]["ts"], id(op), op) for op in rank.gpu if id(op) in rank.launch_of)
    launch_times = [t for t, _, _ in launched]
    nodes = []
    for c in host_calls:
        nodes.append((c["ts"], 0, id(c), "start", c))
        before = [op for _, _, op in launched[:bisect.bisect_left(launch_times, c["ts"] + 0.5)]]
        waits = awaited_ops(rank, c, before)
        if waits:
            key = max(c["ts"] + c["dur"], max(op["ts"] for op in waits) + 0.5)
            nodes.append((key, 2, id(c), "end", (c, waits)))
    for op in rank.gpu:
        nodes.append((op["ts"], 1, id(op), "gpu", op))
    for tid, t in resume_points(rank):
        nodes.append((t, -1, t, "resume", tid))
    for tid, t, d in perturb.get("host_delays", []):
        nodes.append((t, -2, t, "delay", (tid, d)))
    nodes.sort(key=lambda n: (n[0], n[1], n[2]))
    new_call = {}
    extra = perturb.get("extra_after")

    def set_shift(tid, t, s):
        current[tid] = s
        shifts.setdefault(tid, []).append((t, s))

    for key, _, _, kind, item in nodes:
        if kind == "start":
            s = current.get(item["tid"], 0)
            new_call[id(item)] = item["ts"] + s
            if extra is not None and rank.launch_of.get(id(extra)) is item:
                set_shift(item["tid"], item["ts"] + item["dur"], s + item["dur"])
        elif kind == "end":
            c, waits = item
            s = current.get(c["tid"], 0)
            start = c["ts"] + s
            old_done = max(op["ts"] + op["dur"] for op in waits)
            new_done = max(new[id(op)][1] for op in waits)
            end = max(start, new_done) + max(0, c["ts"] + c["dur"] - max(c["ts"], old_done))
            set_shift(c["tid"], c["ts"] + c["dur"], end - (c["ts"] + c["dur"]))
        elif kind == "resume":
            s = max(current.values(), default=0)
            if s > current.get(item, 0):
                set_shift(item, key, s)
        elif kind == "delay":
            tid, d = item
            set_shift(tid, key, current.get(tid, 0) + d)
        else:
            op = item
            ready = []
            call = rank.launch_of.get(id(op))
            if call is not None:
                ready.append(new_call[id(call)] + rank.offset[id(op)])
            prev = rank.prev.get(id(op))
            if prev is not None:
                ready.append(new[id(prev)][1] + rank.gap[id(op)])
            for dep, gap in rank.deps[id(op)]:
                ready.append(new[id(dep)][1] + gap)
            start = max(ready) if ready else op["ts"]
            if is_collective(op):
                end = collective_end.get(id(op), start + op["dur"])
                end = max(end, start)
            else:
                end = start + op["dur"] * perturb.get("compute", {}).get(id(op), 1)
            if extra is not None and extra is op:
                # the copy runs right after it on the same stream; later ops queue behind it
                end = end + rank.gap.get(id(op), 1) + op["dur"]
            new[id(op)] = (start, end)
    return new, shifts


def resume_points(rank):
    """(thread, old time) where a host thread starts again after RESUME_GAP_US without events."""
    points = []
    threads = {}
    for e in rank.host:
        threads.setdefault(e["tid"], []).append(e)
    for tid, events in threads.items():
        events.sort(key=lambda e: e["ts"])
        ends = sorted(e["ts"] + e["dur"] for e in events)
        for e in events:
            k = bisect.bisect_right(ends, e["ts"])
            last_end = ends[k - 1] if k else None
            if last_end is not None and e["ts"] - last_end >= RESUME_GAP_US:
                points.append((tid, e["ts"]))
    return sorted(set(points))


def shift_at(points, t):
    k = bisect.bisect_right([p for p, _ in points], t) - 1
    return points[k][1] if k >= 0 else 0


def apply(rank, new, shifts, perturb):
    """Writes the new times into the rank's events (flows and spans follow what they belong to)."""
    old_ts = {}
    extra = perturb.get("extra_after")
    clones = []
    for e in rank.events:
        old_ts[id(e)] = e["ts"]
    for e in rank.gpu:
        start, end = new[id(e)]
        if extra is e:
            clone = copy.deepcopy(e)
            clones.append((e, clone, end - e["dur"], end))
            end = start + e["dur"]
        put(e, start, end)
    extra_call = rank.launch_of.get(id(extra)) if extra is not None else None
    for e in rank.host:
        points = shifts.get(e["tid"], [])
        start = e["ts"] + shift_at(points, e["ts"])
        # the extra launch follows this call: the delay it adds starts at the call's end, not inside it
        end = start + e["dur"] if e is extra_call else e["ts"] + e["dur"] + shift_at(points, e["ts"] + e["dur"])
        put(e, start, end)
    moved = {}
    for e in rank.events:
        moved.setdefault((e.get("pid"), e.get("tid"), old_ts[id(e)]), e["ts"])
    for e in rank.trace["traceEvents"]:
        if isinstance(e, dict) and e.get("ph") in ("s", "f", "t") and "ts" in e:
            e["ts"] = moved.get((e.get("pid"), e.get("tid"), e["ts"]), e["ts"])
    for op, clone, start, end in clones:
        call = rank.launch_of.get(id(op))
        new_id = max(correlation(e) or 0 for e in rank.events) + 1
        clone["args"]["correlation"] = new_id
        put(clone, start, end)
        rank.trace["traceEvents"].append(clone)
        if call is not None:
            call_clone = copy.deepcopy(call)
            call_clone["args"]["correlation"] = new_id
            put(call_clone, call["ts"] + call["dur"], call["ts"] + 2 * call["dur"])
            rank.trace["traceEvents"].append(call_clone)
    spans = [e for e in rank.trace["traceEvents"] if isinstance(e, dict) and e.get("cat") == "Trace"]
    last = max(e["ts"] + e.get("dur", 0) for e in rank.events)
    for s in spans:
        s["dur"] = max(s["dur"], last - s["ts"])


def put(e, start, end):
    if isinstance(e["ts"], int):
        start, end = round(start), round(end)
    e["ts"], e["dur"] = start, max(0, end - start)


def step_end(rank_events):
    steps = [e for e in rank_events if e.get("name", "").startswith("ProfilerStep#")]
    if not steps:
        return max(e["ts"] + e["dur"] for e in rank_events)
    last = max(steps, key=lambda e: e["ts"])
    inside = [e for e in rank_events if last["ts"] <= e["ts"] < last["ts"] + last["dur"]]
    return max(e["ts"] + e["dur"] for e in inside + [last])


def construct(ranks, args):
    perturb = {}
    target = ranks[args.rank]
    if args.perturb == "compute":
        perturb["compute"] = {id(op): args.factor for op in target.gpu
                              if op.get("cat") in ("kernel", "Kernel") and not is_collective(op)}
    elif args.perturb == "stall":
        op = next(e for e in sorted(target.host, key=lambda e: e["ts"]) if e.get("name") == args.stall_op)
        perturb["host_delays"] = [(op["tid"], op["ts"] + op["dur"], args.stall_ms * 1000)]
    elif args.perturb == "extra":
        kernels = [op for op in target.gpu if op.get("cat") in ("kernel", "Kernel") and not is_collective(op)
                   and id(op) in target.launch_of]
        named = [op for op in kernels if args.extra_kernel and args.extra_kernel in op["name"]]
        perturb["extra_after"] = (named or sorted(kernels, key=lambda op: -op["dur"]))[0]
    count = min(len(r.collectives) for r in ranks.values())
    old_last = [max(r.collectives[i]["ts"] for r in ranks.values()) for i in range(count)]
    transfer = {k: [max(0, r.collectives[i]["ts"] + r.collectives[i]["dur"] - old_last[i]) for i in range(count)]
                for k, r in ranks.items()}
    slow_link = [transfer[args.rank][i] * (args.factor - 1) if args.perturb == "link" else 0 for i in range(count)]
    ends = {k: {} for k in ranks}
    for _ in range(4 * count + 4):
        results = {k: retime(r, ends[k], perturb if k == args.rank else {}) for k, r in ranks.items()}
        arrival = [max(results[k][0][id(r.collectives[i])][0] for k, r in ranks.items()) for i in range(count)]
        updated = {k: {id(r.collectives[i]): arrival[i] + transfer[k][i] + slow_link[i] for i in range(count)}
                   for k, r in ranks.items()}
        if updated == ends:
            break
        ends = updated
    return results, perturb


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src")
    parser.add_argument("dst")
    parser.add_argument("--rank", type=int, required=True)
    parser.add_argument("--perturb", choices=("compute", "stall", "link", "extra", "none"), required=True)
    parser.add_argument("--factor", type=float, default=1.5)
    parser.add_argument("--stall-ms", type=float, default=2.0)
    parser.add_argument("--stall-op", default="aten::index")
    parser.add_argument("--extra-kernel", default="")
    args = parser.parse_args()
    names = sorted(n for n in os.listdir(args.src) if n.endswith((".json", ".json.gz")))
    traces = {}
    for name in names:
        trace = load(os.path.join(args.src, name))
        traces[trace["distributedInfo"]["rank"]] = (name, trace)
    ranks = {k: Rank(t) for k, (_, t) in traces.items()}
    old_end = max(step_end(r.events) for r in ranks.values())
    results, perturb = construct(ranks, args)
    for k, r in ranks.items():
        new, shifts = results[k]
        apply(r, new, shifts, perturb if k == args.rank else {})
    new_end = max(step_end(r.events) for r in ranks.values())
    os.makedirs(args.dst, exist_ok=True)
    for k, (name, trace) in traces.items():
        save(os.path.join(args.dst, name), trace)
    size = f"{args.stall_ms} ms" if args.perturb == "stall" else f"x{args.factor}"
    print(f"rank {args.rank} {args.perturb} {size}: the job's last step ends {new_end - old_end:.0f} us later "
          f"({old_end:.0f} -> {new_end:.0f})")


if __name__ == "__main__":
    main()
