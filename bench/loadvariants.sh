#!/usr/bin/env bash
# Settings of the loader that need no code change, each measured interleaved with the default on
# one pair (issue 21's eighth round): medians of RUNS of wall and CPU (user + system) seconds, and
# of the minor page faults.
#
#   bench/loadvariants.sh RUNS A.json B.json [--parts "hugepages chunks"]
#
# hugepages  fusiondiff-cli compare A B, as built and with GLIBC_TUNABLES=glibc.malloc.hugetlb=1
#            (glibc 2.35 and later: malloc asks for transparent huge pages with madvise)
# chunks     bench/loadbench A B --threads 2 at chunks of 0.5, 1 and 2 MiB: each trace's load
#
# Builds nothing: build the test preset's fusiondiff-cli and loadbench first (build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 3 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
runs=$1 a=$2 b=$3 parts="hugepages chunks"
[[ ${4:-} == --parts ]] && parts=$5
cli=build/test/app/cli/fusiondiff-cli loadbench=build/test/bench/loadbench
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cat "$a" "$b" > /dev/null # into the page cache
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
column() { grep "^$1 " "$log" | awk -v c="$2" '{ print $c }' | median; }

if [[ " $parts " == *" hugepages "* ]]; then
    for _ in $(seq "$runs"); do
        /usr/bin/time -a -o "$log" -f "default %e %U %S %R" "$cli" compare "$a" "$b" --json /dev/null --quiet
        GLIBC_TUNABLES=glibc.malloc.hugetlb=1 /usr/bin/time -a -o "$log" -f "hugetlb %e %U %S %R" \
            "$cli" compare "$a" "$b" --json /dev/null --quiet
    done
    awk '{ print $1, $2, $3 + $4, $4, $5 }' "$log" > "$log.cpu" && mv "$log.cpu" "$log"
    echo "| compare | wall s | CPU s | system s | minor faults |"
    echo "|---|---|---|---|---|"
    for label in default hugetlb; do
        echo "| $label | $(column $label 2) | $(column $label 3) | $(column $label 4) | $(column $label 5) |"
    done
    : > "$log"
fi

if [[ " $parts " == *" chunks "* ]]; then
    for _ in $(seq "$runs"); do
        for mib in 0.5 1 2; do
            "$loadbench" "$a" "$b" --threads 2 --analysis-runs 1 --chunk-mb "$mib" 2>&1 \
                | sed -n "s/^loadbench: load [^:]*: \([0-9.]*\) s (cpu \([0-9.]*\) s).*/$mib \1 \2/p" >> "$log"
        done
    done
    echo
    echo "| chunk MiB | one trace's load, wall s | its CPU s |"
    echo "|---|---|---|"
    for mib in 0.5 1 2; do echo "| $mib | $(column $mib 2) | $(column $mib 3) |"; done
fi
