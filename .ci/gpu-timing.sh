#!/usr/bin/env bash
# Where a grading's time goes, on a GPU machine: builds the grader and the reference solutions only, then
# grades them three ways (the labs' checks alone; the memory and race check alone; the bank-conflict
# check alone) and prints every check's seconds from results.json, and each compute-sanitizer run's.
#
#   OUT=/some/dir BUILD=build-timing bash .ci/gpu-timing.sh
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-timing}
LOGS=${OUT:-$BUILD/timing}
mkdir -p "$LOGS"
source .ci/build-solutions.sh
SECONDS=0
build_solutions || exit 1
echo "== build: ${SECONDS}s"
show() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tests"]:
    print(f'{t.get("execution_time", 0):7.2f} s  {t["status"]:6} {t["name"][:90]}')
print(f'{r.get("execution_time", 0):7.2f} s  total')
PY
}
for mode in "--sanitizer off --profile off" "--sanitizer only" "--sanitizer off --profile require"; do
  SECONDS=0
  "$BUILD/grade" --tree solution --no-build $mode --results "$LOGS/t.json" > "$LOGS/t.log" 2>&1
  echo "== grade $mode: rc $? ${SECONDS}s wall"
  grep -E "^memory and race check|^Lab [0-9]{2}: (clean|FAIL)" "$LOGS/t.log"
  grep -hE "compute-sanitizer: " "$LOGS/t.log" "$LOGS/t.json" | sed 's/^ *//' | sort -u | head -12
  show "$LOGS/t.json"
done
