#!/usr/bin/env bash
# What the timed counters' sampling interval costs: the solutions' measured and exact checks (no memory and
# race check, no Nsight Compute) graded once for each interval in INTERVALS (microseconds,
# COURSE_TIMED_COUNTERS_INTERVAL_US), with one seed, on one GPU. Prints each grading's ratios, failures and
# GPU-alone seconds per lab, and where the timed batches' time went (before the clock, timed, after it).
# Figures are compared within this one call only.
#
#   INTERVALS="100 250 500" LABS="01 06" bash .ci/gpu-counters-interval.sh   (after a build in $BUILD;
#                                                        logs in $OUT/counters-interval.tgz when $OUT is set)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
SEED=${SEED:-20261128}
L=/tmp/counters-interval
rm -rf "$L" && mkdir -p "$L"
source .ci/solutions-grading.sh
for us in ${INTERVALS:-100 250 500}; do
  COURSE_TIMED_COUNTERS_INTERVAL_US=$us "$BUILD/grade" --tree solution --no-build --sanitizer off --profile off \
    --seed "$SEED" "${labs[@]}" > "$L/$us.log" 2>&1
  echo "interval ${us} us: rc $?"
  for f in "$BUILD"/grading/lab0*_solution.log; do cp "$f" "$L/$us.$(basename "$f")"; done
done
for us in ${INTERVALS:-100 250 500}; do
  f=$L/$us.log
  printf '%-8s' "${us}us"
  grep -E "^0[1-9] .*(pass|FAIL)" "$f" | grep -oE "[0-9.]+x" | tr '\n' ' '
  echo " | $(grep -cE "^0[1-9] .*FAIL" "$f") failed"
  time_table "$f"
  for g in "$L/$us".lab0*_solution.log; do
    echo "    $(basename "$g" _solution.log | cut -d. -f2): $(boundary_sums "$g")"
  done
done
[[ -n ${OUT:-} ]] && tar czf "$OUT/counters-interval.tgz" -C /tmp counters-interval
true
