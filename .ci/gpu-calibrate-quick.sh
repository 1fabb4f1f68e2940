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
extra=(-DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BUILD_WRONG_VARIANTS=OFF)
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$BUILD-configure.log" 2>&1 || { tail -30 "$BUILD-configure.log"; exit 1; }
targets=(grade bench); for n in 01 02 03 04 05 06; do targets+=(lab${n}_solution); done
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]}" > "$BUILD-build.log" 2>&1 || { grep -m20 error "$BUILD-build.log"; exit 1; }
BUILD="$BUILD" N=${N:-5} OUT="$BUILD/calibration" bash .ci/gpu-calibrate.sh > "$OUT/calibrate.txt" 2>&1
cp "$BUILD/calibration/calibration.json" "$OUT/"
"$BUILD/bench/bench" --rounds 15 --csv "$OUT/bench.csv" --svg "$OUT/bench.svg" > "$OUT/bench.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
grep -c "" "$OUT/calibration.json"; sed -n '/^Copy roofline/,$p' "$OUT/bench.txt"
