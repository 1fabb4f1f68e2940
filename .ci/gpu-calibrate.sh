#!/usr/bin/env bash
# Calibration figures for the rubric's "reference" entries: grades the reference solutions N times
# (fresh seeds; the memory and race check and the bank-conflict check off, as they measure nothing)
# and prints, for every check with a measured figure, the lowest and highest value seen, as JSON keyed
# by "lab/check", ready to compare with autograder/labs/NN-name/rubric.json (then rubric_tables
# regenerates the handouts' and the README's tables and refuses a margin under 25%).
#
#   BUILD=build-gpu N=5 bash .ci/gpu-calibrate.sh      (after a build, e.g. STAGES=build gpu-validate.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
N=${N:-5}
LOGS=${OUT:-$BUILD/calibration}
mkdir -p "$LOGS"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$LOGS/gpu.txt"
for i in $(seq 1 "$N"); do
  "$BUILD/grade" --tree solution --no-build --sanitizer off --profile off > "$LOGS/calibrate-$i.log" 2>&1 ||
    echo "run $i: the solutions did not all pass (see $LOGS/calibrate-$i.log)"
done
python3 - "$LOGS" "$N" << 'PY'
import json, re, sys, glob
logs, n = sys.argv[1], int(sys.argv[2])
seen = {}
lab = None
for path in sorted(glob.glob(f"{logs}/calibrate-*.log")):
    for line in open(path):
        m = re.match(r"Lab (\d\d) \(.*\): \d+/\d+", line)
        if m:
            lab = m.group(1)
        m = re.match(r"  - (.+): ([0-9]+(?:\.[0-9]+)?)\S* .*\(threshold", line)
        if m and lab:
            seen.setdefault(f"{lab}/{m.group(1)}", []).append(float(m.group(2)))
out = {k: [min(v), max(v), len(v)] for k, v in sorted(seen.items())}
print(json.dumps(out, indent=1))
json.dump(out, open(f"{logs}/calibration.json", "w"), indent=1)
PY
