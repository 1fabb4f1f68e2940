#!/usr/bin/env bash
# A short validation for one call of a time-limited GPU machine, after a change to code that runs there:
# build, the chosen ctest tests (CTEST_ARGS, e.g. "-R attack6"; the known holes among them listed apart),
# the solutions graded (all must pass), the starters graded (all must fail), then, while time is left
# (LIMIT seconds from the start, default 570), the tests of MORE_ARGS. Logs under $OUT/session.
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-570}
L=${OUT:-/tmp}/session; mkdir -p "$L"
source .ci/gpu-build-first.sh
echo "== build: ${SECONDS}s"
if [[ -n ${CTEST_ARGS:-} ]]; then
  ctest --test-dir build-gpu --output-on-failure -LE hole ${CTEST_ARGS} > "$L/ctest.log" 2>&1; echo "== ctest (rc $?, ${SECONDS}s)"; summary "$L/ctest.log"
  ctest --test-dir build-gpu --output-on-failure -L hole ${CTEST_ARGS} > "$L/ctest-holes.log" 2>&1; echo "== known holes (they fail until closed)"; summary "$L/ctest-holes.log"
fi
t0=$SECONDS; build-gpu/grade --tree solution --no-build > "$L/solutions.log" 2>&1
echo "== solutions (rc $?, $((SECONDS - t0))s)"; grep -E "^Lab 0.*(PASS|FAIL)|^Total|^GPU:" "$L/solutions.log" | sort -u
grep -A12 "Where the time went" "$L/solutions.log" | head -12
t0=$SECONDS; build-gpu/grade --tree student > "$L/starters.log" 2>&1
echo "== starters (rc $?, $((SECONDS - t0))s)"; grep -E "^Lab 0.*(PASS|FAIL)|^Total" "$L/starters.log" | sort -u
if [[ -n ${MORE_ARGS:-} ]]; then
  left=$((LIMIT - SECONDS))
  timeout $((left > 10 ? left : 10)) ctest --test-dir build-gpu --output-on-failure -LE hole ${MORE_ARGS} > "$L/more.log" 2>&1
  echo "== more tests (rc $?, ${SECONDS}s; 124: cut at the limit)"; summary "$L/more.log"
fi
