#!/usr/bin/env bash
# Issue 21's measurements: the loader on several threads against the single-thread parse floor and
# against another build (e.g. main before it), on pairs tiled from the real traces as run.sh tiles
# them. CPU time (user + system) is the figure to read on a shared machine; wall time is printed
# with the load average at the start and the end of each part.
#
#   bench/parallelload.sh [--runs N] [--base OLD_CLI] [--traces DIR] [--work DIR] [--parts "pairs bigsmall gzip huge"]
#
# pairs     both traces at once, 0.5 GB each: xvendor (owlv2 MI300X vs H100, with Python frames) and
#           graph (vLLM vs SGLang decode): bench/parsefloor on both files (one thread), the base
#           build's compare and this build's compare (--threads default: the machine's cores)
# bigsmall  one 2 GB trace against a 100 MB one (owlv2 MI300X 2 GB vs H100 100 MB): base and this build
# gzip      the xvendor 0.5 GB pair plain and gzip, this build (issue 9's gzip / plain)
# huge      the vLLM graph trace tiled to 4.5 GB against the 100 MB H100 trace: peak RSS (the largest
#           of RUNS), and with --base whether the two builds' reports are the same byte for byte
# identical the shared pairs (TRACES: the five cross-vendor pairs, two graph pairs, the production
#           pairs, four pairs of single traces): this build's JSON report on the default threads and on --threads 3 against the
#           base build's, byte for byte (needs --base)
# threads   the bigsmall pair under perf, one run per build: CPU seconds per thread (samples at
#           999 Hz), and from them what the wall time would be on an idle machine with `nproc`
#           cores: the main thread (start, analysis, report) plus the loading threads, which take at
#           least their largest thread and their sum over the cores. An estimate, for when other
#           jobs make wall times meaningless; it ignores waiting between the threads. Since the
#           analysis runs one side on a thread of its own, that thread counts among the loading
#           threads, though it runs beside the main thread's analysis: the estimate is then high.
#
# Builds nothing: run `cmake --build --preset test --target fusiondiff-cli parsefloor tracetiler`
# first (this build is build/test). Generated traces go to WORK (default a fresh folder in /tmp)
# and are deleted at the end. Prints Markdown tables.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 base="" traces=../shared/traces work="" parts="pairs bigsmall gzip"
while [[ $# -gt 0 ]]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
cli=build/test/app/cli/fusiondiff-cli floor=build/test/bench/parsefloor tiler=build/test/bench/tracetiler
for tool in "$cli" "$floor" "$tiler"; do [[ -x $tool ]] || { echo "parallelload.sh: build $tool first" >&2; exit 2; }; done
[[ -z $base || -x $base ]] || { echo "parallelload.sh: $base is not a program" >&2; exit 2; }
estimate() { # perf.data: prints "main loads largest estimate" in seconds
    perf report -i "$1" --sort pid --stdio -F sample,pid 2> /dev/null | awk -v cores="$(nproc)" '
        $2 ~ /^[0-9]+:/ { split($2, id, ":"); tid = id[1] + 0; s = $1 / 999; if (main == "" || tid < mainTid) { if (main != "") { loads += main; if (main > largest) largest = main } main = s; mainTid = tid } else { loads += s; if (s > largest) largest = s } }
        END { e = loads / cores; if (largest > e) e = largest; printf "%.2f %.2f %.2f %.2f", main, loads, largest, main + e }'
}
[[ -n $work ]] || work=$(mktemp -d /tmp/parallelload.XXXXXX)
mkdir -p "$work"
log=$work/times.log
trap 'rm -f "$work"/*.json "$work"/*.json.gz "$work"/perf.data* "$log" "$log.raw"' EXIT

xv=$traces/cross-vendor/owlv2-large-patch14-ensemble
graphA=$traces/graphs/vllm_decode_full_graph.mi300x.json.gz
graphB=$traces/graphs/sglang_qwen3-8b_decode.mi300x.json.gz

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
tile() { # in out size [--gzip]
    [[ -s $2 ]] || "$tiler" "$1" "$2" --target-size "$3" "${@:4}" > /dev/null 2>&1
}
# One timed run: label, then the command; appends "label wall cpu rss_kb" to the log.
run() {
    local label=$1; shift
    /usr/bin/time -f "$label %e %U %S %M" "$@" > /dev/null 2>> "$log.raw"
    tail -1 "$log.raw" | awk '{ print $1, $2, $3 + $4, $5 }' >> "$log"
}
# Median wall and CPU and the largest RSS (MiB) of a label: "wall cpu rss".
stats() {
    grep "^$1 " "$log" | awk '{ print $2, $3, $4 }' | sort -n -k2 | awk '
        { wall[NR] = $1; cpu[NR] = $2; if ($3 > rss) rss = $3 }
        END { m = int((NR + 1) / 2); printf "%.2f %.2f %.0f", wall[m], cpu[m], rss / 1024 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mib() { du -m --apparent-size -c "$@" | tail -1 | cut -f1; }
: > "$log"; : > "$log.raw"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); runs: $runs (medians); this build: $(git rev-parse --short HEAD)${base:+; base: $base}"

if [[ " $parts " == *" pairs "* ]]; then
    echo
    echo "### Both traces at once, 0.5 GB each (load average at start: $(loadavg))"
    echo
    echo "| pair | input MiB | floor wall / CPU s | base compare wall / CPU s | compare wall / CPU s | compare / floor, wall | compare / floor, CPU | base / compare, CPU | peak RSS MiB: floor / base / compare | compare RSS / input |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for pair in xvendor graph; do
        if [[ $pair == xvendor ]]; then a=$work/xA.json b=$work/xB.json; tile "$xv.mi300x.json.gz" "$a" 500M; tile "$xv.h100.json.gz" "$b" 500M
        else a=$work/gA.json b=$work/gB.json; tile "$graphA" "$a" 500M; tile "$graphB" "$b" 500M; fi
        cat "$a" "$b" > /dev/null
        for _ in $(seq "$runs"); do
            run "$pair-floor" "$floor" "$a" "$b"
            [[ -z $base ]] || run "$pair-base" "$base" compare "$a" "$b" --json /dev/null --quiet
            run "$pair-new" "$cli" compare "$a" "$b" --json /dev/null --quiet
        done
        read -r fw fc fr <<< "$(stats "$pair-floor")"
        read -r nw nc nr <<< "$(stats "$pair-new")"
        bw=- bc=- br=- bn=-
        [[ -z $base ]] || { read -r bw bc br <<< "$(stats "$pair-base")"; bn=$(ratio "$bc" "$nc"); }
        input=$(mib "$a" "$b")
        echo "| $pair | $input | $fw / $fc | $bw / $bc | $nw / $nc | $(ratio "$nw" "$fw") | $(ratio "$nc" "$fc") | $bn | $fr / $br / $nr | $(ratio "$nr" "$input") |"
        rm -f "$a" "$b"
    done
    echo
    echo "load average at the end: $(loadavg)"
fi

if [[ " $parts " == *" bigsmall "* ]]; then
    echo
    echo "### One 2 GB trace against a 100 MB one (load average at start: $(loadavg))"
    echo
    a=$work/big.json b=$work/small.json
    tile "$xv.mi300x.json.gz" "$a" 2G; tile "$xv.h100.json.gz" "$b" 100M
    cat "$a" "$b" > /dev/null
    for _ in $(seq "$runs"); do
        [[ -z $base ]] || run big-base "$base" compare "$a" "$b" --json /dev/null --quiet
        run big-new "$cli" compare "$a" "$b" --json /dev/null --quiet
        run big-new1 "$cli" compare "$a" "$b" --json /dev/null --quiet --threads 1
    done
    echo "| build | wall s | CPU s | peak RSS MiB | speed against base, wall | CPU against base |"
    echo "|---|---|---|---|---|---|"
    if [[ -n $base ]]; then read -r bw bc br <<< "$(stats big-base)"; echo "| base | $bw | $bc | $br | 1.00 | 1.00 |"; fi
    for label in big-new big-new1; do
        read -r w c r <<< "$(stats "$label")"
        name="this build"; [[ $label == big-new1 ]] && name="this build, --threads 1"
        if [[ -n $base ]]; then echo "| $name | $w | $c | $r | $(ratio "$bw" "$w") | $(ratio "$c" "$bc") |"; else echo "| $name | $w | $c | $r | - | - |"; fi
    done
    echo
    echo "input: $(mib "$a") + $(mib "$b") MiB; load average at the end: $(loadavg)"
    rm -f "$a" "$b"
fi

if [[ " $parts " == *" gzip "* ]]; then
    echo
    echo "### gzip against plain, xvendor 0.5 GB a trace, this build (load average at start: $(loadavg))"
    echo
    a=$work/xA.json b=$work/xB.json
    tile "$xv.mi300x.json.gz" "$a" 500M; tile "$xv.h100.json.gz" "$b" 500M
    tile "$xv.mi300x.json.gz" "$a.gz" 500M --gzip; tile "$xv.h100.json.gz" "$b.gz" 500M --gzip
    cat "$a" "$b" "$a.gz" "$b.gz" > /dev/null
    for _ in $(seq "$runs"); do
        run gz-plain "$cli" compare "$a" "$b" --json /dev/null --quiet
        run gz-gzip "$cli" compare "$a.gz" "$b.gz" --json /dev/null --quiet
    done
    read -r pw pc pr <<< "$(stats gz-plain)"
    read -r gw gc gr <<< "$(stats gz-gzip)"
    echo "| | wall s | CPU s | peak RSS MiB |"
    echo "|---|---|---|---|"
    echo "| plain | $pw | $pc | $pr |"
    echo "| gzip ($(mib "$a.gz" "$b.gz") MiB) | $gw | $gc | $gr |"
    echo "| gzip / plain | $(ratio "$gw" "$pw") | $(ratio "$gc" "$pc") | |"
    echo
    echo "load average at the end: $(loadavg)"
    rm -f "$a" "$b" "$a.gz" "$b.gz"
fi

if [[ " $parts " == *" huge "* ]]; then
    echo
    echo "### The 4.5 GB trace (vLLM graph decode tiled) against the 100 MB H100 trace, $runs runs each (load average at start: $(loadavg))"
    echo
    a=$work/huge.json b=$work/small.json
    tile "$graphA" "$a" 4500M; tile "$xv.h100.json.gz" "$b" 100M
    for _ in $(seq "$runs"); do
        [[ -z $base ]] || run huge-base "$base" compare "$a" "$b" --json "$work/huge-base.json" --quiet
        run huge-new "$cli" compare "$a" "$b" --json "$work/huge-new.json" --quiet
    done
    echo "| build | wall s | CPU s | peak RSS MiB |"
    echo "|---|---|---|---|"
    [[ -z $base ]] || { read -r w c r <<< "$(stats huge-base)"; echo "| base | $w | $c | $r |"; }
    read -r w c r <<< "$(stats huge-new)"
    echo "| this build | $w | $c | $r |"
    echo
    same=""
    [[ -z $base ]] || { cmp -s "$work/huge-base.json" "$work/huge-new.json" && same="; reports: identical" || same="; reports: DIFFERENT"; }
    echo "input: $(mib "$a") + $(mib "$b") MiB; medians of $runs (peak RSS: the largest)$same; load average at the end: $(loadavg)"
    rm -f "$a" "$b"
fi

if [[ " $parts " == *" threads "* ]]; then
    echo
    echo "### Per-thread CPU, one 2 GB trace against a 100 MB one (perf, one run each; load average at start: $(loadavg))"
    echo
    a=$work/big.json b=$work/small.json
    tile "$xv.mi300x.json.gz" "$a" 2G; tile "$xv.h100.json.gz" "$b" 100M
    cat "$a" "$b" > /dev/null
    echo "| build | main thread CPU s | loading threads CPU s | largest loading thread s | idle-machine estimate s | speed against base (estimate) |"
    echo "|---|---|---|---|---|---|"
    builds=("this build=$cli"); [[ -z $base ]] || builds=("base=$base" "${builds[@]}")
    baseEstimate=""
    for entry in "${builds[@]}"; do
        name=${entry%%=*} program=${entry#*=}
        perf record -q -F 999 -o "$work/perf.data" -- "$program" compare "$a" "$b" --json /dev/null --quiet 2> /dev/null
        read -r main loads largest total <<< "$(estimate "$work/perf.data")"
        [[ -n $baseEstimate ]] || baseEstimate=$total
        echo "| $name | $main | $loads | $largest | $total | $(ratio "$baseEstimate" "$total") |"
    done
    echo
    echo "load average at the end: $(loadavg)"
    rm -f "$a" "$b" "$work/perf.data"
fi

if [[ " $parts " == *" identical "* ]]; then
    [[ -n $base ]] || { echo "parallelload.sh: identical needs --base" >&2; exit 2; }
    echo
    echo "### Reports against the base build, byte for byte"
    echo
    pairs=()
    for model in "$traces"/cross-vendor/*.mi300x.json.gz; do pairs+=("$model ${model%.mi300x.json.gz}.h100.json.gz"); done
    pairs+=("$graphA $graphB")
    pairs+=("$traces/graphs/vllm_prefilldecode_piecewise_graph.mi300x.json.gz $traces/graphs/xdit_flux_aiter.mi300x.json.gz")
    pairs+=("$traces/production/pi0_torchcompile_cudagraph.h200.json.gz $traces/production/pi0_torchcompile_hipgraph.mi350.json.gz")
    pairs+=("$traces/production/pi0_torchcompile_cudagraph.h200.json.gz $traces/production/pi0_torchcompile_cudagraph_rerun.h200.json.gz")
    # Single traces paired among themselves: training steps (backward, optimizer), the 2021 schema, no stack.
    pairs+=("$traces/single/hta_trace_diff_control.a100.json.gz $traces/graphs/hta_trace_diff_test.v100.json.gz")
    pairs+=("$traces/single/minitoy_train_rocm6.2.mi250.json.gz $traces/single/hta_rank0.a100.json.gz")
    pairs+=("$traces/single/sglang_qwen3-8b_extend_eager.mi300x.json.gz $traces/single/eager.b200.json.gz")
    pairs+=("$traces/single/hta_ns_resolution.v100.pt.trace.json.gz $traces/edge/resnet50_2021_schema.worker0.pt.trace.json.gz")
    echo "| A | B | default threads | --threads 3 |"
    echo "|---|---|---|---|"
    for pair in "${pairs[@]}"; do
        read -r a b <<< "$pair"
        "$base" compare "$a" "$b" --json "$work/base.json" --quiet
        "$cli" compare "$a" "$b" --json "$work/new.json" --quiet
        "$cli" compare "$a" "$b" --json "$work/new3.json" --quiet --threads 3
        same() { cmp -s "$work/base.json" "$1" && echo identical || echo DIFFERENT; }
        echo "| $(basename "$a") | $(basename "$b") | $(same "$work/new.json") | $(same "$work/new3.json") |"
    done
fi
