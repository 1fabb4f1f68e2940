#!/usr/bin/env bash
# The Nsight Compute checks on a GPU machine: the solutions graded with --profile require (each lab's
# shared-memory-use figures and its launches' counts), the correct variants (they must pass) and the
# known-wrong variants labelled ncu (each must end as its class). Logs and ncu's reports go to $OUT.
#
#   bash .ci/gpu-profile.sh          (after .ci/gpu-validate.sh's build stage, or it builds)
#
# CTEST_ARGS narrows the variants (e.g. "-R lab0[12]").
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
LOGS=${OUT:-$BUILD/validation}
mkdir -p "$LOGS"
[[ -x $BUILD/grade ]] || STAGES=build bash .ci/gpu-validate.sh || exit 1
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
SECONDS=0
"$BUILD/grade" --tree solution --no-build --sanitizer off --profile require ${LABS:-} > "$LOGS/profile-solutions.log" 2>&1
echo "== solutions with --profile require (rc $?, ${SECONDS}s)"
grep -E "Nsight|^Total" "$LOGS/profile-solutions.log"
echo "== each rule's ratios over the solutions' launches (.ci/ncu-summary.py):"
python3 .ci/ncu-summary.py autograder/labs "$BUILD"/grading/lab0?_solution.ncu.log
SECONDS=0
ctest --test-dir "$BUILD" --output-on-failure -L "${PROFILE_LABELS:-correct|ncu}" -LE hole ${CTEST_ARGS:-} > "$LOGS/ctest-profile.log" 2>&1
rc=$?
echo "== correct and ncu-labelled variants (rc $rc, ${SECONDS}s):"
grep -E "tests passed|\*\*\*Failed|Failed  " "$LOGS/ctest-profile.log" | tail -30
grep -E "expected [a-z_]+, got|FAIL \(" "$LOGS/ctest-profile.log" | head -30
exit $rc
