#!/usr/bin/env bash
# FusionDiff benchmark (issue 4): one command for every figure in docs/performance.md.
#
#   bench/run.sh [--quick] [--traces DIR] [--out DIR] [--runs N] [--seed-runs N] [--keep] [--reuse]
#                [--no-seed] [--no-arch] [--no-sweep] [--profile] [--huge] [--only-huge] [--gui] [--only-gui]
#                [--sizes "500M 2G"] [--report-only]
#
# Steps:
#   1. builds the Release tree build-bench/ (and build-bench-v3/ with -DFUSIONDIFF_ARCH=x86-64-v3
#      when the CPU has AVX2), only the targets it needs;
#   2. checks the tiler: K=1 reproduces the input byte for byte, gzip output decompresses to the
#      plain output, and fusiondiff-cli sees K times the kernels and correlation groups;
#   3. for each size (0.5 GB and 2 GB per trace; 50 MB with --quick) and each pair (vLLM vs SGLang
#      graph traces; owlv2 MI300X vs H100), tiles the real traces into a plain and a gzip pair, then
#      runs, interleaved, N times each: the parse floor (bench/parsefloor A B, one thread, one file
#      after the other: the floor is the sum) and `fusiondiff-cli compare A B --json /dev/null
#      --quiet`, on plain and gzip, and both again from the x86-64-v3 build on plain; wall time
#      (median) and peak RSS (max over runs, /usr/bin/time); the seed (tests/golden/run_seed.py,
#      whole process) on the smallest plain pairs; a chunk-size sweep of the core's loader
#      (bench/loadbench, single-threaded) on the smallest plain pairs;
#   4. times fusiondiff::matchGroups on 100,000 synthetic correlation groups (bench/matchbench);
#   5. --profile: callgrind (and perf, cpu-clock sampling, when it works) of the compare on the
#      50 MB graph pair; --huge: a >4 GiB trace (plain if the disk allows, and gzip) compared
#      against a small one, then deleted; --gui: the desktop app itself (bench/guibench, offscreen):
#      time to results and stalls on the bundled pair and the largest graph pair; and, measured
#      without the GUI: compare on the bundled sample pair (resources/samples), and the loader's
#      progress calls (count, longest gap) on the largest graph pair, plain and gzip;
#   6. prints the results, ratios first, seconds second, and writes them to OUT/results.md
#      (--report-only: only this, from the measurements already in OUT/results.tsv).
# Files are read from the page cache (each pair is read once before it is timed).
# Generated traces go to OUT (default bench/out, git-ignored) and are deleted after their pair
# unless --keep; --reuse uses traces already there (the tiler is deterministic).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TRACES="$REPO/../shared/traces"
OUT="$REPO/bench/out"
RUNS=""
SEED_RUNS=1
QUICK=0
KEEP=0
REUSE=0
DO_SEED=1
DO_ARCH=1
DO_SWEEP=1
DO_PROFILE=0
DO_HUGE=0
ONLY_HUGE=0
REPORT_ONLY=0
SIZES_OPTION=""
DO_GUI=0
ONLY_GUI=0

usage() {
    sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
    --quick) QUICK=1 ;;
    --traces) TRACES="$2"; shift ;;
    --out) OUT="$2"; shift ;;
    --runs) RUNS="$2"; shift ;;
    --seed-runs) SEED_RUNS="$2"; shift ;;
    --keep) KEEP=1 ;;
    --reuse) REUSE=1; KEEP=1 ;;
    --no-seed) DO_SEED=0 ;;
    --no-arch) DO_ARCH=0 ;;
    --no-sweep) DO_SWEEP=0 ;;
    --profile) DO_PROFILE=1 ;;
    --huge) DO_HUGE=1 ;;
    --only-huge) DO_HUGE=1; ONLY_HUGE=1 ;;
    --report-only) REPORT_ONLY=1 ;;
    --gui) DO_GUI=1 ;;
    --sizes) SIZES_OPTION="$2"; shift ;;
    --only-gui) DO_GUI=1; ONLY_GUI=1 ;;
    -h|--help) usage 0 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done

if [[ $QUICK == 1 ]]; then
    SIZES=(50M)
    RUNS=${RUNS:-3}
else
    SIZES=(500M 2G)
    RUNS=${RUNS:-5}
fi
[[ -n "$SIZES_OPTION" ]] && read -r -a SIZES <<<"$SIZES_OPTION"

say() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'run.sh: error: %s\n' "$*" >&2; exit 1; }

# --- prerequisites -------------------------------------------------------------------------
for tool in cmake ninja python3; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed"
done
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing: install the Debian package 'time' (apt-get install time)"
TRACES=$(cd "$TRACES" 2>/dev/null && pwd) || die "traces directory not found: give it with --traces DIR"
GRAPH_A="$TRACES/graphs/vllm_decode_full_graph.mi300x.json.gz"
GRAPH_B="$TRACES/graphs/sglang_qwen3-8b_decode.mi300x.json.gz"
XV_A="$TRACES/cross-vendor/owlv2-large-patch14-ensemble.mi300x.json.gz"
XV_B="$TRACES/cross-vendor/owlv2-large-patch14-ensemble.h100.json.gz"
for f in "$GRAPH_A" "$GRAPH_B" "$XV_A" "$XV_B"; do
    [[ -r "$f" ]] || die "missing trace $f"
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "$OUT/.run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
RESULTS="$OUT/results.tsv"
if [[ $REPORT_ONLY == 1 ]]; then
    [[ -s "$RESULTS" ]] || die "--report-only: no measurements in $RESULTS"
    [[ -f "$OUT/matchbench.txt" ]] && MATCH_RAN=1
    SOURCE=$(cat "$OUT/source.txt" 2>/dev/null || echo "? (not recorded)")
    BUILD="$REPO/build-bench"
