#!/usr/bin/env bash
# A quick look on a GPU machine: builds the runner and the six reference programs only (plus any extra
# targets named in TARGETS), grades the solutions, then runs GRADE_ARGS if given. For a full validation
# use .ci/gpu-validate.sh.
#
#   TARGETS="lab01_wrong_load_before_guard" GRADE_ARGS="--lab 01 --variant load_before_guard" bash .ci/gpu-smoke.sh
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-smoke}
extra=()
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
SECONDS=0
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BROWSER_TESTS=OFF \
  "${extra[@]}" > "$BUILD.configure.log" 2>&1 || { tail -30 "$BUILD.configure.log"; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target grade lab01_solution lab02_solution lab03_solution lab04_solution \
  lab05_solution lab06_solution ${TARGETS:-} > "$BUILD.build.log" 2>&1 || { grep -m20 -E "error" "$BUILD.build.log"; exit 1; }
echo "== build: ${SECONDS}s"
SECONDS=0
"$BUILD/grade" --tree solution --no-build ${SOLUTION_ARGS:-}
echo "== solutions graded: rc $?, ${SECONDS}s wall"
if [[ -n ${GRADE_ARGS:-} ]]; then
  SECONDS=0
  "$BUILD/grade" --no-build $GRADE_ARGS
  echo "== grade $GRADE_ARGS: rc $?, ${SECONDS}s wall"
fi
if [[ -n ${OUT:-} ]]; then cp "$BUILD"/grading/*.log "$OUT/" 2>/dev/null; fi
