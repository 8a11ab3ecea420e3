#!/usr/bin/env python3
"""Lists, straight from a raw trace, the kernels launched inside each call of one PyTorch operator:
kernel -> runtime call with the same correlation id -> the cpu_op with the runtime call's External
id -> the outermost cpu_op around it on the same thread. An independent check of FusionDiff's
operation findings (docs/findings-examples.md).

Usage: inspect_op.py TRACE OPERATOR [--calls N]
"""
import argparse
import collections

from tracefile import load_events


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("operator")
    parser.add_argument("--calls", type=int, default=3, help="calls to print in full")
    args = parser.parse_args()
    events = load_events(args.trace)
    ops = [e for e in events if e.get("cat") in ("cpu_op", "Operator")]
    runtime = {e["args"].get("correlation"): e for e in events
               if e.get("cat") in ("cuda_runtime", "cuda_driver", "Runtime") and "args" in e}
    by_external = {o["args"].get("External id"): o for o in ops if "args" in o}
    threads = collections.defaultdict(list)
    for o in ops:
        threads[(o["pid"], o["tid"])].append(o)

    def outermost(op):
        # The outermost operator on the same thread whose interval contains this one.
        best = op
        for other in threads[(op["pid"], op["tid"])]:
            if other["ts"] <= op["ts"] and other["ts"] + other["dur"] >= op["ts"] + op["dur"]:
                if other["dur"] > best["dur"]:
                    best = other
        return best

    calls = collections.OrderedDict()
    for kernel in sorted((e for e in events if e.get("cat") in ("kernel", "Kernel")), key=lambda k: k["ts"]):
        call = runtime.get(kernel.get("args", {}).get("correlation"))
        launcher = by_external.get(call["args"].get("External id")) if call else None
        if not launcher:
            continue
        top = outermost(launcher)
        if top["name"] != args.operator:
            continue
        calls.setdefault(id(top), (top, []))[1].append(kernel)
    patterns = collections.Counter(tuple(k["name"] for k in kernels) for _, kernels in calls.values())
    print(f"{args.operator}: {len(calls)} calls in {args.trace}")
    for pattern, count in patterns.most_common():
        print(f"  {count} calls launch {len(pattern)} kernels (time over those calls):")
        for position, name in enumerate(pattern):
            time = sum(kernels[position].get("dur", 0) for _, kernels in calls.values()
                       if tuple(k["name"] for k in kernels) == pattern)
            print(f"    {time:12.3f} us  {name[:150]}")
    for top, kernels in list(calls.values())[:args.calls]:
        total = sum(k.get("dur", 0) for k in kernels)
        print(f"  call at ts {top['ts']}: {len(kernels)} kernels, {total:.3f} us")


if __name__ == "__main__":
    main()
