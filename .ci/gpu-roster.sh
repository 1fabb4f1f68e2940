#!/usr/bin/env bash
# Roster grading measured on a GPU machine: N generated submissions (.ci/make-roster.py: solutions,
# starters, and labs drawn from the known-wrong and correct variants) graded with grade --roster, then
# K of them graded alone with grade --labs-dir and the same seed; every check's class must agree.
#
#   N=30 K=6 bash .ci/gpu-roster.sh          (after a build in $BUILD; the work in /tmp/roster-run, the
#                                             gradebook and the roster's log copied to $OUT when set)
#   RESUME=1 ...                             (go on with the roster in /tmp/roster-run, e.g. after
#                                             ROSTER_LIMIT cut a call short: graded students are kept)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-smoke}
N=${N:-30} K=${K:-6} SEED=${SEED:-20261122}
W=/tmp/roster-run
if [[ ${RESUME:-0} == 1 && -f $W/expected.json ]]; then
  N=$(ls "$W/roster" | wc -l)
else
  rm -rf "$W" && mkdir -p "$W"
  python3 .ci/make-roster.py . "$W/roster" "$N" > /dev/null
  mv "$W/roster/expected.json" "$W/expected.json"
fi
echo "== roster of $N on $(nproc) cores"
SECONDS=0
timeout "${ROSTER_LIMIT:-900}" "$BUILD/grade" --roster "$W/roster" --gradebook "$W/book" --seed "$SEED" >> "$W/roster.log" 2>&1
rc=$?
echo "roster: rc $rc, ${SECONDS}s wall"
if [[ $rc -eq 124 ]]; then echo "cut short by ROSTER_LIMIT: go on with RESUME=1"; exit 3; fi
tail -3 "$W/roster.log"
status=0
for s in $(ls "$W/roster" | shuf -n "$K" --random-source=<(yes)); do
  "$BUILD/grade" --labs-dir "$W/roster/$s" --seed "$SEED" --results "$W/alone-$s.json" --junit "$W/alone-$s.xml" \
    > "$W/alone-$s.log" 2>&1
  python3 - "$W/book/students/$s/results.json" "$W/alone-$s.json" "$s" <<'PY' || status=1
import json, sys
a, b, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
key = lambda t: (t["name"], t["status"], tuple(t.get("tags", [])), t["score"])
ta, tb = [key(t) for t in a["tests"]], [key(t) for t in b["tests"]]
diff = [(x, y) for x, y in zip(ta, tb) if x != y]
if len(ta) != len(tb) or diff:
    print(f"{s}: roster and alone DIFFER: {diff[:3]}")
    sys.exit(1)
print(f"{s}: roster and alone agree on all {len(ta)} checks (score {a['score']})")
PY
done
python3 - "$W/book/gradebook.json" "$W/expected.json" <<'PY'
import collections, json, sys
book, expected = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows = {r["student"]: r for r in book["students"]}
print(f"gradebook: {len(rows)} rows, missing {book['missing']}")
agree = collections.Counter()
for s, labs in sorted(expected.items()):
    for lab in rows[s]["labs"]:
        src = labs[lab["id"]]
        want = "pass" if src == "solution" or src.startswith("correct:") else src.split(":")[2] if src.startswith("wrong:") else "fail"
        ok = lab["class"] == want or (want == "fail" and lab["class"] != "pass")
        agree[ok] += 1
        if not ok:
            print(f"  {s} lab {lab['id']} from {src}: {lab['class']}")
print(f"lab results as their source predicts: {agree[True]} of {agree[True] + agree[False]}")
PY
[[ -n ${OUT:-} ]] && cp "$W/book/gradebook.csv" "$W/roster.log" "$OUT/" 2>/dev/null
exit $status
