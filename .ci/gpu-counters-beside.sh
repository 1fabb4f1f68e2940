#!/usr/bin/env bash
# Do the timed calls' counters on one GPU see work on the machine's other GPUs? On nvidia-h100-x4: card 0
# grades the solutions of Labs 01 and 04 ROUNDS times (memory check and Nsight Compute off) with every
# sample of every counter window printed (COURSE_TIMED_COUNTERS_SAMPLES=1, into the labs' logs), while
# cards 1 to 3 keep other work going: Lab 01's one-element-per-thread variant, Lab 04's unpadded tile, and
# Lab 04's padded_32x34 test under Nsight Compute. Logs in $OUT/beside.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
L=/tmp/beside; rm -rf "$L"; mkdir -p "$L"
[[ -n ${OUT:-} ]] && trap 'tar czf "$OUT/beside.tgz" -C /tmp beside' EXIT
source .ci/gpu-build-first.sh
echo "== build: ${SECONDS}s on $(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd, -)"
quiet=(--no-build --sanitizer off --profile off)
load() {  # $1: GPU, then the command
  local gpu=$1; shift
  ( export CUDA_VISIBLE_DEVICES=$gpu; while [[ ! -f $L/stop ]]; do "$@" > /dev/null 2>&1; done ) &
}
if (( ${LOAD:-1} == 1 )); then
  load 1 build-gpu/grade "${quiet[@]}" --lab 01 --variant one_element_per_thread
  load 2 build-gpu/grade "${quiet[@]}" --lab 04 --variant unpadded_tile
  load 3 ctest --test-dir build-gpu -R lab04_wrong_padded_32x34
fi
sleep 5
for ((r = 1; r <= ${ROUNDS:-3}; ++r)); do
  COURSE_TIMED_COUNTERS_SAMPLES=1 CUDA_VISIBLE_DEVICES=0 build-gpu/grade "${quiet[@]}" --tree solution --lab 01 --lab 04 \
    > "$L/round-$r.log" 2>&1
  echo "== round $r: rc $?"; grep -E "^Lab 0.*(PASS|FAIL)" "$L/round-$r.log"
  for lab in 01 04; do
    cp "build-gpu/grading/lab${lab}_solution.log" "$L/lab${lab}-round-$r.log"
    grep -h "counted by the GPU" "$L/lab${lab}-round-$r.log" | grep -oE "[0-9.e+]+ blocks" | head -1
  done
done
touch "$L/stop"; wait
echo "== done at ${SECONDS}s"
