#!/usr/bin/env bash
# Issue 37: two multi-rank runs of RANKS rank traces each, compared as jobs, against one pair of
# the same traces: wall and CPU time, peak resident memory, and input bytes per second of wall.
#
#   bench/multirankbench.sh [--ranks 16] [--rank-bytes 100000000] [--runs 3] [--base TRACE] [--work DIR] [--cli CLI]
#
# The rank traces are one real trace (default: rank 0 of the DLRM 8-rank step in tests/data) tiled
# to RANK_BYTES with bench/tracetiler, its distributedInfo rewritten per rank (rank r of RANKS).
# B's files are symbolic links to A's (the same bytes read again: the load and the summaries cost
# the same; only the disk is spared). Prints a Markdown table; the median of RUNS per row.
# Builds nothing: `cmake --build --preset test --target fusiondiff-cli tracetiler` first.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=16 rank_bytes=100000000 runs=3 base=tests/data/real/dlrm_8ranks/worker0.v100.pt.trace.json.gz work="" cli=build/test/app/cli/fusiondiff-cli
while [[ $# -gt 0 ]]; do
    case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --rank-bytes) rank_bytes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
tiler=build/test/bench/tracetiler
[[ -x $cli && -x $tiler ]] || { echo "build fusiondiff-cli and tracetiler first" >&2; exit 2; }
work=${work:-$(mktemp -d /tmp/multirankbench.XXXXXX)}
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"
"$tiler" "$base" "$work/tile.json" --target-size "$rank_bytes" >/dev/null
for ((r = 0; r < ranks; r++)); do
    python3 - "$work/tile.json" "$work/a/rank$r.json" "$r" "$ranks" <<'PY'
import re, shutil, sys
src, dst, rank, size = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with open(src, "rb") as f, open(dst, "wb") as out:
    head = f.read(1 << 16)
    info = b'"distributedInfo": {"backend": "nccl", "rank": %s, "world_size": %s}' % (rank.encode(), size.encode())
    head, n = re.subn(rb'"distributedInfo"\s*:\s*\{[^}]*\}', info, head, count=1)
    if n != 1:
        sys.exit("no distributedInfo in the first 64 KiB of " + src)
    out.write(head)
    shutil.copyfileobj(f, out, 1 << 22)
PY
    ln -s "$work/a/rank$r.json" "$work/b/rank$r.json"
done
rm "$work/tile.json"
bytes=$(du -bL "$work/a" | cut -f1)
measure() { # label input-bytes args...: the median run's wall, CPU, peak RSS
    local label=$1 input=$2; shift 2
    local rows=()
    for ((i = 0; i < runs; i++)); do
        rows+=("$(/usr/bin/time -f '%e %U %S %M' "$cli" compare "$@" --json /dev/null --quiet 2>&1 >/dev/null | tail -1)")
    done
    printf '%s\n' "${rows[@]}" | sort -n | awk -v label="$label" -v input="$input" -v runs="$runs" \
        'NR == int((runs + 1) / 2) { printf "| %s | %.0f | %.2f | %.2f | %.0f | %.1f |\n", label, input / 1e6, $1, $2 + $3, $4 / 1024, input / 1e6 / $1 }'
}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; rank trace $((bytes / ranks)) bytes"
echo
echo "| compare | input MB | wall s | CPU s | peak RSS MB | MB/s (wall) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
measure "one pair (rank 0 against rank 0)" $((2 * bytes / ranks)) "$work/a/rank0.json" "$work/b/rank0.json"
measure "$ranks ranks a side" $((2 * bytes)) "$work/a" "$work/b"
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
