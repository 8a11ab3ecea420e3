#!/usr/bin/env python3
"""The events of a trace by category: count and bytes of JSON text (as json.dumps writes them).

    bench/categorymix.py TRACE                       # a Markdown table
    bench/categorymix.py TRACE --drop CAT --out OUT  # also writes TRACE without the events of CAT
    bench/categorymix.py TRACE --hide CAT --out OUT  # ... or with them, in a category the loader skips

`CAT` "other" drops every category the loader does not keep (flows, instant events, ...). The
trace without a category is written with json.dump, so bench/tracetiler can tile it and the loader's
cost of a category is the difference between loading the trace with and without it
(bench/loadprofile.sh). A hidden category keeps its events, byte for byte as long, with its `cat`
changed to one the loader does not know ("python_function" becomes "python_functioN"): the loader
still reads and indexes their text and skips each event once `cat` is read, so the cost of reading
them is the difference between the trace without them and with them hidden, and the cost of decoding
and storing them the difference between hidden and whole.
"""
import argparse
import gzip
import json
import sys

KEPT = {"kernel", "Kernel", "cuda_runtime", "cuda_driver", "Runtime", "cpu_op", "Operator", "python_function",
        "user_annotation", "gpu_user_annotation"}


def category(event):
    cat = event.get("cat") if isinstance(event, dict) else None
    if cat == "python_function":
        return "python_function (nn.Module)" if str(event.get("name", "")).startswith("nn.Module: ") \
            else "python_function (frames)"
    return cat if cat in KEPT else "other"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--drop")
    parser.add_argument("--hide")
    parser.add_argument("--out")
    args = parser.parse_args()
    opener = gzip.open if open(args.trace, "rb").read(2) == b"\x1f\x8b" else open
    with opener(args.trace, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    counts, sizes = {}, {}
    for event in events:
        c = category(event)
        counts[c] = counts.get(c, 0) + 1
        sizes[c] = sizes.get(c, 0) + len(json.dumps(event))
    total = sum(sizes.values())
    print("| category | events | share of events | bytes of JSON | share of bytes |")
    print("|---|---|---|---|---|")
    for c in sorted(sizes, key=lambda k: -sizes[k]):
        print(f"| {c} | {counts[c]} | {counts[c] / len(events):.1%} | {sizes[c]} | {sizes[c] / total:.1%} |")
    if args.drop:
        kept = [e for e in events if not category(e).startswith(args.drop)]
        if isinstance(trace, dict):
            trace["traceEvents"] = kept
        else:
            trace = kept
        print(f"{args.out}: {len(events) - len(kept)} events of {args.drop} dropped", file=sys.stderr)
    if args.hide:
        hidden = 0
        for event in events:
            if category(event).startswith(args.hide):
                event["cat"] = event["cat"][:-1] + event["cat"][-1].swapcase()
                hidden += 1
        print(f"{args.out}: {hidden} events of {args.hide} hidden", file=sys.stderr)
    if args.drop or args.hide:
        with open(args.out, "w") as f:
            json.dump(trace, f)


if __name__ == "__main__":
    main()
