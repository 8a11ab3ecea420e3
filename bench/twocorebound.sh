#!/usr/bin/env bash
# Issue 21's first goal (compare wall <= 0.25x the single-thread parse floor's, both traces at once)
# against what two cores allow: the work no simdjson-based loader avoids, the analysis, and today's
# load, measured in interleaved rounds on the bench pairs (the eleventh round of issue 21).
#
#   bench/twocorebound.sh [--runs N] [--traces DIR] [--work DIR] [--pairs "xvendor graph"] [--cli CLI]
#
# Each round, for each pair (0.5 GB a trace, tiled as parallelload.sh tiles them):
#   floor     bench/parsefloor A B: the goal's reference (one thread, each file read whole)
#   read      bench/indexfloor read A B: read(2) alone, in the loader's 2 MiB chunks, a thread a file
#   index     bench/indexfloor index A B: read(2) and simdjson's stage 1
#   walk      bench/indexfloor walk A B: read(2), stage 1 and a step over every event, no field read
#   fields    bench/indexfloor fields A B: the walk, reading the fields the analyses need, storing none
#   loads     bench/loadbench A B --threads 2: its two loads (wall and CPU added up)
#   analysis  the same run's analyzeFusion (the step time, stacks, alignment; a thread per side)
#   compare   fusiondiff-cli compare A B --json /dev/null (the default threads: the machine's cores)
#   compare1  the same with --threads 1 (one trace after the other, each on one thread)
# (--cli: the compares by another build's fusiondiff-cli, the other steps by this one's.)
# Prints medians and each step's wall against the floor's, then the goal in seconds and three
# bounds, each a perfect spread over the cores: (walk + analysis CPU) / cores, what is left before
# any field is read; (fields + analysis CPU) / cores, what is left once the analyses' fields are
# read but nothing is stored; (loads + analysis CPU) / cores, today's work with no wait and no
# overhead.
#
# Builds nothing: build parsefloor, indexfloor, loadbench, tracetiler and fusiondiff-cli in
# build/test first. Generated traces go to WORK (default a fresh folder in /tmp) and are deleted
# at the end unless WORK was given.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7 traces=../shared/traces work="" pairs="xvendor graph" keep=0 cli=build/test/app/cli/fusiondiff-cli
while [[ $# -gt 0 ]]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
    --work) work=$2; keep=1; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    *) sed -n "2,27p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
bin=build/test
floor=$bin/bench/parsefloor index=$bin/bench/indexfloor
loadbench=$bin/bench/loadbench tiler=$bin/bench/tracetiler
for tool in "$cli" "$floor" "$index" "$loadbench" "$tiler"; do
    [[ -x $tool ]] || { echo "twocorebound.sh: build $tool first" >&2; exit 2; }
done
[[ -n $work ]] || work=$(mktemp -d /tmp/twocorebound.XXXXXX)
mkdir -p "$work"
log=$work/twocorebound.log
if [[ $keep == 1 ]]; then trap 'rm -f "$log"' EXIT; else trap 'rm -rf "$work"' EXIT; fi
cores=$(nproc)

tile() { [[ -s $2 ]] || "$tiler" "$1" "$2" --target-size "$3" > /dev/null 2>&1; }
timed() { # label, command: appends "label wall cpu"
    local label=$1; shift
    /usr/bin/time -f "$label %e %U %S" "$@" 2>&1 > /dev/null | tail -1 | awk '{ print $1, $2, $3 + $4 }' >> "$log"
}
median() { # label column
    grep "^$1 " "$log" | awk -v c="$2" '{ print $c }' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
xv=$traces/cross-vendor/owlv2-large-patch14-ensemble

echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $runs interleaved rounds (medians); build: $(git rev-parse --short HEAD); compares by $cli; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in $pairs; do
    case $pair in
    xvendor) a=$work/xA.json b=$work/xB.json; tile "$xv.mi300x.json.gz" "$a" 500M; tile "$xv.h100.json.gz" "$b" 500M ;;
    graph) a=$work/gA.json b=$work/gB.json
        tile "$traces/graphs/vllm_decode_full_graph.mi300x.json.gz" "$a" 500M
        tile "$traces/graphs/sglang_qwen3-8b_decode.mi300x.json.gz" "$b" 500M ;;
    *) echo "twocorebound.sh: unknown pair $pair" >&2; exit 2 ;;
    esac
    cat "$a" "$b" > /dev/null
    : > "$log"
    for _ in $(seq "$runs"); do
        timed floor "$floor" "$a" "$b"
        for mode in read index walk fields; do
            "$index" "$mode" "$a" "$b" | awk -v m="$mode" '/median/ { print m, $(NF - 7), $(NF - 4) }' >> "$log"
        done
        "$loadbench" "$a" "$b" --threads 2 | awk '
            /^loadbench: load / { wall += $4; for (i = 1; i < NF; ++i) if ($i == "(cpu") cpu += $(i + 1) }
            /^loadbench: analyzeFusion:/ { aw = $3; ac = $6; sub(/,/, "", ac) }
            END { print "loads", wall, cpu; print "analysis", aw, ac }' >> "$log"
        timed compare "$cli" compare "$a" "$b" --json /dev/null --quiet
        timed compare1 "$cli" compare "$a" "$b" --json /dev/null --quiet --threads 1
    done
    fw=$(median floor 2)
    echo
    echo "### $pair: $(du -m --apparent-size -c "$a" "$b" | tail -1 | cut -f1) MiB (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
    echo
    echo "| step | wall s | CPU s | wall / floor's wall |"
    echo "|---|---|---|---|"
    for step in floor read index walk fields loads analysis compare compare1; do
        w=$(median "$step" 2) c=$(median "$step" 3)
        echo "| $step | $w | $c | $(awk -v w="$w" -v f="$fw" 'BEGIN { printf "%.2f", w / f }') |"
    done
    awk -v f="$fw" -v n="$cores" -v walk="$(median walk 3)" -v fields="$(median fields 3)" -v loads="$(median loads 3)" -v an="$(median analysis 3)" 'BEGIN {
        printf "\n- goal: 0.25 x %.2f s = **%.3f s** of wall\n", f, 0.25 * f
        printf "- walk and analysis, perfectly spread over %d cores: (%.3f + %.3f) / %d = **%.3f s (%.2fx)**\n", n, walk, an, n, (walk + an) / n, (walk + an) / n / f
        printf "- fields and analysis, perfectly spread over %d cores: (%.3f + %.3f) / %d = **%.3f s (%.2fx)**\n", n, fields, an, n, (fields + an) / n, (fields + an) / n / f
        printf "- loads and analysis, perfectly spread over %d cores: (%.3f + %.3f) / %d = **%.3f s (%.2fx)**\n", n, loads, an, n, (loads + an) / n, (loads + an) / n / f
    }'
    [[ $keep == 1 ]] || rm -f "$a" "$b"
done
