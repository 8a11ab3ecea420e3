#!/usr/bin/env python3
"""Scores the job comparison on runs re-timed from causality (tests/tools/simrank.py): the original
run as A, the perturbed one as B, one row per perturbation x rank x factor.

    simscore.py CLI RUN_DIR [--ranks 0,2,5,7] [--cases compute:1.5,compute:3,stall:2,link:3,extra:1]

Checks (a column each; "-" where it does not apply):
  named  the perturbed rank is a straggler entry of B (where the job got slower by 50 us or more
         and the perturbation is one rank running late: compute, stall, extra); elsewhere no
         straggler entry staked above the job's loss (+10 us)
  first  that entry is the first of "where to look first"
  gap    B's job time minus A's is the constructed gap (simrank.py's) within 20% (or 20 us)
  stakes the other entries' stakes sum to at most the job's loss (+10 us)
  fusion no fusion entry and no fusion opportunity (not judged for `extra`, which adds a kernel)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LATE = ("compute", "stall", "extra")


def compare(cli, a, b):
    out = subprocess.run([cli, "compare", a, b, "--json", "-", "--quiet"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def score(report, perturb, rank, constructed):
    job = report["job"]
    gap = job["trace2"]["time_us"] - job["trace1"]["time_us"]
    entries = report["where_to_look_first"]
    mine = [e for e in entries if e["kind"] == "straggler" and e.get("straggler_rank") == rank
            and e["slower_trace"] == "trace2"]
    expect = perturb in LATE and constructed >= 50
    checks = {}
    if expect:
        checks["named"] = bool(mine)
        checks["first"] = bool(entries) and bool(mine) and entries[0] is mine[0]
    else:
        checks["named"] = not any(e["kind"] == "straggler" and e["stake_us"] > max(gap, 0) + 10 for e in entries)
        checks["first"] = None
    checks["gap"] = abs(gap - constructed) <= max(0.2 * abs(constructed), 20)
    others = sum(e.get("stake_us", 0) for e in entries if not (e in mine))
    checks["stakes"] = others <= max(gap, 0) + 10
    fusion = [e for e in entries if e["kind"] == "fusion"] + report.get("fusion_opportunities", [])
    checks["fusion"] = None if perturb == "extra" else not fusion
    notes = f"job gap {gap:.0f} us vs constructed {constructed:.0f}; other stakes {others:.0f} us; first: " + \
        (entries[0]["kind"] + " " + entries[0]["title"][:60] if entries else "none")
    return checks, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument("run")
    parser.add_argument("--ranks", default="0,2,5,7")
    parser.add_argument("--cases", default="compute:1.5,compute:3,stall:1,stall:5,link:1.5,link:3,extra:1")
    args = parser.parse_args()
    names = ("named", "first", "gap", "stakes", "fusion")
    print("| perturbation | rank | factor | constructed gap us | " + " | ".join(names) + " | notes |")
    print("|---|---|---|---|" + "---|" * len(names) + "---|")
    passed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases.split(","):
            perturb, factor = case.split(":")
            for rank in (int(r) for r in args.ranks.split(",")):
                copy = os.path.join(tmp, f"{perturb}_{rank}_{factor}")
                extra = ["--stall-ms", factor] if perturb == "stall" else ["--factor", factor]
                out = subprocess.run([sys.executable, os.path.join(HERE, "simrank.py"), args.run, copy, "--rank",
                                      str(rank), "--perturb", perturb] + extra, check=True, capture_output=True,
                                     text=True).stdout
                constructed = float(re.search(r"ends (-?[\d.]+) us later", out).group(1))
                checks, notes = score(compare(args.cli, args.run, copy), perturb, rank, constructed)
                cells = ["-" if checks[n] is None else ("pass" if checks[n] else "FAIL") for n in names]
                judged = [v for v in checks.values() if v is not None]
                total += len(judged)
                passed += sum(judged)
                print(f"| {perturb} | {rank} | {factor} | {constructed:.0f} | " + " | ".join(cells) + f" | {notes} |")
    print(f"\n{passed} of {total} checks pass")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
