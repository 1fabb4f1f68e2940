#!/usr/bin/env bash
# A short check for one call of a two-GPU machine, after a change to the timed measurements: build; then at
# once, the solutions graded on GPU 0 with only the timed and exact checks (no memory and race check, no
# Nsight Compute: their figures and where their time went) and the ctest tests of CTEST_ARGS on GPU 1 (the
# known-wrong variants the change could let through); then, where SERVICE_N is set, that many generated
# submissions through the grading service on both GPUs (.ci/gpu-service.sh, without the roster; at most
# SERVICE_LIMIT seconds, default 300).
#
#   CTEST_ARGS="-R lab01_wrong_(no_shared_memory|decoy_graded_kernel)" SERVICE_N=4 bash .ci/gpu-two-card-check.sh
#
# Logs in $OUT/two-card.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
L=/tmp/two-card; rm -rf "$L"; mkdir -p "$L"
STAGES=build bash .ci/gpu-validate.sh > "$L/build.log" 2>&1 || { echo "build failed"; tail -20 "$L/build.log"; exit 1; }
echo "== build: ${SECONDS}s; $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"
source .ci/debs-prefix.sh "$PWD/build-gpu-deps" > /dev/null 2>&1
(
  t0=$SECONDS
  CUDA_VISIBLE_DEVICES=0 build-gpu/grade --tree solution --no-build --sanitizer off --profile off > "$L/solutions.log" 2>&1
  echo "== solutions on GPU 0, timed and exact checks (rc $?, $((SECONDS - t0))s)"
  grep -E "^Lab 0.*(PASS|FAIL)|^Total|^GPU:" "$L/solutions.log" | sort -u
  grep -E "^0[1-6] .*(pass|FAIL)" "$L/solutions.log" | grep -E "[0-9]x|FAIL"
  grep -A9 "Where the time went" "$L/solutions.log" | head -10
  cp build-gpu/grading/lab0*_solution.log "$L/" 2> /dev/null
) > "$L/gpu0.txt" &
gpu0=$!
if [[ -n ${CTEST_ARGS:-} ]]; then
  t0=$SECONDS
  CUDA_VISIBLE_DEVICES=1 ctest --test-dir build-gpu --output-on-failure -L gpu ${CTEST_ARGS} > "$L/ctest.log" 2>&1
  echo "== ctest on GPU 1 (rc $?, $((SECONDS - t0))s):"
  grep -E "Test +#" "$L/ctest.log" | sed -E 's/^ *[0-9]+\/[0-9]+ //'
  grep -E "ended as expected|^[0-9]+: expected lab|  expected [a-z_]+, got" "$L/ctest.log" | sed 's/^[0-9]*: //'
fi
wait $gpu0
cat "$L/gpu0.txt"
if [[ -n ${SERVICE_N:-} ]]; then
  SKIP_ROSTER=1 N=$SERVICE_N C=${SERVICE_C:-$SERVICE_N} GPUS=${SERVICE_GPUS:-0,1} \
    timeout "${SERVICE_LIMIT:-300}" bash .ci/gpu-service.sh 2>&1 | tee "$L/service.txt"
  echo "== service (rc ${PIPESTATUS[0]}; 124: cut at SERVICE_LIMIT)"
  cp -r /tmp/service-run/svc-1/server.log /tmp/service-run/svc-1/results "$L/" 2> /dev/null
fi
[[ -n ${OUT:-} ]] && tar czf "$OUT/two-card.tgz" -C /tmp two-card
echo "== done at ${SECONDS}s"
