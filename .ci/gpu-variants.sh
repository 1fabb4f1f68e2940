#!/usr/bin/env bash
# Builds the reference programs and the variants named in VARIANTS (lab:name or lab:correct:name), grades
# the solutions, each variant alone, then a generated roster (.ci/gpu-roster.sh). Output under $OUT.
#   VARIANTS="02:correct:dynamic_smem_512 04:load_before_column_check" bash .ci/gpu-variants.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-variants}; mkdir -p "$OUT"
T=""
for v in ${VARIANTS:-}; do lab=${v%%:*}; name=${v#*:}; T="$T lab${lab}_$( [[ $name == correct:* ]] && echo correct_${name#correct:} || echo wrong_$name)"; done
TARGETS="$T" bash .ci/gpu-smoke.sh > "$OUT/smoke.txt" 2>&1
grep -E "^== |memory and race|^Lab 0.: (clean|FAIL)|^Total" "$OUT/smoke.txt"
for v in ${VARIANTS:-}; do
  lab=${v%%:*}; name=${v#*:}; f="$OUT/v-$lab-${name#correct:}.txt"
  build-smoke/grade --no-build --lab "$lab" --variant "$name" > "$f" 2>&1
  echo "$lab $name: rc $? $(grep -E "^Lab $lab \(.*\): [0-9]" "$f")"
  grep -E "^      [a-z ]+: |x (CUB|cuBLAS|memcpy|copy) \(" "$f" | head -4
done
[[ -n ${ROSTER:-} ]] && N=${N:-30} K=${K:-6} bash .ci/gpu-roster.sh 2>&1 | tail -20
true