else
: >"$RESULTS"

# --- 1. build --------------------------------------------------------------------------------
TARGETS=(fusiondiff-cli tracetiler parsefloor matchbench loadbench inflatebench)
build() { # dir [extra cmake args]
    local dir="$1"; shift
    if [[ ! -f "$dir/build.ninja" ]]; then
        say "configuring $dir (Release)"
        cmake -S "$REPO" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFUSIONDIFF_BUILD_GUI=OFF \
            -DFUSIONDIFF_BUILD_TESTS=OFF -DFUSIONDIFF_BUILD_BENCH=ON "$@" >"$WORK/cmake.log" 2>&1 \
            || { cat "$WORK/cmake.log" >&2; die "cmake failed for $dir"; }
    fi
    say "building ${TARGETS[*]} in $dir"
    ninja -C "$dir" -j2 "${TARGETS[@]}" >"$WORK/ninja.log" 2>&1 || { tail -40 "$WORK/ninja.log" >&2; die "build failed in $dir"; }
}
BUILD="$REPO/build-bench"
build "$BUILD"
SOURCE="commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')"
if [[ -n "$(git -C "$REPO" status --porcelain --untracked-files=no -- core app 2>/dev/null)" ]]; then
    SOURCE="$SOURCE plus uncommitted changes in core/ or app/"
fi
echo "$SOURCE" >"$OUT/source.txt"
if [[ $DO_ARCH == 1 ]] && ! grep -qw avx2 /proc/cpuinfo; then
    echo "run.sh: this CPU has no AVX2: skipping the x86-64-v3 build" >&2
    DO_ARCH=0
fi
BUILD_V3="$REPO/build-bench-v3"
[[ $DO_ARCH == 1 ]] && build "$BUILD_V3" -DFUSIONDIFF_ARCH=x86-64-v3
CLI="$BUILD/app/cli/fusiondiff-cli"
TILER="$BUILD/bench/tracetiler"
FLOOR="$BUILD/bench/parsefloor"

