#!/usr/bin/env bash
# What the GPU's PM sampling sees, on a GPU machine: builds .ci/pm_probe.cu and runs it twice, once to
# sample another process's kernels with the metrics timed_counters.cpp collects (figures a kind of work),
# once to list which candidate metrics fit one pass (--greedy). Output in $OUT (or build-gpu/pm-probe).
#
#   bash .ci/gpu-pm-probe.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LOGS=${OUT:-build-gpu/pm-probe}
mkdir -p "$LOGS"
nvcc -O2 -arch=native -o "$LOGS/pm_probe" .ci/pm_probe.cu -lcupti -lcuda
"$LOGS/pm_probe" l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
  sm__cycles_active.sum sm__inst_executed_pipe_lsu.sum sm__ctas_launched.sum dram__bytes_read.sum dram__bytes_write.sum \
  2>&1 | grep -v "^  [a-z]" | tee "$LOGS/sampled.txt"
"$LOGS/pm_probe" --greedy l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum sm__cycles_active.sum \
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum sm__inst_executed_pipe_lsu.sum sm__ctas_launched.sum \
  smsp__inst_executed_pipe_tensor.sum smsp__warps_launched.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
  dram__bytes_read.sum dram__bytes_write.sum 2>&1 | grep GREEDY | tee "$LOGS/one-pass.txt"
