#!/usr/bin/env bash
# Validates the whole course on a machine with an NVIDIA GPU, in one go:
# build, the full test suite (GPU tests included), the reference solutions graded (all must pass),
# the starters graded (all must fail), a build for another architecture refused with exit 78,
# and the timings. Logs go to build-gpu/validation, or with $OUT set to one archive, $OUT/validation.tgz.
#
#   bash .ci/gpu-validate.sh [extra cmake -D options]
#
# CTEST_ARGS (e.g. "-R lab0[1-3]") narrows the test stage, so that a long suite fits in several calls.
# STAGES (default "build test grade stability bench roster") picks parts, so that the whole fits in several
# calls of a time-limited machine: build (configure and build), test (ctest), grade (solutions and
# starters graded, six labs timed with the memory and race check, the solutions graded again with an
# instructor's secret, the wrong-architecture exit), stability (the solutions graded 10 times: identical
# verdicts; STABLE_ARGS, e.g. "--lab 07 --sanitizer off --profile off", narrows or lightens them;
# STABLE_LOAD, e.g. "--lab 01", grades those labs over and over beside them), bench
# (build/bench/bench: the references against the naive baselines and the peers, CSV and SVG in $LOGS;
# BENCH_ARGS, e.g. "--lab 07 --lab 08", narrows it), roster (.ci/gpu-roster.sh: 30 generated
# submissions, some also graded alone). A stage after build reuses $BUILD.
#
# A GPU machine without the course's Debian packages: put their .deb files in .debs/ (apt-get download
# doctest-dev libcli11-dev nlohmann-json3-dev) and carry that folder; they are unpacked into a prefix here.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
LOGS=${OUT:+$OUT/validation}
LOGS=${LOGS:-$BUILD/validation}
mkdir -p "$LOGS"
# On the device machine only a few files of $OUT come back: the logs travel as one archive.
[[ -n ${OUT:-} ]] && trap 'tar czf "$OUT/validation.tgz" -C "$OUT" validation && rm -rf "$LOGS"' EXIT
extra=()
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
command -v jsonschema > /dev/null || extra+=(-DCOURSE_REPORT_SCHEMA_TESTS=OFF)
command -v doxygen > /dev/null || extra+=(-DCOURSE_BUILD_DOCS=OFF)
command -v chromium > /dev/null || extra+=(-DCOURSE_BROWSER_TESTS=OFF)
set -- "${extra[@]}" "$@"
STAGES=${STAGES:-build test grade stability bench roster}
has() { [[ " $STAGES " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$LOGS/gpu.txt"
ctest_rc=0 sol_rc=0 starter_rc=1 arch_rc=78 stable_rc=0 roster_rc=0 secret_rc=0 bench_rc=0
if has build; then
SECONDS=0
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "$@" > "$LOGS/configure.log" 2>&1 || { tail -30 "$LOGS/configure.log"; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" > "$LOGS/build.log" 2>&1 || { grep -m20 -E "error" "$LOGS/build.log"; exit 1; }
echo "== build: ${SECONDS}s"
fi

if has test; then
SECONDS=0
ctest --test-dir "$BUILD" --output-on-failure -V -LE hole ${CTEST_ARGS:-} > "$LOGS/ctest.log" 2>&1
ctest_rc=$?
# The known holes (label "hole"): attacks the grader does not catch yet. Listed, not counted.
ctest --test-dir "$BUILD" -L hole ${CTEST_ARGS:-} > "$LOGS/ctest-holes.log" 2>&1
echo "== known holes (ctest -L hole; they fail until closed):"; grep -E "Test +#" "$LOGS/ctest-holes.log"
echo "== ctest (rc $ctest_rc, ${SECONDS}s):"; grep -E "tests passed|\*\*\*|Failed  |Not Run|Skipped" "$LOGS/ctest.log" | tail -40
echo "== sanitizer-labelled tests: $(ctest --test-dir "$BUILD" -N -L sanitizer | grep -c 'Test *#')"
echo "== known-wrong variants ($(grep -cE "Test +#[0-9]+: lab[0-9]+_wrong_" "$LOGS/ctest.log") tests):"
grep -E "ended as expected|^[0-9]+: expected lab|  expected [a-z_]+, got" "$LOGS/ctest.log" | sed 's/^[0-9]*: //' | sort | uniq -c | sort -rn | head -5
grep -E "^[0-9]+: expected lab|  expected [a-z_]+, got" "$LOGS/ctest.log" | sed 's/^[0-9]*: //'
grep -E "ended as expected" "$LOGS/ctest.log" | sed 's/^[0-9]*: //' | awk '{print $NF}' | sort | uniq -c
fi

if has grade; then
SECONDS=0
"$BUILD/grade" --tree solution --no-build > "$LOGS/grade-solutions.log" 2>&1
sol_rc=$?
echo "== solutions graded (rc $sol_rc, ${SECONDS}s wall)"
SECONDS=0
"$BUILD/grade" --tree student > "$LOGS/grade-starters.log" 2>&1
starter_rc=$?
echo "== starters graded (rc $starter_rc, ${SECONDS}s wall)"
cp "$BUILD"/grading/*.log "$LOGS/" 2>/dev/null || true

# With an instructor's secret (hidden sizes, inputs from the secret too) the solutions still pass.
printf 'validation secret %s\n' "$RANDOM$RANDOM" > "$LOGS/secret.txt"
SECONDS=0
"$BUILD/grade" --tree solution --no-build --sanitizer off --profile off --secret-file "$LOGS/secret.txt" \
  > "$LOGS/grade-solutions-secret.log" 2>&1
secret_rc=$?
echo "== solutions graded with a secret (rc $secret_rc, ${SECONDS}s): $(grep -E '^Total' "$LOGS/grade-solutions-secret.log")"
grep -m1 "instructor's secret" "$LOGS/grade-solutions-secret.log"

# A build without code for this GPU must say so and exit 78, not crash.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
other=75; [[ $arch == 75 ]] && other=80
cmake -S . -B "$BUILD-wrong-arch" -DCMAKE_CUDA_ARCHITECTURES=${other}-real "$@" > "$LOGS/wrong-arch.log" 2>&1 &&
  cmake --build "$BUILD-wrong-arch" -j"$(nproc)" --target grade lab01_solution >> "$LOGS/wrong-arch.log" 2>&1
"$BUILD-wrong-arch/grade" --tree solution --lab 01 --no-build >> "$LOGS/wrong-arch.log" 2>&1
arch_rc=$?
echo "== build for sm_${other} only, graded on sm_${arch}: exit $arch_rc (expected 78):"
grep "cannot grade" "$LOGS/wrong-arch.log"

echo; echo "== solutions"; sed -n '/^lab  check/,$p' "$LOGS/grade-solutions.log"
grep -E "^memory and race check" "$LOGS/grade-solutions.log"
echo; echo "== starters"; grep -E "^Lab |^Total" "$LOGS/grade-starters.log"
fi

if has stability; then
# The same submissions, ten (STABLE_N) fresh seeds: every check's verdict must be the same each time.
# STABLE_LOAD (grade's options, e.g. "--lab 01 --lab 07"): meanwhile, those labs' solutions are graded
# over and over beside them, whole (memory and race check, Nsight Compute), as another grading of a roster
# or a service would be, so the verdicts are checked on a busy machine too.
SECONDS=0
load_pid=
if [[ -n ${STABLE_LOAD:-} ]]; then
  setsid bash -c "while :; do \"$BUILD/grade\" --tree solution --no-build $STABLE_LOAD >> \"$LOGS/stable-load.log\" 2>&1; done" &
  load_pid=$!
fi
for i in $(seq 1 "${STABLE_N:-10}"); do
  "$BUILD/grade" --tree solution --no-build ${STABLE_ARGS:-} --results "$LOGS/stable-$i.json" > "$LOGS/stable-$i.log" 2>&1
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(' '.join(t['status'][0] for t in r['tests']), r['score'])" \
    "$LOGS/stable-$i.json"
done | tee "$LOGS/stable.txt" | sort | uniq -c
if [[ -n $load_pid ]]; then
  kill -TERM -- "-$load_pid" 2> /dev/null; sleep 5; kill -KILL -- "-$load_pid" 2> /dev/null
  echo "== beside them: $(grep -c '^Total' "$LOGS/stable-load.log") gradings of $STABLE_LOAD"
fi
[[ $(sort -u "$LOGS/stable.txt" | wc -l) -eq 1 ]] || stable_rc=1
echo "== stability: ${STABLE_N:-10} gradings of the solutions, $(sort -u "$LOGS/stable.txt" | wc -l) distinct verdict(s), ${SECONDS}s"
fi

if has bench; then
SECONDS=0
timeout 300 "$BUILD/bench/bench" ${BENCH_ARGS:-} --rounds 15 --csv "$LOGS/bench.csv" --svg "$LOGS/bench.svg" > "$LOGS/bench.txt" 2>&1
bench_rc=$?
echo "== bench (rc $bench_rc, ${SECONDS}s):"; sed -n '/^Copy roofline/,$p' "$LOGS/bench.txt"
fi

if has roster; then
BUILD="$BUILD" N=${N:-30} K=${K:-3} bash .ci/gpu-roster.sh
roster_rc=$?
fi
# Solutions must pass (0) and the starters must fail (1); ctest must be green.
[[ $ctest_rc -eq 0 && $sol_rc -eq 0 && $starter_rc -eq 1 && $arch_rc -eq 78 && $stable_rc -eq 0 && $roster_rc -eq 0 &&
   $secret_rc -eq 0 && $bench_rc -eq 0 ]]
