#!/usr/bin/env bash
# One build of fusiondiff-cli on a plain pair and on the same pair gzipped, interleaved: the median
# wall and CPU time (user + system) of each and their ratio, gzip / plain (issue 9's goal: at most
# 1.25 with both traces loaded at once), and the largest peak RSS.
#
#   bench/gzipratio.sh RUNS CLI PLAIN_A PLAIN_B GZIP_A GZIP_B
#   bench/gzipratio.sh 7 build/test/app/cli/fusiondiff-cli A.json B.json A.json.gz B.json.gz
# (bench/tracetiler ... --target-size 500000000 [--gzip] makes such pairs.)
set -euo pipefail
[[ $# -eq 6 ]] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
runs=$1 cli=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cat "$3" "$4" "$5" "$6" > /dev/null # into the page cache
for _ in $(seq "$runs"); do
    /usr/bin/time -f "plain %e %U %S %M" "$cli" compare "$3" "$4" --json /dev/null --quiet > /dev/null 2>> "$log"
    /usr/bin/time -f "gzip %e %U %S %M" "$cli" compare "$5" "$6" --json /dev/null --quiet > /dev/null 2>> "$log"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for kind in plain gzip; do
    wall=$(grep "^$kind " "$log" | awk '{ print $2 }' | median)
    cpu=$(grep "^$kind " "$log" | awk '{ print $3 + $4 }' | median)
    rss=$(grep "^$kind " "$log" | awk '{ if ($5 > m) m = $5 } END { print m }')
    printf '%s: wall %.2f s, cpu %.2f s (medians of %d), peak RSS %d KB\n' "$kind" "$wall" "$cpu" "$runs" "$rss"
    eval "${kind}_wall=$wall ${kind}_cpu=$cpu"
done
awk -v gw="$gzip_wall" -v pw="$plain_wall" -v gc="$gzip_cpu" -v pc="$plain_cpu" \
    'BEGIN { printf "gzip / plain: wall %.2f, cpu %.2f\n", gw / pw, gc / pc }'
