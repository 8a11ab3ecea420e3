#!/usr/bin/env python3
"""Runs a command and prints its resident memory over time: VmRSS and the thread count, sampled
from /proc every 2 ms, a line each time either moved (RSS by 8 MiB or more), the peak marked.

    bench/rsstimeline.py build/test/app/cli/fusiondiff-cli compare A.json B.json --json /dev/null --quiet

Threads tell the phases apart: the loading threads are alive while the traces are read; after them
the main thread runs the analysis alone. cpu= is the process's user + system seconds so far.
"""
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    start = time.time()
    samples = []
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as status:
                fields = {line.split(":")[0]: line.split(":")[1].strip() for line in status}
            with open(f"/proc/{process.pid}/stat") as stat:
                times = stat.read().split(")")[-1].split()
            cpu = (int(times[11]) + int(times[12])) / 100.0
            samples.append((time.time() - start, int(fields["VmRSS"].split()[0]) // 1024, int(fields["Threads"]), cpu))
        except (OSError, KeyError, IndexError, ValueError):
            pass  # the process ended between two reads
        time.sleep(0.002)
    errors = process.stderr.read().decode()
    peak = max(samples, key=lambda s: s[1]) if samples else None
    last = None
    for sample in samples:
        if last is None or abs(sample[1] - last[1]) >= 8 or sample[2] != last[2] or sample is peak:
            mark = "  <- peak" if sample is peak else ""
            print(f"t={sample[0]:6.2f}s cpu={sample[3]:5.2f} rss={sample[1]:5d}MiB threads={sample[2]}{mark}")
            last = sample
    print("exit", process.returncode, errors[-300:])
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
