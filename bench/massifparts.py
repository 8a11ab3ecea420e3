#!/usr/bin/env python3
"""What holds the heap, snapshot by snapshot, in a valgrind massif profile of fusiondiff-cli.

    valgrind --tool=massif --detailed-freq=1 --depth=50 --massif-out-file=OUT \\
        build/test/app/cli/fusiondiff-cli compare A.json B.json --json /dev/null --quiet
    bench/massifparts.py OUT            # one line per detailed snapshot
    bench/massifparts.py OUT --top 5    # the 5 snapshots with the most analysis memory, largest first

Each allocation is put in the part named by the first frame, from the allocation up, that names
one: the simdjson parsers, the input windows and the chunks cut from them, the rows decoded in a
chunk, the string tables, the chunks merged into a trace's store, the Python frames kept, or, for
what the analysis allocates, the step of analyzeFusion that called it ("analysis: attributeKernels").
Massif counts allocated bytes, not resident pages: the parsers' structural indexes are allocated
for the largest chunk and mostly never touched, so compare peaks with /usr/bin/time -v's.
"""
import argparse
import re
from collections import defaultdict

NODE = re.compile(r"^( *)n(\d+): (\d+) (.*)$")
PARTS = [
    (re.compile(r"set_capacity|simdjson\.h:|parser::allocate"), "parsers"),
    (re.compile(r"InputWindow"), "windows and chunks"),
    (re.compile(r"EventDecoder::"), "decoded rows"),
    (re.compile(r"StringTable::"), "strings"),
    (re.compile(r"ChunkMerger::"), "merged store"),
    (re.compile(r"storePythonFramesThatHoldSomething"), "kept Python frames"),
    (re.compile(r"ParallelEventArrayReader::"), "reader"),
]


def function(frame):
    found = re.search(r"fusiondiff::(?:\(anonymous namespace\)::)?([A-Za-z_:]+)[(<]", frame)
    return found.group(1) if found else ""


def snapshots(path):
    current = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("snapshot="):
            current = {"id": int(line.split("=")[1]), "tree": []}
            yield current
        elif line.startswith("mem_heap_B=") and current is not None:
            current["heap"] = int(line.split("=")[1])
        else:
            node = NODE.match(line)
            if node and current is not None:
                current["tree"].append((len(node.group(1)), int(node.group(3)), node.group(4)))


def parts(tree):
    result = defaultdict(int)
    path, skipBelow = [], None
    for depth, size, frame in tree:
        if skipBelow is not None and depth > skipBelow:
            continue
        skipBelow = None
        path = path[:depth] + [function(frame)]
        part = next((name for pattern, name in PARTS if pattern.search(frame)), None)
        if part is None and path[-1] == "analyzeFusion" and len(path) >= 2:
            part = "analysis: " + (path[-2] or "other")
        if part is None and path[-1] == "main":
            part = "other"
        if part:
            result[part] += size
            skipBelow = depth
    return result


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("massif_out")
    arguments.add_argument("--top", type=int, default=0)
    options = arguments.parse_args()
    rows = []
    for snapshot in list(snapshots(options.massif_out)):
        if len(snapshot["tree"]) < 2:
            continue
        split = parts(snapshot["tree"])
        analysis = sum(size for name, size in split.items() if name.startswith("analysis"))
        rows.append((analysis, snapshot, split))
    if options.top:
        rows = sorted(rows, key=lambda row: -row[0])[: options.top]
    mib = 1 << 20
    for _, snapshot, split in rows:
        largest = sorted(split.items(), key=lambda item: -item[1])[:8]
        print(f"snapshot {snapshot['id']}: heap {snapshot['heap'] / mib:.1f} MiB: "
              + ", ".join(f"{name} {size / mib:.1f}" for name, size in largest))


if __name__ == "__main__":
    main()
