#!/usr/bin/env bash
# Do the measured checks on one GPU move when the host's other GPU is busy? On a machine with two GPUs,
# with one seed, the solutions' measured and exact checks (no memory and race check, no Nsight Compute) are
# graded on GPU 0:
#   1. with GPU 1 idle, ROUNDS times (default 2);
#   2. while GPU 1 runs Nsight Compute gradings of the solutions over and over (what a second worker of the
#      grading service, or a roster's second shard, does beside it);
#   3. while GPU 1 runs the solutions' measured checks over and over.
# Prints each grading's ratios, Lab 06's detector answers, and the time the GPU was held alone, side by
# side. Figures are compared within this one call only.
#
#   bash .ci/gpu-beside-other-card.sh        (after STAGES=build bash .ci/gpu-validate.sh; logs in
#                                            $OUT/beside-other-card.tgz when $OUT is set)
#   LABS="06" ROUNDS=3 ...                   (the labs graded on GPU 0)
#   KINDS="ncu" ...                          (only beside Nsight Compute)
#
# Why: on two H200s, Lab 06's reference detector named a 2-way mystery stride 4-way while Nsight Compute
# ran on the other card; alone, on the same kind of card, it names every one.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
SEED=${SEED:-20261128}
ROUNDS=${ROUNDS:-2}
L=/tmp/beside-other-card
rm -rf "$L" && mkdir -p "$L"
source .ci/solutions-grading.sh
[[ $(nvidia-smi -L | wc -l) -ge 2 ]] || { echo "needs two GPUs"; exit 1; }
# One grading on GPU 0 into $L/$1.log, with its own copy of the build's grading folder.
measure() {
  SECONDS=0
  CUDA_VISIBLE_DEVICES=0 "$BUILD/grade" --tree solution --no-build --sanitizer off --profile off --seed "$SEED" \
    "${labs[@]}" > "$L/$1.log" 2>&1
  local rc=$? wall=$SECONDS
  cp "$BUILD"/grading/lab06_solution.log "$L/$1.lab06.log" 2> /dev/null
  echo "$1: rc $rc, ${wall}s wall"
}
# Work on GPU 1 until stopped: $1 is "ncu" or "measured".
load() {
  # The solutions' files graded as a submission (its own grading slot, so its logs are not the measured
  # grading's); with Nsight Compute required, most of its time is Nsight Compute.
  local args=(--sanitizer off --profile off)
  [[ $1 == ncu ]] && args=(--sanitizer off --profile require)
  while :; do
    CUDA_VISIBLE_DEVICES=1 "$BUILD/grade" --build-dir "$BUILD" --labs-dir solutions "${args[@]}" \
      --results "$L/load.json" > "$L/load-$1.log" 2>&1
  done
}
for r in $(seq 1 "$ROUNDS"); do measure "alone-$r"; done
for kind in ${KINDS:-ncu measured}; do
  load "$kind" &
  loader=$!
  # The load under way: for "ncu", until its grading is in Nsight Compute (a grading builds and checks every
  # lab before it profiles any, about 90 s on an H200; a measurement started earlier ran beside builds and
  # measured checks, not beside Nsight Compute), then about 130 s of profiling follow.
  if [[ $kind == ncu ]]; then
    for _ in $(seq 1 300); do grep -q "Nsight Compute)\.\.\." "$L/load-ncu.log" 2> /dev/null && break; sleep 1; done
    echo "the load is in Nsight Compute: $(grep -c "Nsight Compute)\.\.\." "$L/load-ncu.log") lab(s) begun"
  else
    sleep 20
  fi
  for r in $(seq 1 "$ROUNDS"); do measure "beside-$kind-$r"; done
  kill "$loader" 2> /dev/null
  pkill -f -- "--results $L/load.json" 2> /dev/null
  wait "$loader" 2> /dev/null
  sleep 3
done
echo "== ratios (each grading; the same seed):"
for f in "$L"/*.log; do
  case $f in *.lab06.log | */load-*) continue ;; esac
  printf '%-22s' "$(basename "$f" .log)"
  grep -E "^0[1-6] .*(pass|FAIL)" "$f" | grep -oE "[0-9.]+x" | tr '\n' ' '
  echo " | $(grep -cE "^0[1-6] .*FAIL" "$f") failed | GPU alone $(grep -E "^all " "$f" | awk '{print $5}') s"
done
echo "== Lab 06's detector, answers:"
for f in "$L"/*.lab06.log; do
  echo "$(basename "$f" .lab06.log): $(grep -hoE "stride [0-9]+ \([0-9]+-way\): answered [0-9]+" "$f" |
    awk '{w=$3; gsub(/[^0-9]/, "", w); if (w != $5) bad++} END {print NR " answers, " bad+0 " wrong"}')"
done
[[ -n ${OUT:-} ]] && tar czf "$OUT/beside-other-card.tgz" -C /tmp beside-other-card
true
