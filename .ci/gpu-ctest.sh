#!/usr/bin/env bash
# The course's GPU tests on every GPU of one machine at once, for a time-limited call: configured with
# COURSE_GPU_TESTS_ON_ASSIGNED_GPUS=ON, so that each GPU test takes one slot of a GPU from ctest's
# resources; ctest then runs SLOTS tests on each GPU (default 1), starting the next as soon as one ends
# (Nsight Compute's runs inside the tests take turns machine-wide, through grade's own lock), so the GPUs
# stay busy until the list or the time runs out. The list is the GPU suite without the known holes: the
# solutions graded lab by lab (memory and race check and Nsight Compute included), the starters, the
# correct and known-wrong variants, the bench.
#
#   LIMIT=540 CTEST_ARGS="-R lab0[1-3]_" bash .ci/gpu-ctest.sh
#   LIMIT=500 PRIORITY='gpu_lab0[1-6]_|attack11' bash .ci/gpu-ctest.sh
#   PRIORITY='gpu_lab07_' THEN='lab07_' bash .ci/gpu-ctest.sh    (then only THEN's tests, not the rest)
#   SLOTS=3 bash .ci/gpu-ctest.sh    (three tests at a time on each GPU)
#
# LIMIT (default 540) seconds from the start: no test runs past it (ctest --stop-time; a test cut there
# reads "Timeout" in ctest's words, and is listed apart). CTEST_ARGS narrows the list. PRIORITY (a
# regular expression of test names) runs those tests first, then the rest in what time is left (then a
# -R in CTEST_ARGS does not mix: ctest keeps the last). The
# Nsight Compute runs of the GPU suite take turns machine-wide, so they bound what one call gets through:
# the solutions, the correct variants and the Nsight Compute known-wrong ones. Logs, the labs' own
# included, in $OUT/ctest.tgz (a call brings back only a few files).
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-540}
L=/tmp/gpu-ctest; rm -rf "$L"; mkdir -p "$L"
STAGES=build bash .ci/gpu-validate.sh -DCOURSE_GPU_TESTS_ON_ASSIGNED_GPUS=ON > "$L/build.log" 2>&1 ||
  { echo "build failed"; tail -20 "$L/build.log"; exit 1; }
n=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
echo "== build: ${SECONDS}s on $n GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"
# ctest's resources: SLOTS (default 1) slots on each GPU, one a test. With more, that many tests share a
# GPU: their builds, exact checks and memory checks overlap, and grade's own GPU lock still gives each
# one's measured checks the GPU alone (Nsight Compute's runs take turns machine-wide). Measured on one H200
# (2026-12-02, 104 tests of Labs 01-06's variants in three calls): with 2 slots the tests' own times
# summed to 2.0x the call's wall time, with 3 slots to 3.0x (the GPU lock held alone some 70% of the
# wall), and every verdict was the one expected but one, the same at 2 and 3 slots and explained (Lab 01
# attack10_cotenant_queued_spin's). Not measured: whether 3 slots finish a list sooner than 1, on the same
# tests and the same card (each test takes longer beside others: Lab 01's wrong_result variants took 6.6
# to 16 s at 2 slots; "8 to 10 s alone" was an H100's figure).
SLOTS=${SLOTS:-1}
{
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
  for ((g = 0; g < n; ++g)); do printf '%s{"id": "%d", "slots": %d}' "$([[ $g -gt 0 ]] && echo ,)" "$g" "$SLOTS"; done
  printf ']}]}\n'
} > "$L/resources.json"
# One round of ctest over the GPUs until the time limit; its log appends to ctest.log.
round() {
  local left=$((LIMIT - SECONDS))
  (( left > 10 )) || { echo "== no time left for: $*"; return; }
  local stop
  stop=$(date -d "+$left seconds" +%H:%M:%S)
  ctest --test-dir build-gpu -V -j"$((n * SLOTS))" --resource-spec-file "$L/resources.json" --stop-time "$stop" \
    -L gpu -LE hole "$@" > "$L/round.log" 2>&1
  echo "== ctest $* (rc $?, stopped at $stop at the latest)"
  grep -E "Test +#" "$L/round.log" | sed -E 's/^ *[0-9]+\/[0-9]+ //'
  # A test cut by --stop-time was given less than ctest's default limit of 1500 s.
  local cut
  cut=$(grep -E "Test timeout computed to be: [0-9]+" "$L/round.log" |
        awk '$NF < 1500 {sub(":", "", $1); print $1}' | sort -u)
  for t in $cut; do
    grep -qE "^ *[0-9]+/[0-9]+ Test +#$t: .*(Timeout|Not Run)" "$L/round.log" &&
      echo "   test #$t: cut at the time limit, not finished (not a verdict)"
  done
  cat "$L/round.log" >> "$L/ctest.log"
}
: > "$L/ctest.log"
if [[ -n ${PRIORITY:-} ]]; then
  round ${CTEST_ARGS:-} -R "$PRIORITY"
  if [[ -n ${THEN:-} ]]; then round -R "$THEN" -E "$PRIORITY"; else round ${CTEST_ARGS:-} -E "$PRIORITY"; fi
else
  round ${CTEST_ARGS:-}
fi
grep -E "tests passed|^[0-9]+: expected lab|  expected [a-z_]+, got" "$L/ctest.log" | sed 's/^[0-9]*: //'
echo "== ended as expected, by class:"
grep -E "ended as expected" "$L/ctest.log" | sed 's/^[0-9]*: //' | awk '{print $NF}' | sort | uniq -c
echo "== figures of the solutions' gradings:"
# Only the tests that grade a solution (their command names --tree solution), not the variants'.
for t in $(grep -oE "^[0-9]+: Test command: .*\"--tree\" \"solution\"" "$L/ctest.log" | cut -d: -f1 | sort -un); do
  grep -E "^$t: 0[1-9] .*(pass|FAIL) .*[0-9]x" "$L/ctest.log" | sed 's/^[0-9]*: //'
done | sort -u
echo "== stopped at the time limit (whereabouts):"
grep -h "at the time limit this program was" build-gpu/grading/*.log 2>/dev/null | sort | uniq -c
mkdir -p "$L/lab-logs" && cp build-gpu/grading/*.log "$L/lab-logs/" 2>/dev/null
[[ -n ${OUT:-} ]] && tar czf "$OUT/ctest.tgz" -C /tmp gpu-ctest
echo "== done at ${SECONDS}s"
