#!/bin/sh
# Prints, for every trace under a folder, the share of GPU kernel time and of kernels that a
# classifier leaves in its fallback category ("Other"), as a Markdown table.
# Usage: bench/classifier-coverage.sh [TRACES_DIR] [CLASSIFIER] [FUSIONDIFF_CLI]
set -eu
traces=${1:-$(dirname "$0")/../../shared/traces}
classifier=${2:-default}
cli=${3:-$(dirname "$0")/../build/test/app/cli/fusiondiff-cli}

echo "| trace | kernels | GPU time (ms) | Other, % of time | Other, % of kernels |"
echo "| --- | ---: | ---: | ---: | ---: |"
find "$traces" -type f \( -name '*.json' -o -name '*.json.gz' \) | sort | while read -r trace; do
    name=$(echo "$trace" | sed "s|^$traces/||; s|\.json\.gz$||; s|\.json$||; s|\.pt\.trace$||")
    "$cli" classify "$trace" --classifier "$classifier" | awk -F'\t' -v name="$name" '
        NR > 1 { time += $4; count += $3; if ($2 == "Other") { otherTime += $4; otherCount += $3 } }
        END {
            if (count == 0) { printf "| %s | 0 | 0 | n/a | n/a |\n", name; exit }
            printf "| %s | %d | %.1f | %.2f | %.2f |\n", name, count, time / 1000, 100 * otherTime / time, 100 * otherCount / count
        }'
done