# --- helpers -------------------------------------------------------------------------------
# The machine may be shared: before each timed command, wait (up to QUIET_WAIT seconds) until the
# other processes leave the CPUs nearly idle. BUSY is the share of all CPUs in use over 0.5 s just
# before the command; it is recorded with each measurement and counted in the report.
QUIET_WAIT=${QUIET_WAIT:-600}
QUIET_BUSY=${QUIET_BUSY:-10}
cpu_busy() {
    local a b
    a=($(head -1 /proc/stat)); sleep 0.5; b=($(head -1 /proc/stat))
    local total=0 idle i
    for (( i = 1; i < ${#a[@]}; i++ )); do total=$(( total + b[i] - a[i] )); done
    idle=$(( b[4] - a[4] + b[5] - a[5] ))
    echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}
BUSY=0
wait_quiet() {
    local waited=0
    BUSY=$(cpu_busy)
    while (( BUSY > QUIET_BUSY && waited < QUIET_WAIT )); do
        (( waited == 0 )) && echo "  (waiting for other processes: CPUs ${BUSY}% busy)" >&2
        sleep 5; waited=$(( waited + 5 ))
        BUSY=$(cpu_busy)
    done
    (( BUSY > QUIET_BUSY )) && echo "  (still ${BUSY}% busy after ${QUIET_WAIT} s: measuring anyway, counted in the report)" >&2
    return 0
}

# timed NAME CMD...: runs CMD with stdout/stderr in $WORK/NAME.out/.err, sets WALL (s) and RSS (KB).
timed() {
    local name="$1"; shift
    local t0 t1
    wait_quiet
    t0=$(date +%s%N)
    if ! /usr/bin/time -f "%M" -o "$WORK/$name.rss" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"; then
        echo "run.sh: command failed: $*" >&2
        tail -20 "$WORK/$name.err" >&2
        return 1
    fi
    t1=$(date +%s%N)
    WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
    RSS=$(tail -1 "$WORK/$name.rss")
}
# record PAIR SIZE FORMAT TOOL RUN WALL RSS [EXTRA]
record() {
    local fields=("$@")
    while (( ${#fields[@]} < 8 )); do fields+=(""); done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${fields[@]}" "$BUSY" >>"$RESULTS"
}

bytes_of() { stat -L -c %s "$1"; }
free_bytes() { df --output=avail -B1 "$OUT" | tail -1 | tr -d ' '; }
need_disk() { # bytes
    local free; free=$(free_bytes)
    (( free > $1 + (2 << 30) )) || die "not enough disk in $OUT: need $(( $1 >> 20 )) MiB plus 2 GiB spare, $(( free >> 20 )) MiB free"
}

# tile IN OUT SIZE [--gzip]: makes OUT unless --reuse finds it
tile() {
    local in="$1" out="$2" size="$3"; shift 3
    if [[ $REUSE == 1 && -s "$out" ]]; then
        echo "reusing $out" >&2
        return
    fi
    "$TILER" "$in" "$out.tmp" --target-size "$size" "$@" >&2
    mv "$out.tmp" "$out"
}

# --- 2. tiler check --------------------------------------------------------------------------
check_tiler() {
    say "checking the tiler (K=1 identical, gzip = plain, K=3: 3x kernels and correlation groups)"
    local name in
    for name in graph xvendor; do
        [[ $name == graph ]] && in="$GRAPH_A" || in="$XV_B"
        "$TILER" "$in" "$WORK/k1.json" --times 1 >/dev/null
        python3 -c 'import gzip,sys; sys.exit(gzip.open(sys.argv[1]).read() != open(sys.argv[2],"rb").read())' \
            "$in" "$WORK/k1.json" || die "tracetiler --times 1 does not reproduce $in"
        "$TILER" "$in" "$WORK/k3.json" --times 3 >/dev/null
        "$TILER" "$in" "$WORK/k3.json.gz" --times 3 --gzip >/dev/null
        python3 -c 'import gzip,sys; sys.exit(gzip.open(sys.argv[1]).read() != open(sys.argv[2],"rb").read())' \
            "$WORK/k3.json.gz" "$WORK/k3.json" || die "the gzip output of tracetiler differs from the plain one"
        "$CLI" compare "$WORK/k3.json" "$in" --json "$WORK/k3.report.json" --quiet
        python3 - "$WORK/k3.report.json" "$WORK/k3.json" <<'EOF' || die "the tiled trace does not scale as it should"
import json, sys
report = json.load(open(sys.argv[1]))
tiled, original = report["traces"]["trace1"], report["traces"]["trace2"]
ok = True
for key in ("kernels", "correlation_groups", "large_correlation_groups", "runtime_calls", "cpu_ops", "events"):
    t = tiled["load"][key] if key == "events" else tiled[key]
    o = original["load"][key] if key == "events" else original[key]
    good = t == 3 * o
    ok &= good
    print(f"  {key:26s} original {o:8d}  K=3 {t:8d}  {'ok' if good else 'WRONG'}", file=sys.stderr)
# ids unique per copy: every correlation id and flow id of the tiled trace belongs to one copy
events = json.load(open(sys.argv[2]))["traceEvents"]
n = len(events) // 3
def ids(part, get):
    return {v for e in part for v in [get(e)] if isinstance(v, int)}
corr = lambda e: (e.get("args") or {}).get("correlation") if isinstance(e.get("args"), dict) else None
ext = lambda e: (e.get("args") or {}).get("External id") if isinstance(e.get("args"), dict) else None
pyid = lambda e: (e.get("args") or {}).get("Python id") if isinstance(e.get("args"), dict) else None
flow = lambda e: e.get("id")
for label, get in (("correlation", corr), ("External id", ext), ("Python id", pyid), ("flow id", flow)):
    copies = [ids(events[i * n:(i + 1) * n], get) for i in range(3)]
    disjoint = not (copies[0] & copies[1] or copies[0] & copies[2] or copies[1] & copies[2])
    ok &= disjoint
    print(f"  {label:26s} disjoint across copies: {'ok' if disjoint else 'WRONG'}", file=sys.stderr)
ts = [[e["ts"] for e in events[i * n:(i + 1) * n] if "ts" in e] for i in range(3)]
ordered = max(ts[0]) < min(ts[1]) and max(ts[1]) < min(ts[2])
ok &= ordered
print(f"  {'time ranges':26s} copies one after the other: {'ok' if ordered else 'WRONG'}", file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
    done
    rm -f "$WORK"/k1.json "$WORK"/k3.json* "$WORK"/k3.report.json
}

# --- 3. pairs ----------------------------------------------------------------------------------
size_label() {
    case "$1" in
    50M) echo "50 MB" ;; 500M) echo "0.5 GB" ;; 2G) echo "2 GB" ;; *) echo "$1" ;;
    esac
}
size_bytes() { python3 -c "import sys; s=sys.argv[1]; print(int(float(s[:-1]) * {'k':1e3,'M':1e6,'G':1e9}[s[-1]]))" "$1"; }

measure_pair() { # name size srcA srcB
    local name="$1" size="$2" srcA="$3" srcB="$4"
    local label; label=$(size_label "$size")
    local A="$OUT/$name-$size-A.json" B="$OUT/$name-$size-B.json"
    local bytes; bytes=$(size_bytes "$size")
    [[ $REUSE == 1 && -s "$A" && -s "$B" && -s "$A.gz" && -s "$B.gz" ]] || need_disk $(( bytes * 23 / 10 ))
    say "$name pair, $label per trace: tiling $(basename "$srcA") and $(basename "$srcB")"
    tile "$srcA" "$A" "$size" & local p1=$!
    tile "$srcB" "$B" "$size"; wait $p1
    tile "$srcA" "$A.gz" "$size" --gzip & p1=$!
    tile "$srcB" "$B.gz" "$size" --gzip; wait $p1
    local input=$(( $(bytes_of "$A") + $(bytes_of "$B") ))
    record "$name" "$label" plain input 0 0 0 "$input"
    record "$name" "$label" gzip input 0 0 0 "$(( $(bytes_of "$A.gz") + $(bytes_of "$B.gz") ))"
    cat "$A" "$B" "$A.gz" "$B.gz" >/dev/null # into the page cache

    say "$name $label: $RUNS interleaved runs of floor and compare (plain, gzip$([[ $DO_ARCH == 1 ]] && echo ', x86-64-v3 plain'))"
    local run fmt a b build variant
    for (( run = 1; run <= RUNS; run++ )); do
        for fmt in plain gzip; do
            if [[ $fmt == plain ]]; then a="$A"; b="$B"; else a="$A.gz"; b="$B.gz"; fi
            for build in default v3; do
                [[ $build == v3 && ( $DO_ARCH == 0 || $fmt == gzip ) ]] && continue
                local dir="$BUILD"; [[ $build == v3 ]] && dir="$BUILD_V3"
                variant=$fmt; [[ $build == v3 ]] && variant="$fmt-v3"
                timed floor "$dir/bench/parsefloor" "$a" "$b"
                local inner floorWall=$WALL floorRss=$RSS
                inner=$(sed -n 's/.*total [0-9]* bytes: read \([0-9.]*\) s, parse \([0-9.]*\) s.*/\1 \2/p' "$WORK/floor.out")
                record "$name" "$label" "$variant" floor "$run" "$WALL" "$RSS" "${inner// /,}"
                timed compare "$dir/app/cli/fusiondiff-cli" compare "$a" "$b" --json /dev/null --quiet
                record "$name" "$label" "$variant" compare "$run" "$WALL" "$RSS"
                printf '  run %d %-9s floor %7.3f s %6d MB   compare %7.3f s %6d MB\n' "$run" "$variant" \
                    "$floorWall" "$(( floorRss / 1024 ))" "$WALL" "$(( RSS / 1024 ))" >&2
            done
        done
    done

    if [[ $size == "${SIZES[0]}" ]]; then
        # One trace at a time (bench/loadbench loads A, then B): gzip against plain when the
        # other core is free for the decompression thread. Also the phases, informative.
        say "$name $label: loading one trace at a time, plain and gzip (loadbench, 3 runs)"
        for (( run = 1; run <= 3; run++ )); do
            for fmt in plain gzip; do
                if [[ $fmt == plain ]]; then a="$A"; b="$B"; else a="$A.gz"; b="$B.gz"; fi
                timed loadbench "$BUILD/bench/loadbench" "$a" "$b"
                local loads; loads=$(awk '/: load /{ sub(/ s,.*/, ""); sub(/.*: /, ""); t += $0 } END { printf "%.4f", t }' "$WORK/loadbench.out")
                record "$name" "$label" "$fmt" load-one "$run" "$loads" "$RSS"
                printf '  run %d %-5s loads of A then B: %.3f s\n' "$run" "$fmt" "$loads" >&2
                cp "$WORK/loadbench.out" "$OUT/loadbench-$name-$size$([[ $fmt == gzip ]] && echo -gzip).txt"
            done
        done
        say "$name $label: gzip decompression alone, one thread, by library (inflatebench, median of 5)"
        local f
        for f in "$A.gz" "$B.gz"; do
            timed inflate "$BUILD/bench/inflatebench" "$f" --runs 5
            sed 's/^/  /' "$WORK/inflate.out" >&2
            while read -r _ decoder _ _ _ _ _ seconds _ mbs _; do
                record "$name" "$label" "gzip-$(basename "$f" | sed 's/.*-\([AB]\)\.json\.gz/\1/')" "inflate-$decoder" 1 "$seconds" 0 "$mbs"
            done <"$WORK/inflate.out"
        done
        if [[ $DO_SWEEP == 1 ]]; then
            say "$name $label: the core's loader by chunk size (loadbench, one thread, both files, 3 runs)"
            local mb
            for (( run = 1; run <= 3; run++ )); do
                for mb in 1 2 4 8 16 32 64; do
                    timed loadbench "$BUILD/bench/loadbench" "$A" "$B" --chunk-mb "$mb"
                    local loads; loads=$(awk '/: load /{ sub(/ s,.*/, ""); sub(/.*: /, ""); t += $0 } END { printf "%.4f", t }' "$WORK/loadbench.out")
                    record "$name" "$label" "plain" "load-chunk-$mb" "$run" "$loads" "$RSS"
                done
            done
        fi
        if [[ $DO_SEED == 1 ]]; then
            say "$name $label: the seed (whole process: Python start, json.load, analysis), $SEED_RUNS run(s)"
            for (( run = 1; run <= SEED_RUNS; run++ )); do
                timed seed python3 "$REPO/tests/golden/run_seed.py" --time --summary "$A" "$B"
                local inner; inner=$(sed -n 's/seed analysis: \([0-9.]*\) s/\1/p' "$WORK/seed.err")
                record "$name" "$label" plain seed "$run" "$WALL" "$RSS" "$inner"
                printf '  run %d seed %.1f s (analysis %s s), peak RSS %d MB\n' "$run" "$WALL" "$inner" "$(( RSS / 1024 ))" >&2
            done
            # json.load alone, one file after the other (what any json.load-based tool pays first)
            timed jsonload python3 -c 'import json, sys
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        trace = json.load(f)
    del trace' "$A" "$B"
            record "$name" "$label" plain json.load 1 "$WALL" "$RSS"
            printf '  json.load of both files alone: %.1f s, peak RSS %d MB\n' "$WALL" "$(( RSS / 1024 ))" >&2
        fi
    fi
    if [[ $DO_PROFILE == 1 && $name == graph && $size == "${SIZES[0]}" ]]; then
        profile "$A" "$B"
    fi
    if [[ $KEEP == 0 ]]; then
        rm -f "$A" "$B" "$A.gz" "$B.gz"
    fi
}

# --- 5. profile ------------------------------------------------------------------------------
profile() { # A B (plain)
    local A="$1" B="$2"
    local small=""
    if [[ $(bytes_of "$A") -gt 60000000 ]]; then
        small="$OUT/graph-50M"
        tile "$GRAPH_A" "$small-A.json" 50M
        tile "$GRAPH_B" "$small-B.json" 50M
        A="$small-A.json"; B="$small-B.json"
    fi
    if command -v valgrind >/dev/null; then
        say "profile: callgrind of fusiondiff-cli compare on the 50 MB graph pair"
        valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" "$CLI" compare "$A" "$B" --json /dev/null --quiet \
            >"$WORK/callgrind.log" 2>&1 || { tail "$WORK/callgrind.log" >&2; die "callgrind failed"; }
        # (sed -n, not head: head would end the pipe early, and pipefail would stop the script)
        callgrind_annotate --inclusive=no "$OUT/callgrind.out" 2>/dev/null | sed -n '1,45p' >"$OUT/profile-callgrind-self.txt"
        callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null | sed -n '1,60p' >"$OUT/profile-callgrind-inclusive.txt"
        sed 's/^/  /' "$OUT/profile-callgrind-self.txt" >&2
    else
        echo "run.sh: valgrind not installed: no callgrind profile" >&2
    fi
    if command -v perf >/dev/null && perf record -e cpu-clock -o "$WORK/perf.test" true >/dev/null 2>&1; then
        say "profile: perf (cpu-clock sampling) of fusiondiff-cli compare on the same pair, plain and gzip"
        "$TILER" "$GRAPH_A" "$WORK/perf-A.json.gz" --target-size 50M --gzip >/dev/null
        "$TILER" "$GRAPH_B" "$WORK/perf-B.json.gz" --target-size 50M --gzip >/dev/null
        local fmt a b
        for fmt in plain gzip; do
            if [[ $fmt == plain ]]; then a="$A"; b="$B"; else a="$WORK/perf-A.json.gz"; b="$WORK/perf-B.json.gz"; fi
            perf record -e cpu-clock -F 2000 -o "$WORK/perf.data" "$CLI" compare "$a" "$b" --json /dev/null --quiet \
                >/dev/null 2>"$WORK/perf.err" || { cat "$WORK/perf.err" >&2; die "perf record failed"; }
            perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null \
                | awk '!/^#/ && NF { $1 = $1; print }' | sed -n '1,30p' >"$OUT/profile-perf-$fmt.txt"
            perf report -i "$WORK/perf.data" --no-children --sort dso --stdio 2>/dev/null \
                | awk '!/^#/ && NF { $1 = $1; print }' >"$OUT/profile-perf-$fmt-dso.txt"
            sed 's/^/  /' "$OUT/profile-perf-$fmt-dso.txt" "$OUT/profile-perf-$fmt.txt" >&2
        done
        rm -f "$WORK"/perf-*.json.gz "$WORK/perf.data"
    fi
    [[ $KEEP == 0 && -n "${small:-}" ]] && rm -f "$small-A.json" "$small-B.json"
    return 0
}

# --- huge: a trace larger than simdjson's 4 GiB single-document limit ------------------------
huge() {
    local small="$GRAPH_B" huge="$OUT/huge-4.6G.json" target=4600M
    local fmt
    for fmt in plain gzip; do
        local file="$huge" extra=()
        [[ $fmt == gzip ]] && { file="$huge.gz"; extra=(--gzip --level 1); }
        if [[ $fmt == plain ]] && (( $(free_bytes) < 4600000000 + (4 << 30) )); then
            echo "run.sh: not enough disk for a 4.6 GB plain trace: only the gzip one" >&2
            continue
        fi
        say "huge: tiling $(basename "$GRAPH_A") to 4.6 GB ($fmt), then compare against $(basename "$small")"
        "$TILER" "$GRAPH_A" "$file" --target-size "$target" "${extra[@]}" >&2
        cat "$file" >/dev/null
        if timed huge "$CLI" compare "$file" "$small" --json "$WORK/huge.json" --quiet; then
            local kernels; kernels=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); t=r["traces"]["trace1"]; print(t["kernels"], t["load"]["data_bytes"])' "$WORK/huge.json")
            record huge "4.6 GB" "$fmt" compare 1 "$WALL" "$RSS" "${kernels// /,}"
            printf '  huge %s: compare %.2f s, peak RSS %d MB, kernels and bytes read: %s\n' "$fmt" "$WALL" "$(( RSS / 1024 ))" "$kernels" >&2
        else
            record huge "4.6 GB" "$fmt" compare 1 FAILED 0 "$(tail -1 "$WORK/huge.err" | tr '\t' ' ')"
        fi
        # the floor cannot take it (one simdjson document): show how it fails
        if timed hugefloor "$FLOOR" "$file"; then
            record huge "4.6 GB" "$fmt" floor 1 "$WALL" "$RSS"
        else
            record huge "4.6 GB" "$fmt" floor 1 FAILED 0 "$(tail -1 "$WORK/hugefloor.err" | tr '\t' ' ')"
        fi
        rm -f "$file"
    done
}

# --- the desktop app ----------------------------------------------------------------------------
# bench/guibench opens two traces in the real app (offscreen) and prints the time until results are
# on screen, the longest event-loop stall and how the progress bar moved.
guibench() { # label A B
    local label="$1" a="$2" b="$3"
    QT_QPA_PLATFORM=offscreen "$GUI_BUILD/bench/guibench" "$a" "$b" 2>/dev/null | sed "s/^guibench:/guibench, $label:/" \
        | tee -a "$OUT/guibench.txt" >&2
}

gui() {
    GUI_BUILD="$REPO/build-bench-gui"
    if [[ ! -f "$GUI_BUILD/build.ninja" ]]; then
        say "configuring $GUI_BUILD (Release, with the GUI)"
        cmake -S "$REPO" -B "$GUI_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFUSIONDIFF_BUILD_GUI=ON \
            -DFUSIONDIFF_BUILD_TESTS=OFF -DFUSIONDIFF_BUILD_BENCH=ON >"$WORK/cmake-gui.log" 2>&1 \
            || { cat "$WORK/cmake-gui.log" >&2; die "cmake failed for $GUI_BUILD"; }
    fi
    say "building guibench in $GUI_BUILD"
    ninja -C "$GUI_BUILD" -j2 guibench >"$WORK/ninja-gui.log" 2>&1 || { tail -40 "$WORK/ninja-gui.log" >&2; die "guibench build failed"; }
    : >"$OUT/guibench.txt"
    local qa="$REPO/resources/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz" qb="$REPO/resources/samples/Qwen1.5-0.5B-Chat.h100.json.gz"
    if [[ -r "$qa" && -r "$qb" ]]; then
        say "GUI proxy: compare on the bundled sample pair, $RUNS runs"
        local run
        for (( run = 1; run <= RUNS; run++ )); do
            timed bundled "$CLI" compare "$qa" "$qb" --json /dev/null --quiet
            record bundled "sample pair" gzip compare "$run" "$WALL" "$RSS"
            printf '  run %d compare %.3f s, peak RSS %d MB\n' "$run" "$WALL" "$(( RSS / 1024 ))" >&2
        done
        say "the app on the bundled sample pair, $RUNS runs (guibench)"
        for (( run = 1; run <= RUNS; run++ )); do
            guibench "bundled pair, run $run" "$qa" "$qb"
        done
    fi
    local size="${SIZES[${#SIZES[@]}-1]}"
    local label; label=$(size_label "$size")
    local A="$OUT/graph-$size-A.json" B="$OUT/graph-$size-B.json"
    [[ $REUSE == 1 && -s "$A" && -s "$A.gz" ]] || need_disk $(( $(size_bytes "$size") * 12 / 10 ))
    say "GUI proxy: progress calls while loading the graph pair, $label per trace (loadbench, one thread)"
    tile "$GRAPH_A" "$A" "$size" & local p1=$!
    tile "$GRAPH_B" "$B" "$size"; wait $p1
    tile "$GRAPH_A" "$A.gz" "$size" --gzip & p1=$!
    tile "$GRAPH_B" "$B.gz" "$size" --gzip; wait $p1
    local fmt
    for fmt in plain gzip; do
        local a="$A" b="$B"
        [[ $fmt == gzip ]] && { a="$A.gz"; b="$B.gz"; }
        cat "$a" "$b" >/dev/null
        timed loadbench "$BUILD/bench/loadbench" "$a" "$b"
        sed 's/^/  /' "$WORK/loadbench.out" >&2
        cp "$WORK/loadbench.out" "$OUT/loadbench-graph-$size-$fmt.txt"
        local calls gap
        calls=$(awk '/: progress /{ n += $4 } END { print n }' "$WORK/loadbench.out")
        gap=$(awk '/: progress /{ if ($(NF-1) > g) g = $(NF-1) } END { printf "%.3f", g }' "$WORK/loadbench.out")
        record progress "$label" "$fmt" loadbench 1 "$gap" "$RSS" "$calls"
        guibench "graph pair, $label per trace, $fmt" "$a" "$b"
    done
    [[ $KEEP == 0 ]] && rm -f "$A" "$B" "$A.gz" "$B.gz"
    return 0
}

# --- run -----------------------------------------------------------------------------------------
if [[ $ONLY_GUI == 1 ]]; then
    gui
elif [[ $ONLY_HUGE == 0 ]]; then
    check_tiler
    for size in "${SIZES[@]}"; do
        measure_pair graph "$size" "$GRAPH_A" "$GRAPH_B"
        measure_pair xvendor "$size" "$XV_A" "$XV_B"
    done
    say "group matching: fusiondiff::matchGroups on synthetic groups (bench/matchbench)"
    MATCH_GROUPS=100000; [[ $QUICK == 1 ]] && MATCH_GROUPS=20000
    timed matchbench "$BUILD/bench/matchbench" --groups "$MATCH_GROUPS" --runs 5 --naive-groups 5000
    sed 's/^/  /' "$WORK/matchbench.out" >&2
    cp "$WORK/matchbench.out" "$OUT/matchbench.txt"
    MATCH_RAN=1
fi
if [[ $DO_HUGE == 1 && $ONLY_GUI == 0 ]]; then huge; fi
if [[ $DO_GUI == 1 && $ONLY_GUI == 0 ]]; then gui; fi
fi # not --report-only

# --- 6. report -------------------------------------------------------------------------------
say "results"
python3 - "$RESULTS" "$OUT" "$BUILD" "$RUNS" "$SEED_RUNS" "${MATCH_RAN:-0}" "$SOURCE" <<'EOF' | tee "$OUT/results.md"
import os, platform, re, statistics, subprocess, sys
from collections import defaultdict

results, out, build, runs, seed_runs, match_ran, source = sys.argv[1:8]
rows = [line.rstrip("\n").split("\t") for line in open(results) if line.strip()]
wall = defaultdict(list); rss = defaultdict(list); extra = defaultdict(list)
pairs = []
busy_runs = [int(r[8]) for r in rows if r[3] not in ("input",) and r[8].isdigit()]
rows = [r[:8] for r in rows]
for name, size, variant, tool, run, w, r, x in rows:
    key = (name, size)
    if key not in pairs and name not in ("huge", "bundled", "progress"):
        pairs.append(key)
    if w != "FAILED":
        wall[(name, size, variant, tool)].append(float(w))
    rss[(name, size, variant, tool)].append(int(r))
    extra[(name, size, variant, tool)].append(x)

def med(key):
    v = wall.get(key)
    return statistics.median(v) if v else None
def peak(key):
    v = rss.get(key)
    return max(v) / 1024 if v else None  # MB (MiB)
def inner(key, i):  # parsefloor's own read (0) and parse (1) seconds, median
    v = [float(x.split(",")[i]) for x in extra.get(key, []) if x]
    return statistics.median(v) if v else None
def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "–"
def sec(a):
    return f"{a:.2f}" if a is not None else "–"
def mb(a):
    return f"{a:.0f}" if a is not None else "–"

n_runs = max([int(r[4]) for r in rows if r[3] == "compare" and r[0] != "huge"] or [0])
n_seed = max([int(r[4]) for r in rows if r[3] == "seed"] or [0])

def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    cache = os.path.join(build, "CMakeCache.txt")
    compiler = "?"
    btype = "?"
    if os.path.exists(cache):
        for l in open(cache):
            if l.startswith("CMAKE_CXX_COMPILER:"):
                cxx = l.split("=", 1)[1].strip()
                compiler = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
            if l.startswith("CMAKE_BUILD_TYPE:"):
                btype = l.split("=", 1)[1].strip()
    simd = "?"
    try:
        simd = re.search(r"SIMDJSON_VERSION (\S+)", open("/usr/include/simdjson.h").read()).group(1)
    except Exception:
        pass
    zlib = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "zlib1g"], capture_output=True, text=True).stdout or "?"
    noisy = sum(1 for b in busy_runs if b > int(os.environ.get("QUIET_BUSY", "10")))
    return (f"- CPU: {cpu}, {os.cpu_count()} cores; RAM {mem / 1048576:.0f} GiB; Linux {platform.release()}\n"
            f"- compiler: {compiler}; build type {btype}; simdjson {simd}; zlib {zlib}\n"
            f"- source built: {source}\n"
            f"- median of {n_runs} runs (seed: {n_seed}); peak RSS: max over the runs; warm page cache\n"
            f"- timed commands started on a busy machine (other processes > {os.environ.get('QUIET_BUSY', '10')}% of the CPUs): "
            f"{noisy} of {len(busy_runs)}; max busy before a command: {max(busy_runs) if busy_runs else 0}%")

