#!/bin/sh
# Regenerates the test data that comes from the seed or from independent reference code:
#   tests/data/synthetic/         hand-made traces (make_synthetic.py)
#   tests/data/golden/*.json      the seed's analyze_fusion_differences on each case of cases.tsv
#   tests/data/classifier/*.tsv   expected categories of every real kernel name
# Needs python3 and the seed at ../shared/seed (the repository's sibling folder), or SEED=path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../data"
seed=${SEED:-$here/../../../shared/seed/fusion_analyzer.py.diff}

python3 "$here/make_synthetic.py" "$data/synthetic"

cp "$here/cases.tsv" "$data/golden/cases.tsv"
grep -v '^#' "$here/cases.tsv" | while IFS="$(printf '\t')" read -r name groups a b; do
    echo "golden: $name"
    PYTHONHASHSEED=0 python3 "$here/run_seed.py" --seed "$seed" --min-group-size "$groups" \
        "$data/$a" "$data/$b" > "$data/golden/$name.json"
done

python3 "$here/classify_reference.py" "$here/../../resources/classifiers/default.json" \
    "$data/classifier/kernel_names.txt" > "$data/classifier/default_expected.tsv"
python3 -c "
import sys
sys.path.insert(0, '$here')
import run_seed
scope = {}
exec(run_seed.STAND_IN_CLASSIFIER, scope)
print('# category<TAB>name: the seed\'s rules as written in run_seed.py (its stand-in classify_kernel)')
for line in open('$data/classifier/kernel_names.txt', encoding='utf-8'):
    name = line.rstrip('\n')
    if name:
        print(scope['classify_kernel'](name) + '\t' + name)
" > "$data/classifier/seed_expected.tsv"
echo done
