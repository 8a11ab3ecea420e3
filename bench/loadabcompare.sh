#!/usr/bin/env bash
# Two builds of bench/loadbench on the same traces, interleaved: the median CPU time of the loads
# alone (loadbench's "load A" and "load B" lines added up: user + system of the process while it
# loads, so the reading thread and the pool's count too), with the smallest and largest, for each.
#
#   bench/loadabcompare.sh RUNS OLD_LOADBENCH NEW_LOADBENCH ARGS...
#   bench/loadabcompare.sh 7 /tmp/base/build/test/bench/loadbench build/test/bench/loadbench \
#       A.json B.json --threads 1
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
runs=$1 old=$2 new=$3
shift 3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$runs"); do
    for side in old new; do
        bench=$old
        [[ $side == new ]] && bench=$new
        # "loadbench: load A.json: 0.187 s (cpu 0.187 s), ..." once per trace
        "$bench" "$@" 2>&1 | awk -v side="$side" '
            /^loadbench: load / { for (i = 1; i < NF; ++i) if ($i == "(cpu") cpu += $(i + 1) }
            END { print side, cpu }' >> "$log"
    done
done
for side in old new; do
    grep "^$side " "$log" | awk '{ print $2 }' | sort -n | awk -v side="$side" '
        { cpu[NR] = $1 }
        END { m = int((NR + 1) / 2); printf "%s: load cpu %.3f s (median of %d; %.3f to %.3f)\n", side, cpu[m], NR, cpu[1], cpu[NR] }'
done
