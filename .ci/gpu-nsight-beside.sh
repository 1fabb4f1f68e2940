#!/usr/bin/env bash
# Could Nsight Compute share the GPU with other gradings' memory checks? (locks.hpp: it is measured work,
# with the GPU to itself; COURSE_GRADER_NSIGHT_SHARED=1, set here, makes it take the lock shared.) Do its
# counts move, and how much longer does it take, with memory checks beside it? On one GPU, with one seed:
#   1. the solutions' checks and Nsight Compute items, alone;
#   2. the same again while memory checks of all six labs run over and over beside them;
#   3. with the same load, the known-wrong variants that only Nsight Compute catches (ctest -L ncu), each of
#      which must still end as its class, while time is left (LIMIT seconds from the start, default 560).
# Then each Nsight Compute item's verdict and per-call counts (results.json notes), alone and beside the
# load, and how often the GPU had a profiled program and a memory check on it at the same time (sampled
# every second with nvidia-smi). Figures are compared within this one call only.
#
#   bash .ci/gpu-nsight-beside.sh          (after a build in $BUILD; logs under $OUT/nsight-beside when set)
#   LABS="01 04" LOAD_LABS="03 05" ...     (the labs measured, and those whose memory checks are the load:
#                                           a short load lets the measured grading in sooner)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
LIMIT=${LIMIT:-560}
SEED=${SEED:-20261127}
L=${OUT:-/tmp}/nsight-beside
rm -rf "$L" && mkdir -p "$L"
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
labs() { for l in $1; do printf -- '--lab %s ' "$l"; done; }
all=$(ls -d autograder/labs/[0-9][0-9]-*/ | xargs -n1 basename | cut -c1-2 | paste -sd" ")
MEASURED=$(labs "${LABS:-$all}") LOAD=$(labs "${LOAD_LABS:-$all}")
export COURSE_GRADER_NSIGHT_SHARED=1
grade() { "$BUILD/grade" --tree solution --no-build --seed "$SEED" "$@"; }

t0=$SECONDS
grade $MEASURED --sanitizer off --results "$L/alone.json" > "$L/alone.log" 2>&1
echo "== alone: rc $?, $((SECONDS - t0)) s"

# The load: the solutions' memory checks, one grading after another, until told to stop.
( while [[ ! -e $L/stop ]]; do grade $LOAD --sanitizer only --results "$L/load.json" >> "$L/load.log" 2>&1; done ) &
load=$!
# Who is on the GPU, every second: a program under ncu and one under compute-sanitizer at once?
( while [[ ! -e $L/stop ]]; do
    nvidia-smi --query-compute-apps=pid --format=csv,noheader | while read -r pid; do
      tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null; echo; done | grep -oE -- '--(profile|sanitizer)-workload' | sort -u | tr '\n' ' '
    echo; sleep 1; done > "$L/gpu-apps.txt" ) &
sampler=$!
sleep 15
t0=$SECONDS
grade $MEASURED --sanitizer off --results "$L/beside.json" > "$L/beside.log" 2>&1
echo "== beside memory checks: rc $?, $((SECONDS - t0)) s"
left=$((LIMIT - SECONDS))
if ((left > 60)); then
  timeout "$left" ctest --test-dir "$BUILD" -L ncu -LE hole > "$L/ncu-variants.log" 2>&1
  echo "== known-wrong variants caught by Nsight Compute, beside memory checks (rc $?; 124: cut at the limit)"
  grep -E "Test +#|tests passed" "$L/ncu-variants.log"
fi
touch "$L/stop"; wait "$sampler"; kill "$load" 2> /dev/null; wait 2> /dev/null
echo "== seconds with a profiled program and a memory check on the GPU at once: $(grep -c 'profile.*sanitizer\|sanitizer.*profile' "$L/gpu-apps.txt")" \
     "(of $(grep -c profile "$L/gpu-apps.txt") with a profiled program)"
python3 - "$L/alone.json" "$L/beside.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
# Each Nsight Compute item of results.json, its output holding the counts of each call.
items = lambda r: {t["name"]: t for t in r["tests"] if "(Nsight Compute)" in t["name"]}
ia, ib = items(a), items(b)
same = 0
for name in sorted(ia):
    x, y = ia[name], ib.get(name, {})
    oa, ob = x.get("output", "").splitlines(), y.get("output", "").splitlines()
    print(f"{name}: {x['status']} alone, {y.get('status')} beside; counts {'identical' if oa == ob else 'DIFFER'}")
    for p, q in zip(oa, ob):
        if p != q: print(f"   alone : {p}\n   beside: {q}")
    same += oa == ob and x["status"] == y.get("status")
print(f"Nsight Compute items with the same verdict and counts both ways: {same} of {len(ia)}")
PY
