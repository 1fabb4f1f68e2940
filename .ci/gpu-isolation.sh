#!/usr/bin/env bash
# The process boundary on a GPU (autograder/support/isolation.hpp), in one go:
# builds the course with its isolated labs (the default) and, beside it, the same labs in-process
# (-DCOURSE_ISOLATE_LABS=OFF); runs the isolated labs' ctest tests (solutions, starters, known-wrong and
# correct variants); then grades the solutions of those labs K times in each build, alternating, and
# prints every speed ratio side by side, with the median of each and their difference.
#
#   LABS="01 02" K=5 bash .ci/gpu-isolation.sh
#   RATIOS_ONLY=1 ...     only the side-by-side ratios (no ctest, no grading of every lab)
#   ISO=build-gpu ...     the isolated build is an existing one (e.g. gpu-validate.sh's): reused as it is
#
# Carry .debs/ on a machine without the course's Debian packages (see .ci/debs-prefix.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
LABS=${LABS:-$(ls -d autograder/labs/[0-9][0-9]-*/ | xargs -n1 basename | cut -c1-2 | paste -sd" ")}
ISO=${ISO:-build-iso}
K=${K:-5}
LOGS=${OUT:-build-iso/logs}
mkdir -p "$LOGS"
extra=(-DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BROWSER_TESTS=OFF)
source .ci/debs-prefix.sh "$PWD/build-iso-deps"
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$LOGS/gpu.txt"
regex="lab($(echo $LABS | tr ' ' '|'))_"

SECONDS=0
if [[ ! -x $ISO/grade ]]; then
cmake -S . -B "$ISO" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$LOGS/configure-iso.log" 2>&1 ||
  { tail -30 "$LOGS/configure-iso.log"; exit 1; }
fi
cmake -S . -B build-inproc -DCMAKE_BUILD_TYPE=Release "${extra[@]}" -DCOURSE_ISOLATE_LABS=OFF \
  -DCOURSE_BUILD_WRONG_VARIANTS=OFF > "$LOGS/configure-inproc.log" 2>&1 || { tail -30 "$LOGS/configure-inproc.log"; exit 1; }
mapfile -t targets < <(cmake --build "$ISO" --target help | grep -oE "${regex}[a-z0-9_]+" | grep -vE "_(code|audit|interface_[a-z]+)$|_slot[0-9]+(_host)?$" | sort -u)
if [[ -n ${RATIOS_ONLY:-} ]]; then targets=(); for l in $LABS; do targets+=(lab${l}_solution); done; fi
# -k: the variants refused while building (does_not_compile, ...) fail here by design; grade builds them.
cmake --build "$ISO" -j"$(nproc)" --target grade assemble_lab audit_lab "${targets[@]}" -- -k > "$LOGS/build-iso.log" 2>&1
[[ -x $ISO/graders/lab${LABS%% *}_solution ]] || { grep -m20 -E "error" "$LOGS/build-iso.log"; exit 1; }
inproc=(grade)
for l in $LABS; do inproc+=(lab${l}_solution); done
cmake --build build-inproc -j"$(nproc)" --target "${inproc[@]}" > "$LOGS/build-inproc.log" 2>&1 ||
  { grep -m20 -E "error" "$LOGS/build-inproc.log"; exit 1; }
echo "== builds: ${SECONDS}s"

labargs=()
for l in $LABS; do labargs+=(--lab "$l"); done
if [[ -z ${RATIOS_ONLY:-} ]]; then
SECONDS=0
ctest --test-dir "$ISO" -R "$regex" --output-on-failure -j1 > "$LOGS/ctest.log" 2>&1
ctest_rc=$?
echo "== ctest of labs $LABS (rc $ctest_rc, ${SECONDS}s):"
grep -E "tests passed|\*\*\*|Failed  |Not Run" "$LOGS/ctest.log" | tail -40
grep -E "^[0-9]+: expected lab|  expected [a-z_]+, got" "$LOGS/ctest.log" | sed 's/^[0-9]*: //' | head -20

# Every lab's solution and starter, graded in the default (isolated) build: all pass, all fail.
SECONDS=0
cmake --build "$ISO" -j"$(nproc)" --target lab01_solution lab02_solution lab03_solution lab04_solution \
  lab05_solution lab06_solution > "$LOGS/build-solutions.log" 2>&1 || { grep -m20 error "$LOGS/build-solutions.log"; exit 1; }
"$ISO"/grade --tree solution --no-build > "$LOGS/grade-solutions.log" 2>&1
sol_rc=$?
echo "== all six solutions, build-iso: rc $sol_rc in ${SECONDS}s (sanitizer and profile included)"
sed -n '/^lab  check/,$p' "$LOGS/grade-solutions.log" | grep -vE "^\s*$" | tail -60
SECONDS=0
"$ISO"/grade --tree student > "$LOGS/grade-starters.log" 2>&1
starter_rc=$?
echo "== all six starters, build-iso: rc $starter_rc (1 expected) in ${SECONDS}s"; grep -E "^Lab .*/|^Total" "$LOGS/grade-starters.log"
fi
SECONDS=0
build-inproc/grade --tree solution --no-build "${labargs[@]}" > "$LOGS/grade-inproc.log" 2>&1
echo "== solutions of labs $LABS, build-inproc: rc $? in ${SECONDS}s"

for i in $(seq 1 "$K"); do
  for b in iso inproc; do
    dir=build-inproc; [[ $b == iso ]] && dir=$ISO
    "$dir"/grade --tree solution --no-build "${labargs[@]}" --sanitizer off --profile off \
      --results "$LOGS/ratio-$b-$i.json" > "$LOGS/ratio-$b-$i.log" 2>&1
  done
done
python3 - "$LOGS" "$K" <<'PY'
import json, re, statistics, sys
logs, k = sys.argv[1], int(sys.argv[2])
fig = {}
for b in ("iso", "inproc"):
    for i in range(1, k + 1):
        try:
            r = json.load(open(f"{logs}/ratio-{b}-{i}.json"))
        except Exception as e:
            print("missing", b, i, e); continue
        for t in r.get("tests", []):
            if "speed" not in t["name"] and "slowdown" not in t["name"]: continue
            m = re.search(r"measured ([0-9.]+)", t.get("output", "")) or re.search(r"([0-9]+\.[0-9]+)x", t.get("output", ""))
            if m: fig.setdefault(t["name"], {}).setdefault(b, []).append(float(m.group(1)))
print(f"{'check':70s} {'in-process':>22s} {'isolated':>22s} {'bias':>7s}")
for name, d in fig.items():
    a, s = d.get("inproc", []), d.get("iso", [])
    if not a or not s: print(name, d); continue
    ma, ms = statistics.median(a), statistics.median(s)
    print(f"{name[:70]:70s} {ma:6.3f} ({min(a):.3f}-{max(a):.3f}) {ms:6.3f} ({min(s):.3f}-{max(s):.3f}) {100*(ms-ma)/ma:+6.1f}%")
PY
grep -h "boundary" "$LOGS"/ratio-iso-1.log | head -5
[[ -n ${RATIOS_ONLY:-} ]] || [[ $ctest_rc -eq 0 && $sol_rc -eq 0 && $starter_rc -eq 1 ]]