print("## Machine\n")
print(machine())
print()
if pairs:
    print("## Ratios (plain JSON unless noted; floor = bench/parsefloor on both files, one thread)\n")
    print("| pair | size per trace | compare / floor | compare / floor parse-only | compare / floor, gzip | seed / compare | gzip / plain, compare | gzip / plain, floor | compare peak RSS / input | compare peak RSS / input, gzip | floor, v3 / default | compare, v3 / default |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, size in pairs:
        k = lambda v, t: (name, size, v, t)
        in_bytes = int(extra[k("plain", "input")][0]) / 1048576 if extra.get(k("plain", "input")) else None
        floor_parse = inner(k("plain", "floor"), 1)
        print(f"| {name} | {size} | {ratio(med(k('plain','compare')), med(k('plain','floor')))} "
              f"| {ratio(med(k('plain','compare')), floor_parse)} "
              f"| {ratio(med(k('gzip','compare')), med(k('gzip','floor')))} "
              f"| {ratio(med(k('plain','seed')), med(k('plain','compare')))} "
              f"| {ratio(med(k('gzip','compare')), med(k('plain','compare')))} "
              f"| {ratio(med(k('gzip','floor')), med(k('plain','floor')))} "
              f"| {ratio(peak(k('plain','compare')), in_bytes)} "
              f"| {ratio(peak(k('gzip','compare')), in_bytes)} "
              f"| {ratio(med(k('plain-v3','floor')), med(k('plain','floor')))} "
              f"| {ratio(med(k('plain-v3','compare')), med(k('plain','compare')))} |")
    print()
    print("## Seconds and MB (MB = MiB; input = both traces, uncompressed)\n")
    print("| pair | size per trace | input MB | gzip MB | floor s | floor read s | floor parse s | compare s | floor gzip s | floor gzip read s | compare gzip s | seed s | json.load s | floor v3 s | compare v3 s | compare RSS MB | compare gzip RSS MB | floor RSS MB | seed RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, size in pairs:
        k = lambda v, t: (name, size, v, t)
        in_mb = int(extra[k("plain", "input")][0]) / 1048576 if extra.get(k("plain", "input")) else None
        gz_mb = int(extra[k("gzip", "input")][0]) / 1048576 if extra.get(k("gzip", "input")) else None
        print(f"| {name} | {size} | {mb(in_mb)} | {mb(gz_mb)} | {sec(med(k('plain','floor')))} | {sec(inner(k('plain','floor'), 0))} "
              f"| {sec(inner(k('plain','floor'), 1))} | {sec(med(k('plain','compare')))} | {sec(med(k('gzip','floor')))} "
              f"| {sec(inner(k('gzip','floor'), 0))} | {sec(med(k('gzip','compare')))} | {sec(med(k('plain','seed')))} | {sec(med(k('plain','json.load')))} "
              f"| {sec(med(k('plain-v3','floor')))} | {sec(med(k('plain-v3','compare')))} "
              f"| {mb(peak(k('plain','compare')))} | {mb(peak(k('gzip','compare')))} | {mb(peak(k('plain','floor')))} "
              f"| {mb(peak(k('plain','seed')))} |")

one = [(n, s) for (n, s, v, t) in wall if t == "load-one" and v == "plain"]
if one:
    print()
    print("## One trace at a time (bench/loadbench: loadTrace of A, then of B; gzip decompresses on a thread of its own)\n")
    print("| pair | size per trace | plain s | gzip s | gzip / plain |")
    print("|---|---|---|---|---|")
    for n, s in sorted(set(one)):
        p, g = med((n, s, "plain", "load-one")), med((n, s, "gzip", "load-one"))
        print(f"| {n} | {s} | {sec(p)} | {sec(g)} | {g / p:.2f} |")
sweep = sorted({t for (n, s, v, t) in wall if t.startswith("load-chunk-")}, key=lambda t: int(t.rsplit("-", 1)[1]))
if sweep:
    print()
    print("## The core's loader by chunk size (bench/loadbench: loadTrace of A then B on one thread, plain, median of 3)\n")
    print("| pair | size per trace | " + " | ".join(t.rsplit("-", 1)[1] + " MiB" for t in sweep) + " |")
    print("|---|---|" + "---|" * len(sweep))
    for name, size in pairs:
        if (name, size, "plain", sweep[0]) in wall:
            print(f"| {name} | {size} | " + " | ".join(f"{sec(med((name, size, 'plain', t)))} s, {mb(peak((name, size, 'plain', t)))} MB" for t in sweep) + " |")

inflate = sorted({(n, s, v) for (n, s, v, t) in wall if t.startswith("inflate-")})
if inflate:
    decoders = []
    for (n, s, v, t) in wall:
        if t.startswith("inflate-") and t[8:] not in decoders:
            decoders.append(t[8:])
    print()
    print("## gzip decompression alone, one thread, 8 MiB output buffer (bench/inflatebench: MB/s of output, median of 5)\n")
    print("| pair | size per trace | file | " + " | ".join(decoders) + " |")
    print("|---|---|---|" + "---|" * len(decoders))
    for (n, s, v) in inflate:
        cells = []
        for d in decoders:
            x = extra.get((n, s, v, "inflate-" + d))
            cells.append(x[0] if x else "–")
        print(f"| {n} | {s} | {v[5:]} | " + " | ".join(cells) + " |")

huge = [r for r in rows if r[0] == "huge"]
if huge:
    print()
    print("## Larger than 4 GiB (vLLM graph trace tiled to 4.6 GB, compared with the original SGLang trace)\n")
    print("| file | tool | wall s | peak RSS MB | note |")
    print("|---|---|---|---|---|")
    for name, size, variant, tool, run, w, r, x in huge:
        note = x
        if tool == "compare" and w != "FAILED" and x:
            k, b = x.split(",")
            note = f"{int(k):,} kernels, {int(b):,} bytes parsed"
        print(f"| {size} {variant} | {tool} | {w if w == 'FAILED' else sec(float(w))} | {int(r) / 1024:.0f} | {note} |")

bundled = [r for r in rows if r[0] == "bundled"]
progress = [r for r in rows if r[0] == "progress"]
gfile = os.path.join(out, "guibench.txt")
if os.path.exists(gfile) and os.path.getsize(gfile) > 0:
    print()
    print("## The desktop app (bench/guibench: the app itself, offscreen)\n")
    print("```")
    print(open(gfile).read().rstrip())
    print("```")
if bundled or progress:
    print()
    print("## What the desktop app's goals rest on (measured without the GUI)\n")
    if bundled:
        key = ("bundled", "sample pair", "gzip", "compare")
        print(f"- `fusiondiff-cli compare` on the bundled sample pair (resources/samples, Qwen1.5-0.5B-Chat MI300X vs H100): "
              f"{sec(med(key))} s median, peak RSS {mb(peak(key))} MB (includes process start and report writing)")
    for name, size, variant, tool, run, w, r, x in progress:
        print(f"- loading the graph pair, {size} per trace, {variant}, one thread: {x} progress calls, longest gap between two {w} s")

mfile = os.path.join(out, "matchbench.txt")
if match_ran == "1" and os.path.exists(mfile):
    print()
    print("## Group matching (bench/matchbench)\n")
    print("```")
    print(open(mfile).read().rstrip())
    print("```")
EOF
echo "run.sh: raw measurements in $RESULTS, tables in $OUT/results.md" >&2
