#!/usr/bin/env bash
# Do the timed figures move when other gradings run beside them? (The GPU lock's two modes, locks.hpp:
# the checks and Nsight Compute alone, memory checks shared.) On one GPU: the solutions graded alone, then
# two gradings at once (Labs 01, 03 and 05 in one, 02, 04 and 06 in the other, each with its memory check
# and Nsight Compute), then each speed check's figure both ways, and how long each grading held the lock
# each way. Figures are compared within this one call only.
#
#   bash .ci/gpu-lock-overlap.sh          (after a build in $BUILD; logs under $OUT/overlap when set;
#                                          GRADE_ARGS: more arguments to every grading, e.g.
#                                          "--sanitizer off --profile off")
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
L=${OUT:-/tmp}/overlap
rm -rf "$L" && mkdir -p "$L"
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
t0=$SECONDS
"$BUILD/grade" --tree solution --no-build ${GRADE_ARGS:-} --results "$L/alone.json" > "$L/alone.log" 2>&1
echo "== alone: rc $?, $((SECONDS - t0)) s"
t0=$SECONDS
"$BUILD/grade" --tree solution --no-build ${GRADE_ARGS:-} --lab 01 --lab 03 --lab 05 --results "$L/a.json" > "$L/a.log" 2>&1 &
a=$!
"$BUILD/grade" --tree solution --no-build ${GRADE_ARGS:-} --lab 02 --lab 04 --lab 06 --results "$L/b.json" > "$L/b.log" 2>&1
rb=$?
wait $a
ra=$?
echo "== two at once: rc $ra and $rb, $((SECONDS - t0)) s wall"
# Each speed check's figure (the summary table's columns are two or more spaces apart): alone, then
# beside the other grading.
figures() { grep -hE '^[0-9]{2} +(speed|measured slowdown)' "$@" | awk -F '  +' '{print $1 " " $2 "\t" $4}' | sort; }
echo "check | alone | beside another grading"
join -t $'\t' <(figures "$L/alone.log") <(figures "$L/a.log" "$L/b.log") | sed 's/\t/ | /g'
grep -h "the GPU lock:" "$L/alone.log" "$L/a.log" "$L/b.log"
grep -hE '^Lab 0.*(PASS|FAIL)|^Total' "$L/alone.log" "$L/a.log" "$L/b.log" | grep -v checking
