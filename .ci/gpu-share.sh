#!/usr/bin/env bash
# The GPU lock handed to each lab's measured pass (held shared, alone only around what is timed), measured
# on the GPUs of one machine (nvidia-h100-x4 or -x2), in one call: build once, then
#   card 0: the solutions graded so, then with COURSE_GRADER_MEASURED_ALONE=1 (the lock alone for the whole
#           measured pass, as before), then so again: each lab's time alone and each speed figure, both ways,
#           on one GPU; then the ctest tests of ARGS0;
#   card 1: .ci/gpu-lock-overlap.sh: the solutions graded alone, then as two gradings at once on one GPU;
#           then the ctest tests of ARGS1;
#   card 2: the starters graded, then the ctest tests of ARGS2;
#   card 3: the ctest tests of ARGS3, then with ROSTER_N set a roster of that many generated submissions
#           (.ci/gpu-roster.sh, none graded again alone) (a card past the machine's last is its card k mod the
#           count).
# The memory check and Nsight Compute are off in the gradings (GRADE_ARGS to change). LIMIT (default 540)
# seconds from the start bound everything after the build. Logs in $OUT/share.tgz (one file: a call
# brings back only a few).
#
#   ARGS2="-R lab01_wrong_one_element" ARGS3="-R lab05_wrong" bash .ci/gpu-share.sh
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-540}
L=/tmp/share; rm -rf "$L"; mkdir -p "$L"
[[ -n ${OUT:-} ]] && trap 'tar czf "$OUT/share.tgz" -C /tmp share' EXIT
source .ci/gpu-build-first.sh
echo "== build: ${SECONDS}s on $(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd, -)"
left() { local l=$((LIMIT - SECONDS)); echo $((l > 10 ? l : 10)); }
GRADE_ARGS=${GRADE_ARGS:---sanitizer off --profile off}
n=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
grade_on() {  # $1: GPU, $2: log name, then grade's arguments
  local gpu=$1 log=$2 t0=$SECONDS; shift 2
  CUDA_VISIBLE_DEVICES=$gpu timeout "$(left)" build-gpu/grade "$@" > "$L/$log.log" 2>&1
  echo "rc $? in $((SECONDS - t0))s" >> "$L/$log.log"
}
tests_on() {  # $1: GPU, $2: ctest arguments, $3: log name
  [[ -n $2 ]] || return 0
  CUDA_VISIBLE_DEVICES=$1 timeout "$(left)" ctest --test-dir build-gpu --output-on-failure -LE hole $2 > "$L/$3.log" 2>&1
  echo "rc $?" >> "$L/$3.log"
}
card() {
  local k=$1 gpu=$(($1 % n))
  case $k in
    0) grade_on $gpu handed-1 --tree solution --no-build $GRADE_ARGS --results "$L/handed-1.json"
       (export COURSE_GRADER_MEASURED_ALONE=1; grade_on $gpu whole-alone --tree solution --no-build $GRADE_ARGS --results "$L/whole-alone.json")
       grade_on $gpu handed-2 --tree solution --no-build $GRADE_ARGS --results "$L/handed-2.json"
       tests_on $gpu "${ARGS0:-}" gpu0 ;;
    1) CUDA_VISIBLE_DEVICES=$gpu BUILD=build-gpu GRADE_ARGS="$GRADE_ARGS" OUT=$L timeout "$(left)" bash .ci/gpu-lock-overlap.sh > "$L/overlap.log" 2>&1
       tests_on $gpu "${ARGS1:-}" gpu1 ;;
    2) grade_on $gpu starters --tree student $GRADE_ARGS; tests_on $gpu "${ARGS2:-}" gpu2 ;;
    3) tests_on $gpu "${ARGS3:-}" gpu3
       if [[ -n ${ROSTER_N:-} ]]; then
         CUDA_VISIBLE_DEVICES=$gpu BUILD=build-gpu N=$ROSTER_N K=0 ROSTER_LIMIT=$(left) bash .ci/gpu-roster.sh > "$L/roster.log" 2>&1
         cp /tmp/roster-run/roster.log "$L/roster-grade.log" 2>/dev/null
       fi ;;
    *) ;;
  esac
}
if (( n >= 4 )); then
  for k in 0 1 2 3; do card $k & done
else
  for ((g = 0; g < n; ++g)); do ( for ((k = g; k < 4; k += n)); do card $k; done ) & done
fi
wait
for f in handed-1 whole-alone handed-2 starters; do
  [[ -f $L/$f.log ]] || continue
  echo "== $f ($(tail -1 "$L/$f.log"))"; grep -E "^Lab 0.*(PASS|FAIL)|^Total" "$L/$f.log" | sort -u
  grep -A10 "Where the time went" "$L/$f.log" | head -11
done
figures() { grep -hE '^[0-9]{2} +(speed|measured slowdown)' "$@" | awk -F '  +' '{print $1 " " $2 "\t" $4}' | sort; }
if [[ -f $L/handed-1.log && -f $L/whole-alone.log ]]; then
  echo "== speed figures on card 0: handed (1) | alone for the whole pass | handed (2)"
  join -t $'\t' <(figures "$L/handed-1.log") <(figures "$L/whole-alone.log") | join -t $'\t' - <(figures "$L/handed-2.log") |
    sed 's/\t/ | /g'
fi
[[ -f $L/overlap.log ]] && { echo "== overlap (card 1)"; cat "$L/overlap.log"; }
[[ -f $L/roster.log ]] && { echo "== roster (card 3)"; cat "$L/roster.log"; grep -E "GPU to itself|held alone|a submission" "$L/roster-grade.log" | tail -5; }
for f in gpu0 gpu1 gpu2 gpu3; do
  [[ -f $L/$f.log ]] || continue
  echo "== $f ($(tail -1 "$L/$f.log"); 124: cut at the limit)"; summary "$L/$f.log"
done
echo "== done at ${SECONDS}s"
