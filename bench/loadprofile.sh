#!/usr/bin/env bash
# Where the with-stack load spends its time (issue 21, item 1), on owlv2 MI300X vs H100 tiled to
# 0.5 GB a trace as bench/run.sh tiles it:
#   1. its events by category (bench/categorymix.py on the MI300X trace);
#   2. the loader's CPU time per category: the MI300X trace and copies of it without one category
#      (written by categorymix.py, tiled 8 times), each loaded by bench/loadbench on one thread;
#      a category's cost is the difference (median of RUNS); then, for the Python frames and the
#      CPU operators, that cost split into reading their text (a copy with the category hidden,
#      its events kept but skipped once `cat` is read) and decoding and storing them;
#   3. perf samples of `loadbench A B --threads 1` (load both, analyzeFusion, JSON), their symbols
#      put in buckets: reading, simdjson's stage 1, decoding the fields, storing rows, the Python
#      frames' pass, attribution and the rest of the analysis.
#
#   bench/loadprofile.sh [--runs N] [--traces DIR] [--work DIR]
#
# Needs perf (Debian: linux-perf) and python3; builds nothing (build/test: loadbench, tracetiler).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 traces=../shared/traces work=""
while [[ $# -gt 0 ]]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
loadbench=build/test/bench/loadbench tiler=build/test/bench/tracetiler
[[ -n $work ]] || work=$(mktemp -d /tmp/loadprofile.XXXXXX)
mkdir -p "$work"
trap 'rm -f "$work"/*.json "$work"/*.cpu "$work"/perf.data*' EXIT
xv=$traces/cross-vendor/owlv2-large-patch14-ensemble

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); build: $(git rev-parse --short HEAD)"
echo
echo "#### Events of $(basename "$xv").mi300x by category"
echo
python3 bench/categorymix.py "$xv.mi300x.json.gz"

# The load's CPU seconds of a trace, on one thread: of one run, and the median of runs.
load_cpu_once() {
    "$loadbench" "$1" "$1" --threads 1 | awk '/: load /{ sub(/.*\(cpu /, ""); sub(/ s\).*/, ""); print; exit }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
load_cpu() {
    for _ in $(seq "$runs"); do load_cpu_once "$1"; done | median
}
echo
echo "#### The loader's CPU time by category (one thread, the MI300X trace tiled 8 times, median of $runs)"
echo
echo "| trace | MiB | load CPU s | cost of the category, CPU s | share of the load |"
echo "|---|---|---|---|---|"
python3 bench/categorymix.py "$xv.mi300x.json.gz" --drop none --out "$work/all1.json" > /dev/null 2>&1
"$tiler" "$work/all1.json" "$work/all.json" --times 8 > /dev/null 2>&1
rm -f "$work/all1.json"
full=$(load_cpu "$work/all.json")
echo "| whole | $(du -m --apparent-size "$work/all.json" | cut -f1) | $full | | |"
for cat in "python_function (frames)" "python_function (nn.Module)" cpu_op cuda_runtime kernel other; do
    python3 bench/categorymix.py "$xv.mi300x.json.gz" --drop "$cat" --out "$work/drop1.json" > /dev/null 2>&1
    "$tiler" "$work/drop1.json" "$work/drop.json" --times 8 > /dev/null 2>&1
    cpu=$(load_cpu "$work/drop.json")
    awk -v c="$cat" -v f="$full" -v d="$cpu" -v m="$(du -m --apparent-size "$work/drop.json" | cut -f1)" \
        'BEGIN { printf "| without %s | %d | %.3f | %.3f | %.0f%% |\n", c, m, d, f - d, 100 * (f - d) / f }'
    rm -f "$work/drop1.json" "$work/drop.json"
done

echo
echo "#### Reading a category against decoding it (the same trace; whole, hidden and without interleaved, median of $runs)"
echo
echo "| category | whole, CPU s | hidden, CPU s | without, CPU s | reading and skipping its text | decoding and storing it |"
echo "|---|---|---|---|---|---|"
for cat in "python_function (frames)" cpu_op; do
    python3 bench/categorymix.py "$xv.mi300x.json.gz" --drop "$cat" --out "$work/drop1.json" > /dev/null 2>&1
    "$tiler" "$work/drop1.json" "$work/drop.json" --times 8 > /dev/null 2>&1
    python3 bench/categorymix.py "$xv.mi300x.json.gz" --hide "$cat" --out "$work/hide1.json" > /dev/null 2>&1
    "$tiler" "$work/hide1.json" "$work/hide.json" --times 8 > /dev/null 2>&1
    rm -f "$work/drop1.json" "$work/hide1.json"
    : > "$work/whole.cpu"; : > "$work/hide.cpu"; : > "$work/drop.cpu"
    for _ in $(seq "$runs"); do
        load_cpu_once "$work/all.json" >> "$work/whole.cpu"
        load_cpu_once "$work/hide.json" >> "$work/hide.cpu"
        load_cpu_once "$work/drop.json" >> "$work/drop.cpu"
    done
    awk -v c="$cat" -v w="$(median < "$work/whole.cpu")" -v h="$(median < "$work/hide.cpu")" \
        -v d="$(median < "$work/drop.cpu")" 'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.3f (%.0f%% of the whole) | %.3f (%.0f%%) |\n",
            c, w, h, d, h - d, 100 * (h - d) / w, w - h, 100 * (w - h) / w }'
    rm -f "$work/drop.json" "$work/hide.json" "$work"/*.cpu
done
rm -f "$work/all.json"

echo
echo "#### perf: loadbench A B --threads 1 on the 0.5 GB pair (share of samples)"
echo
"$tiler" "$xv.mi300x.json.gz" "$work/A.json" --target-size 500M > /dev/null 2>&1
"$tiler" "$xv.h100.json.gz" "$work/B.json" --target-size 500M > /dev/null 2>&1
perf record -q -F 1999 -o "$work/perf.data" "$loadbench" "$work/A.json" "$work/B.json" --threads 1 2>/dev/null |
    sed 's/^/    /'
echo
perf report -i "$work/perf.data" --no-children --sort symbol --stdio 2>/dev/null | python3 -c '
import re, sys
buckets = [
    ("reading the file (read(2) copying from the page cache)", r"_copy_to_iter|copy_page_to_iter|filemap_|vfs_read|ksys_read"),
    ("simdjson stage 1 (structural index)", r"stage1"),
    ("decoding fields (stage 2, numbers, strings, Python frame names)",
     r"EventDecoder::decode\b|readInteger|readDouble|decodeJsonString|parseChunk|tryChunk|memcmp|NameHash|readField|readArgs|memchr|strlen|_M_find_tr"),
    ("storing rows (interning names, appending rows)",
     r"StringTable|EventDecoder::store|storeCpuOp|storePythonFrame\b|pythonThread|_Hash_bytes|ChunkMerger|pythonFrameKey"),
    ("Python frames kept (storePythonFramesThatHoldSomething)", r"storePythonFramesThatHoldSomething"),
    ("attribution (kernels to operators and stacks)",
     r"attributeKernels|FramePaths|OpFrame|ThreadEvent|sweepOrder|groupByOperation|introsort|adjust_heap|merge_adaptive"),
    ("alignment, layers and the rest of the analysis", r"SideLayers|pairLayers|[Aa]lign|[Ll]ayer|cascade|Occurrence|classify"),
    ("page faults and memory (kernel)", r"page_fault|mm_fault|clear_page|alloc|folio|unmap|mem_cgroup|rmqueue|free_|anonymous_page|lru"),
]
totals = {name: 0.0 for name, _ in buckets}
other = 0.0
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(.*)", line)
    if not m:
        continue
    share, symbol = float(m.group(1)), m.group(2)
    for name, pattern in buckets:
        if re.search(pattern, symbol):
            totals[name] += share
            break
    else:
        other += share
print("| bucket | share of samples |")
print("|---|---|")
for name, _ in buckets:
    print(f"| {name} | {totals[name]:.1f}% |")
print(f"| other (scheduler, libc, unmatched symbols) | {other:.1f}% |")
'
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
