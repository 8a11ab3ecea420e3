#!/usr/bin/env python3
"""How many cores a process kept busy over time, thread by thread, from a perf profile.

    perf record -e task-clock -F 999 -o perf.data -- \\
        build/test/app/cli/fusiondiff-cli compare A.json B.json --json /dev/null --quiet
    bench/threadtimeline.py perf.data --freq 999 [--bucket-ms 20]

Prints a row per bucket of time: the samples of each thread (in the order the threads first ran)
and the cores they add up to. Record with `-e task-clock`: on this project's virtual machines the
default cpu-clock event put the samples of threads that ran at the same time on one of them.
Needs perf.
"""
import argparse
import collections
import subprocess


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("perf_data")
    arguments.add_argument("--freq", type=float, required=True, help="perf record's -F")
    arguments.add_argument("--bucket-ms", type=float, default=20.0)
    options = arguments.parse_args()

    script = subprocess.run(["perf", "script", "-i", options.perf_data, "-F", "tid,time"],
                            capture_output=True, text=True, check=True).stdout
    counts = collections.Counter()
    threads = []
    start = None
    last = 0
    for line in script.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        tid, time = int(fields[0]), float(fields[1].rstrip(":"))
        start = time if start is None else start
        bucket = int((time - start) * 1000 / options.bucket_ms)
        counts[bucket, tid] += 1
        last = max(last, bucket)
        if tid not in threads:
            threads.append(tid)
    per_bucket = options.freq * options.bucket_ms / 1000  # samples of one busy thread in a bucket
    print("ms      " + " ".join(f"{i + 1:>4}" for i in range(len(threads))) + " | cores")
    for bucket in range(last + 1):
        row = [counts[bucket, tid] for tid in threads]
        print(f"{bucket * options.bucket_ms:6.0f}  " + " ".join(f"{n:>4}" for n in row)
              + f" | {sum(row) / per_bucket:.2f}")
    print("threads: " + ", ".join(f"{i + 1} = {tid}" for i, tid in enumerate(threads)))


if __name__ == "__main__":
    main()
