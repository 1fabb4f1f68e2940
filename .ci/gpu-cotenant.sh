#!/usr/bin/env bash
# Can a submission disturb another grading on the same GPU? On one GPU (CUDA_VISIBLE_DEVICES; one GPU lock),
# after a build in $BUILD: Lab 01's attack10_cotenant_queued_spin graded (its launch host keeps queueing
# seconds-long kernels from a thread of its own), and, from DELAY seconds later and as long as it runs (at
# most RUNS times), an honest Lab 01 graded beside it (the correct variant cooperative_groups: a program of
# its own, so that a grading of the solutions on another card of the same build is left alone). The
# memory check and Nsight Compute are off. The
# honest one must pass every time (no check of it may fail because of the attack's queued work); the
# attack's own verdict is printed. Exit status 0 only when every grading of the honest one passed.
#
#   BUILD=build-gpu bash .ci/gpu-cotenant.sh        (logs under $OUT/cotenant when set)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
L=${OUT:-/tmp}/cotenant
rm -rf "$L" && mkdir -p "$L"
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
args=(--no-build --sanitizer off --profile off --lab 01)
t0=$SECONDS
"$BUILD/grade" "${args[@]}" --variant attack10_cotenant_queued_spin --timeout "${ATTACK_TIMEOUT:-150}" \
  > "$L/attack.log" 2>&1 &
attack=$!
sleep "${DELAY:-3}"
runs=0 failed=0
while (( runs < ${RUNS:-3} )) && kill -0 $attack 2>/dev/null; do
  runs=$((runs + 1))
  "$BUILD/grade" "${args[@]}" --variant correct:cooperative_groups > "$L/honest-$runs.log" 2>&1
  rc=$?
  (( rc == 0 )) || failed=$((failed + 1))
  echo "honest grading $runs beside the attack: rc $rc at $((SECONDS - t0)) s: $(grep -E '^Lab 01' "$L/honest-$runs.log" | tail -1)"
  grep -hE "disturbed|still busy|stayed busy" "$L/honest-$runs.log" "$BUILD/grading/lab01_correct_cooperative_groups.log" 2>/dev/null | head -5
done
wait $attack
echo "attack: rc $? at $((SECONDS - t0)) s: $(grep -E '^Lab 01' "$L/attack.log" | tail -1)"
grep -E "^01 " "$L/attack.log" | head -20
if (( runs == 0 )); then echo "the attack ended before the honest one was graded beside it: nothing was tested"; exit 1; fi
echo "== the honest submission beside the attack: $((runs - failed)) of $runs passed"
(( failed == 0 ))
