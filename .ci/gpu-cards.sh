#!/usr/bin/env bash
# The course's GPU tests spread over the GPUs of one machine (nvidia-h100-x2 or -x4), for a time-limited
# call: build once, then on each GPU its own work (CUDA_VISIBLE_DEVICES; each GPU has its own lock): on
# card 0 the solutions graded (GRADE_ARGS, default all items); on card 1, with AB=1, the solutions graded
# twice with the memory check and Nsight Compute off, in one pass a lab (COURSE_GRADER_ONE_PASS=1) and in
# two (what the second process of each lab costs, on one card); on card 2 the starters graded (memory check and Nsight Compute
# off); then on card k the ctest tests of ARGSk (k = 0..3; a card past the machine's last is its card
# k mod the count, after the others' work). ctest runs one test at a time on a card (measured on an
# H100: four at once on one GPU, sharing it through the lock, were slower than one after another).
# Known holes (label hole) are left out.
#
#   ARGS0="-R lab03_" ARGS1="-R lab02_" ARGS2="-R lab06_" ARGS3="-R lab05_" AB=1 bash .ci/gpu-cards.sh
#
# GRADE=0 leaves the gradings out; ROSTER_N=n grades a roster of n on card 1 first; COTENANT=1 runs
# .ci/gpu-cotenant.sh on card 1 first. LIMIT (default 570) seconds from the start bound everything after the
# build. Logs, the labs' own included, in $OUT/cards.tgz (one file: a call brings back only a few).
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-570}
L=/tmp/cards; rm -rf "$L"; mkdir -p "$L"
source .ci/gpu-build-first.sh
echo "== build: ${SECONDS}s on $(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd, -)"
left() { local l=$((LIMIT - SECONDS)); echo $((l > 10 ? l : 10)); }
grade_on() {  # $1: GPU, $2: log name, then grade's arguments
  local gpu=$1 log=$2 t0=$SECONDS; shift 2
  CUDA_VISIBLE_DEVICES=$gpu timeout "$(left)" build-gpu/grade "$@" > "$L/$log.log" 2>&1
  echo "rc $? in $((SECONDS - t0))s" >> "$L/$log.log"
}
cards() {  # $1: GPU, $2: ctest arguments, $3: log name (ctest keeps only one -LE: arguments with their own
  # -LE name hole in it themselves, e.g. "-LE ncu|hole")
  local skip=(-LE hole)
  [[ " $2 " == *" -LE "* ]] && skip=()
  CUDA_VISIBLE_DEVICES=$1 timeout "$(left)" ctest --test-dir build-gpu --output-on-failure "${skip[@]}" $2 > "$L/$3.log" 2>&1
  echo "rc $?" >> "$L/$3.log"
}
quiet=(--sanitizer off --profile off)
n=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
card() {  # $1: the work's card number
  local k=$1 gpu=$(($1 % n))
  if [[ ${GRADE:-1} == 1 ]]; then
    [[ $k == 0 ]] && grade_on $gpu solutions --tree solution --no-build ${GRADE_ARGS:-}
    if [[ $k == 1 && ${AB:-0} == 1 ]]; then
      (export COURSE_GRADER_ONE_PASS=1; grade_on $gpu solutions-one-pass --tree solution --no-build "${quiet[@]}")
      grade_on $gpu solutions-two-passes --tree solution --no-build "${quiet[@]}"
    fi
    [[ $k == 2 ]] && grade_on $gpu starters --tree student "${quiet[@]}"
  fi
  # ROSTER_N: card 1 grades a roster of that many generated submissions first (.ci/gpu-roster.sh, none graded
  # again alone): the batch's submissions are checked side by side on the one GPU.
  # COTENANT=1: card 1 grades Lab 01's solution beside a submission that keeps work queued (.ci/gpu-cotenant.sh).
  if [[ $k == 1 && ${COTENANT:-0} == 1 ]]; then
    CUDA_VISIBLE_DEVICES=$gpu BUILD=build-gpu OUT=$L timeout "$(left)" bash .ci/gpu-cotenant.sh > "$L/cotenant.log" 2>&1
    echo "rc $?" >> "$L/cotenant.log"
  fi
  if [[ $k == 1 && -n ${ROSTER_N:-} ]]; then
    CUDA_VISIBLE_DEVICES=$gpu BUILD=build-gpu N=$ROSTER_N K=0 ROSTER_LIMIT=$(left) bash .ci/gpu-roster.sh > "$L/roster.log" 2>&1
    tail -4 /tmp/roster-run/roster.log >> "$L/roster.log" 2>/dev/null
  fi
  local args="ARGS$k"
  [[ -n ${!args:-} ]] && cards $gpu "${!args}" gpu$k
}
if (( n >= 4 )); then
  for k in 0 1 2 3; do card $k & done
else
  for ((g = 0; g < n; ++g)); do ( for ((k = g; k < 4; k += n)); do card $k; done ) & done
fi
wait
for f in solutions solutions-one-pass solutions-two-passes starters; do
  [[ -f $L/$f.log ]] || continue
  echo "== $f ($(tail -1 "$L/$f.log"))"; grep -E "^Lab 0.*(PASS|FAIL)|^Total|^GPU:" "$L/$f.log" | sort -u
  grep -A12 "Where the time went" "$L/$f.log" | head -12
done
for f in gpu0 gpu1 gpu2 gpu3; do
  [[ -f $L/$f.log ]] || continue
  echo "== $f ($(tail -1 "$L/$f.log"); 124: cut at the limit)"; summary "$L/$f.log"
done
[[ -f $L/roster.log ]] && { echo "== roster (card 1)"; cat "$L/roster.log"; }
[[ -f $L/cotenant.log ]] && { echo "== a grading beside a submission that keeps work queued (card 1)"; cat "$L/cotenant.log"; }
# The labs' own logs of the last gradings (the measured pass says where its time with the GPU alone went).
mkdir -p "$L/lab-logs" && cp build-gpu/grading/*.log "$L/lab-logs/" 2>/dev/null
[[ -n ${OUT:-} ]] && tar czf "$OUT/cards.tgz" -C /tmp cards
echo "== done at ${SECONDS}s"
