#!/usr/bin/env python3
"""Scores the job comparison on a real multi-rank run against copies of it with one rank slowed
(tests/tools/slowrank.py), the copy as B and as A: the issue's four acceptance checks, as
tests/tools/rankscore does on constructed runs.

    rankscore_real.py CLI RUN_DIR [--ranks 0,2,5,7] [--factors 1.5,5]

A row passes when the slower job is slower by the time slowrank.py says the straggler added to
the job's end (within 10%), the first entry of "where to look first" is a straggler entry for the slowed
rank on the slower side with its kernels in its cause (no straggler entry in the first two where the
other ranks' lateness hides the slowed rank whole), the other entries that explain the gap add up
to no more than the job lost (within 10% and 5 us: the slowed rank's growth that its shorter waits
absorbed is no job time), each other rank's added wait is within 30% of slowrank.py's, and each
rank's transfer is unchanged (within 5 us). A row also fails on a fusion finding (a slowed rank
runs the same kernels) or a note that a rank runs another phase (slowing changes no calls).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def compare(cli, a, b):
    out = subprocess.run([cli, "compare", a, b, "--json", "-", "--quiet"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def score(report, slow, rank, added, waits):
    job = report["job"]
    sides = ["trace1", "trace2"]
    fast = 1 - slow
    failures = []
    measured = job[sides[slow]]["time_us"] - job[sides[fast]]["time_us"]
    if abs(measured - added) > 0.1 * added:
        failures.append(f"job {measured:.0f} us slower, added {added:.0f}")
    entry = False
    first = report["where_to_look_first"][:2]
    if added < 1:  # the other ranks' lateness hides the slowed rank whole: nothing to find
        entry = not any(e["kind"] == "straggler" for e in first)
    else:
        e = first[0] if first else {}
        if e.get("kind") == "straggler" and e.get("straggler_rank") == rank and e["slower_trace"] == sides[slow]:
            entry = any(" kernels +" in d for d in e["details"])
    if not entry:
        failures.append("first two: " + " | ".join(f"{e['kind']} {e['stake_us']:.0f} us {e['title'][:70]}"
                                                   for e in report["where_to_look_first"][:2]))
    explaining = sum(e["stake_us"] for e in report["where_to_look_first"]
                     if e["kind"] != "straggler" and e["group"] == "explains_gap")
    if explaining > 1.1 * max(added, 0) + 5:
        failures.append(f"the entries add up to {explaining:.0f} us, the job lost {added:.0f}")
    fusions = [e["title"][:60] for e in report["where_to_look_first"] if e["kind"] == "fusion"]
    if fusions:
        failures.append("fusion findings: " + " | ".join(fusions))
    phases = [n for n in job.get("notes", []) if "another phase" in n]
    if phases:
        failures.append(phases[0][:80])
    for row in job["rank_times"]:
        r = row["trace1_rank"]
        got = row[f"{sides[slow]}_collective_wait_us"] - row[f"{sides[fast]}_collective_wait_us"]
        want = waits[r]
        if abs(got - want) > max(0.3 * abs(want), 10):
            failures.append(f"rank {r} added wait {got:.0f}, slowrank {want:.0f}")
        if abs(row["trace1_collective_transfer_us"] - row["trace2_collective_transfer_us"]) > 5:
            failures.append(f"rank {r} transfer changed")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument("run")
    parser.add_argument("--ranks", default="0,2,5,7")
    parser.add_argument("--factors", default="1.5,5")
    args = parser.parse_args()
    passed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rank in (int(r) for r in args.ranks.split(",")):
            for factor in (float(f) for f in args.factors.split(",")):
                copy = os.path.join(tmp, f"rank{rank}_x{factor}")
                out = subprocess.run([sys.executable, os.path.join(HERE, "slowrank.py"), args.run, copy, "--rank",
                                      str(rank), "--factor", str(factor)], check=True, capture_output=True,
                                     text=True).stdout
                added = float(re.search(r"the job.s last step .* ends (-?[\d.]+) us later", out).group(1))
                waits = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"rank (\d+): added wait ([-+\d.]+)", out)}
                for slow in (1, 0):
                    a, b = (args.run, copy) if slow == 1 else (copy, args.run)
                    failures = score(compare(args.cli, a, b), slow, rank, added, waits)
                    total += 1
                    passed += not failures
                    side = "B" if slow == 1 else "A"
                    print(f"rank {rank} x{factor} in {side}: added {added:.0f} us: " + ("ok" if not failures else
                                                                                         "; ".join(failures)))
    print(f"{passed} of {total} pass")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
