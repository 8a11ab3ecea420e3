#!/usr/bin/env bash
# Two builds of fusiondiff-cli on the same command, interleaved: the median CPU time (user +
# system, which the other jobs of a shared machine inflate less than wall time), the wall time of
# that run and the largest peak RSS, for each.
#
#   bench/abcompare.sh RUNS OLD_CLI NEW_CLI ARGS...
#   bench/abcompare.sh 15 /tmp/base/build/app/cli/fusiondiff-cli build/test/app/cli/fusiondiff-cli \
#       compare A.json B.json --json /dev/null --quiet
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
runs=$1 old=$2 new=$3
shift 3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$runs"); do
    for side in old new; do
        cli=$old
        [[ $side == new ]] && cli=$new
        /usr/bin/time -f "$side %U %S %e %M" "$cli" "$@" > /dev/null 2>> "$log"
    done
done
for side in old new; do
    grep "^$side " "$log" | awk '{ print $2 + $3, $4, $5 }' | sort -n | awk -v side="$side" '
        { cpu[NR] = $1; wall[NR] = $2; if ($3 > rss) rss = $3 }
        END { m = int((NR + 1) / 2); printf "%s: cpu %.3f s (median of %d), wall %.2f s, peak RSS %d KB\n", side, cpu[m], NR, wall[m], rss }'
done
