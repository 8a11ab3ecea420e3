#!/usr/bin/env python3
"""The main thread's CPU time by function, from a perf profile with call graphs: for each function
under analyzeFusion (or under the names given), the seconds of samples that have it on their stack.

    perf record --call-graph dwarf,32768 -F 499 -o perf.data -- \\
        build/test/app/cli/fusiondiff-cli compare A.json B.json --json /dev/null --quiet
    bench/perfmain.py perf.data --freq 499                  # the callees of analyzeFusion
    bench/perfmain.py perf.data --freq 499 stepPartsOf innermostTimeline attributeKernels
    bench/perfmain.py perf.data --freq 499 --under compareOperations   # the callees of another function

The main thread is the one with the smallest thread id. Needs perf.
"""
import argparse
import collections
import re
import subprocess


def samples(path):
    script = subprocess.run(["perf", "script", "-i", path, "-F", "tid,ip,sym"], capture_output=True, text=True).stdout
    tid, frames = None, []
    for line in script.splitlines() + [""]:
        if not line.strip():
            if tid is not None:
                yield tid, frames
            tid, frames = None, []
        elif not line.startswith("\t"):  # a sample's header: its thread id, right-aligned
            tid = int(line.split()[0])
        else:
            parts = line.strip().split(" ", 1)
            frames.append(re.sub(r"\+0x[0-9a-f]+$", "", parts[1] if len(parts) > 1 else parts[0]))


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("perf_data")
    arguments.add_argument("--freq", type=float, required=True, help="perf record's -F")
    arguments.add_argument("--under", default="analyzeFusion", help="list the callees of this function (default analyzeFusion)")
    arguments.add_argument("functions", nargs="*")
    options = arguments.parse_intermixed_args()
    all_samples = list(samples(options.perf_data))
    main_tid = min(tid for tid, _ in all_samples)
    seconds = collections.Counter()
    total = 0
    for tid, frames in all_samples:
        if tid != main_tid:
            continue
        total += 1
        if options.functions:
            for name in {n for n in options.functions if any(n in frame for frame in frames)}:
                seconds[name] += 1
            continue
        outermost_first = [re.sub(r"\(.*", "", frame) for frame in reversed(frames)]
        for i, frame in enumerate(outermost_first):
            if frame.endswith(options.under) and i + 1 < len(outermost_first):
                seconds[outermost_first[i + 1]] += 1
                break
    print(f"main thread: {total / options.freq:.3f} s")
    for name, count in seconds.most_common(30):
        print(f"{count / options.freq:7.3f} s  {name}")


if __name__ == "__main__":
    main()
