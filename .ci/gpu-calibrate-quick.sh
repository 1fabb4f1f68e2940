#!/usr/bin/env bash
# Calibration on a GPU machine without a full build: builds only the grader, the reference solutions and
# the bench, then runs .ci/gpu-calibrate.sh (N gradings of the solutions) and the bench; leaves in $OUT
# calibration.json (for .ci/apply-calibration.py), bench.csv and bench.txt (for .ci/bench-table.py).
#
#   OUT=/some/dir N=5 bash .ci/gpu-calibrate-quick.sh
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-cal}
OUT=${OUT:-$BUILD/out}
mkdir -p "$OUT"
source .ci/build-solutions.sh
build_solutions bench || exit 1
BUILD="$BUILD" N=${N:-5} OUT="$BUILD/calibration" bash .ci/gpu-calibrate.sh > "$OUT/calibrate.txt" 2>&1
cp "$BUILD/calibration/calibration.json" "$OUT/"
"$BUILD/bench/bench" --rounds 15 --csv "$OUT/bench.csv" --svg "$OUT/bench.svg" > "$OUT/bench.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
grep -c "" "$OUT/calibration.json"; sed -n '/^Copy roofline/,$p' "$OUT/bench.txt"
