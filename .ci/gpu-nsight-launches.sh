#!/usr/bin/env bash
# What Nsight Compute profiles in a lab's profile workload, and how long it takes: the solutions of LABS
# graded with Nsight Compute required (no memory and race check), then, from each lab's ncu log, the
# profiled launches counted by process (the check program, the student's launch host, the peers' host) and
# by owner (the grader's probe, the lab's kernels, the rest). Then the Nsight-judged known-wrong TESTS (a
# ctest regular expression), which must still end as their class.
#
#   LABS="01 04 05" TESTS='lab04_wrong_padded_32x34|lab04_wrong_token_tile' bash .ci/gpu-nsight-launches.sh
#                                               (after a build in $BUILD; logs in $OUT/nsight-launches.tgz)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
L=/tmp/nsight-launches
rm -rf "$L" && mkdir -p "$L"
source .ci/solutions-grading.sh
SECONDS=0
"$BUILD/grade" --tree solution --no-build --sanitizer off --profile require "${labs[@]}" > "$L/grade.log" 2>&1
echo "== solutions with Nsight Compute: rc $?, ${SECONDS}s wall"
time_table "$L/grade.log"
grep -E "^0[1-9] .*Nsight Compute\)" "$L/grade.log"
cp "$BUILD"/grading/lab0*_solution.ncu.log "$L/" 2> /dev/null
python3 - "$L" <<'PY'
import collections, csv, glob, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.ncu.log"))):
    lines = open(path, errors="replace").read().splitlines()
    at = [i for i, l in enumerate(lines) if l.startswith('"ID"')]
    if not at:
        print(f"{os.path.basename(path)}: no report"); continue
    rows = list(csv.reader(lines[at[0]:]))
    head = rows[0]; p, k = head.index("Process Name"), head.index("Kernel Name")
    count = collections.Counter()
    for r in rows[2:]:
        if len(r) <= k or not r[k]: continue
        proc = os.path.basename(r[p])
        who = "peers" if proc.endswith("_peer_host") else "student host" if proc.endswith("_host") else "check program"
        what = "probe" if "course_bank_conflict_probe" in r[k] else "kernels"
        count[(who, what)] += 1
    print(f"{os.path.basename(path)}: {sum(count.values())} launches profiled: " +
          ", ".join(f"{w} {x} {n}" for (w, x), n in sorted(count.items())))
PY
if [[ -n ${TESTS:-} ]]; then
  ctest --test-dir "$BUILD" -R "$TESTS" --output-on-failure > "$L/tests.log" 2>&1
  echo "== tests ($TESTS): rc $?"; grep -E "Test +#|ended as expected|expected [a-z_]+, got" "$L/tests.log" | sed 's/^[0-9]*: //'
fi
[[ -n ${OUT:-} ]] && tar czf "$OUT/nsight-launches.tgz" -C /tmp nsight-launches
true
