#!/usr/bin/env bash
# Long timed windows and the GPU's performance monitors: grades one submission whose timed batches are
# long (by default Lab 07's wrong/global_atomics_only, 8 calls of tens of ms each, one global atomic an
# element) with the monitors' buffer at each size in BUFFERS (MiB, COURSE_TIMED_COUNTERS_BUFFER_MB) and
# the sampling steps printed (COURSE_TIMED_COUNTERS_STEPS), and prints how each ended, the samples each
# window's decodes found, whether the buffer overflowed, and why a window could not start.
#   BUFFERS="128 512" LAB=07 VARIANT=global_atomics_only bash .ci/gpu-counters-long.sh   (after a build)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
LAB=${LAB:-07} VARIANT=${VARIANT:-global_atomics_only}
L=${OUT:-/tmp}/counters-long; mkdir -p "$L"
for mb in ${BUFFERS:-128 512}; do
  SECONDS=0
  COURSE_TIMED_COUNTERS_STEPS=1 COURSE_TIMED_COUNTERS_BUFFER_MB=$mb \
    "$BUILD/grade" --lab "$LAB" --variant "$VARIANT" --no-build --sanitizer off --profile off > "$L/grade-$mb.log" 2>&1
  log=$(grep -oE "log [^]]+" "$L/grade-$mb.log" | tail -1 | cut -c5-)
  [[ -f $log ]] && cp "$log" "$L/lab-$mb.log"
  echo "== buffer $mb MiB: $(grep -E "^Lab $LAB .*: [0-9]+/[0-9]+" "$L/grade-$mb.log" | tail -1 | cut -c1-110) (${SECONDS}s)"
  grep -hE "^$LAB +speed" "$L/grade-$mb.log" | cut -c1-120
  # decodes: chunks, samples and overflow; windows; why one could not start
  grep -h "timed counters: decode " "$L/lab-$mb.log" 2>/dev/null |
    awk '{n++; s += $5; if ($5 > m) m = $5; if ($NF == 1) o++} END {printf "   decodes %d, samples %d (most in one %d), with overflow %d\n", n, s, m, o}'
  grep -h "timed counters: start .*samples" "$L/lab-$mb.log" 2>/dev/null | awk '{gsub(/[()]/, "", $(NF-1)); print $(NF-1)}' |
    sort -n | awk '{a[NR] = $1} END {if (NR) printf "   windows %d, samples a window: min %d, median %d, max %d\n", NR, a[1], a[int((NR+1)/2)], a[NR]}'
  grep -hoE "could not be (sampled|decoded|evaluated) \([^)]*\)" "$L/lab-$mb.log" 2>/dev/null | sort | uniq -c | head -3
done
