#!/usr/bin/env bash
# Builds, then grades the solutions and chosen variants of Labs 03-05 (runner items off) and prints what the
# timed counters saw (shared-memory wavefronts) and where a sampling window's time goes
# (COURSE_TIMED_COUNTERS_STEPS). For calibrating the timed floors. Output under $OUT.
#   SPECS="05 solution|05 correct:dynamic_tile" bash .ci/gpu-counters-probe.sh
# METRICS="a,b": metrics to try beside the rules' own (COURSE_TIMED_COUNTERS_PROBE); each window prints
# their sums, with the blocks it counted.
# BUFFERS="128 512": grades each spec once for each size of the monitors' buffer, in MiB
# (COURSE_TIMED_COUNTERS_BUFFER_MB; unset: the default), and prints what the decodes found (samples a
# window, any overflow) and why a window could not start. Long windows, e.g.:
#   SPECS="07 global_atomics_only" BUFFERS="128 512" bash .ci/gpu-counters-probe.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-counters-probe}; mkdir -p "$OUT"
export COURSE_TIMED_COUNTERS_STEPS=1
[[ ${METRICS:-} ]] && export COURSE_TIMED_COUNTERS_PROBE=$METRICS
[[ ${NO_BUILD:-} ]] || STAGES=build bash .ci/gpu-validate.sh > /dev/null 2>&1 || { echo build failed; exit 1; }
IFS='|' read -ra specs <<< "${SPECS:-04 solution|03 solution|05 solution|03 correct:swizzled_warps_2x4|05 correct:dynamic_tile}"
read -ra buffers <<< "${BUFFERS:-default}"
for spec in "${specs[@]}"; do
for mb in "${buffers[@]}"; do
  set -- $spec
  if [[ $2 == solution ]]; then args=(--tree solution); else args=(--variant $2); fi
  if [[ $mb == default ]]; then unset COURSE_TIMED_COUNTERS_BUFFER_MB; echo "=== $1 $2"
  else export COURSE_TIMED_COUNTERS_BUFFER_MB=$mb; echo "=== $1 $2, buffer $mb MiB"; fi
  build-gpu/grade --lab $1 "${args[@]}" --no-build --sanitizer off --profile off > $OUT/g.log 2>&1
  grep -E "^Lab 0" $OUT/g.log | tail -1 | cut -c1-120
  grep -oE "speed: [^:]+: [0-9.]+x[^(]*|[0-9]+ calls in [0-9]+ sampled batches: .* load wavefronts a memory instruction|sampling took [^,]+|monitors cannot be sampled.*" $OUT/g.log | head -12
  log=$(grep -oE "log [^]]+" $OUT/g.log | tail -1 | cut -c5-)
  grep -h "timed counters:" $log | grep -v probe | sort | uniq -c | sort -rn | head -3
  grep -h "timed counters: probe metric" $log | sort -u
  # per probe metric: windows, and its sum a block counted (min / median / max over the windows)
  grep -h "timed counters: probe" $log $OUT/g.log | awk '{v=$5; b=$7; sub(/\)/,"",b); if (b>0) print $4, v/b, v}' |
    sort -k1,1 -k2,2g | awk '{n[$1]++; r[$1,n[$1]]=$2; s[$1]+=$3} END {for (m in n) printf "  %s: %d windows, a block min %.4g median %.4g max %.4g (sum %.4g)\n", m, n[m], r[m,1], r[m,int((n[m]+1)/2)], r[m,n[m]], s[m]}' 
  # the decodes (chunks of at most 1,024 samples): samples, any overflow; why a window could not start
  grep -h "timed counters: decode " $log |
    awk '{n++; s += $5; if ($5 > m) m = $5; if ($NF == 1) o++} END {if (n) printf "  decodes %d, samples %d (most in one %d), with overflow %d\n", n, s, m, o}'
  grep -hoE "could not be (sampled|decoded|evaluated) \([^)]*\)" $log | sort | uniq -c | head -3
done
done
