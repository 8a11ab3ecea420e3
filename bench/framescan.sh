#!/usr/bin/env bash
# Would a reader of its own for the Python frames beat simdjson on them (docs/performance.md,
# suggestion 8)? On owlv2 MI300X (compact, as bench/categorymix.py writes it), tiled 8 times as
# bench/loadprofile.sh tiles it, one thread:
#   today: the loader's CPU for a frame, that is the load of the trace against the same trace
#          without its frames (bench/loadbench, interleaved, median of RUNS), over the frames dropped;
#   scanner: bench/framescan's scalar scanner alone over the same frames (bench/framescanbench),
#          and over the trace as shipped (pretty-printed).
#
#   bench/framescan.sh [--runs N] [--traces DIR] [--work DIR]
#
# Needs python3; builds nothing (build/release: loadbench, framescanbench, tracetiler).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 traces=../shared/traces work=""
while [[ $# -gt 0 ]]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
loadbench=build/release/bench/loadbench scanbench=build/release/bench/framescanbench
tiler=build/release/bench/tracetiler
[[ -n $work ]] || work=$(mktemp -d /tmp/framescan.XXXXXX)
mkdir -p "$work"
trap 'rm -f "$work"/*.json' EXIT
trace=$traces/cross-vendor/owlv2-large-patch14-ensemble.mi300x.json.gz

python3 bench/categorymix.py "$trace" --drop none --out "$work/all1.json" > /dev/null 2>&1
dropped=$(python3 bench/categorymix.py "$trace" --drop "python_function (frames)" --out "$work/noframes1.json" 2>&1 \
    | sed -n 's/.*: \([0-9]*\) events of python_function (frames) dropped/\1/p')
dropped=$((dropped * 8))
"$tiler" "$work/all1.json" "$work/all.json" --times 8 > /dev/null 2>&1
"$tiler" "$work/noframes1.json" "$work/noframes.json" --times 8 > /dev/null 2>&1
rm -f "$work/noframes1.json"
zcat "$trace" > "$work/shipped.json"

load_cpu() {
    "$loadbench" "$1" "$1" --threads 1 | awk '/: load /{ sub(/.*\(cpu /, ""); sub(/ s\).*/, ""); print; exit }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: > "$work/all.cpu"
: > "$work/noframes.cpu"
for _ in $(seq "$runs"); do
    load_cpu "$work/all.json" >> "$work/all.cpu"
    load_cpu "$work/noframes.json" >> "$work/noframes.cpu"
done
all=$(median < "$work/all.cpu")
noframes=$(median < "$work/noframes.cpu")
rm -f "$work"/*.cpu

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); build: $(git rev-parse --short HEAD)"
echo
echo "| | CPU | per frame |"
echo "|---|---|---|"
echo "| load, compact trace (median of $runs) | $all s | |"
echo "| load, the same without its $dropped frames | $noframes s | |"
awk -v a="$all" -v n="$noframes" -v f="$dropped" \
    'BEGIN { printf "| today: reading, decoding and storing a frame | %.3f s | %.0f ns |\n", a - n, (a - n) / f * 1e9 }'
for form in all1 shipped; do
    line=$("$scanbench" "$work/$form.json" --runs "$runs")
    ns=$(sed -n 's/.*scan \([0-9.]*\) ns a frame.*/\1/p' <<< "$line")
    bytes=$(sed -n 's/.*accepted, \([0-9]*\) bytes a frame.*/\1/p' <<< "$line")
    label="compact (not tiled)"
    [[ $form == shipped ]] && label="as shipped (pretty-printed, not tiled)"
    echo "| scanner alone, $label, $bytes bytes a frame | | $ns ns |"
done
