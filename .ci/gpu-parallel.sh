#!/usr/bin/env bash
# The validation of .ci/gpu-validate.sh spread over every GPU of a machine: one queue of jobs, one worker
# per GPU (CUDA_VISIBLE_DEVICES), each job on one GPU alone (the GPU lock is a GPU's own, so workers never
# wait for one another). Figures are compared only within a job, on one GPU.
#
#   JOBS="tests grade stability" bash .ci/gpu-parallel.sh      (after STAGES=build bash .ci/gpu-validate.sh)
#
# tests: every GPU test of ctest (CTEST_ARGS narrows them; the known holes are left out and listed apart),
#        one job each.
# grade: the solutions graded, the starters graded, the solutions with an instructor's secret, and a build
#        for another architecture refused with exit 78: four jobs.
# stability: the solutions graded STABLE_N (10) more times, one job each: every check's verdict must be the
#        same in all of them and in the grade job's.
# DONE=FILE: leave out the jobs that FILE (a results.txt of an earlier call) shows as run, so that a long
# validation goes on over several calls.
# A job that would end past LIMIT seconds (default 540) from the start is not begun: it is listed as not run.
# WORKERS=N: at most N GPUs at once (default: all).
# Logs: $OUT/parallel.tgz when $OUT is set, else $BUILD/parallel.
#
# Side by side, jobs run slower: measured on four H100s of one 64-core host, a grading of the solutions
# took 475 s (229 s on a GPU of its own), Nsight Compute runs wait for each other (one at a time a machine),
# and 46 of the 124 known-wrong tests that ran went past their 12 s limit and ended as timeout, which on a
# GPU alone they do not. The verdicts that need no time limit (solutions, stability, correct variants,
# starters) are what this script is for; run the known-wrong tests with WORKERS=1 or 2, or through
# gpu-validate.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
LIMIT=${LIMIT:-540}
JOBS=${JOBS:-tests grade stability}
LOGS=${OUT:+$OUT/parallel}
LOGS=${LOGS:-$BUILD/parallel}
rm -rf "$LOGS" && mkdir -p "$LOGS/jobs"
[[ -n ${OUT:-} ]] && trap 'tar czf "$OUT/parallel.tgz" -C "$OUT" parallel && rm -rf "$LOGS"' EXIT
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
extra=()
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
gpus=$(nvidia-smi -L | grep -c '^GPU')
[[ $gpus -ge 1 ]] || { echo "no GPU"; exit 1; }
[[ -n ${WORKERS:-} && ${WORKERS} -lt $gpus ]] && gpus=$WORKERS
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv,noheader | tee "$LOGS/gpus.txt"
has() { [[ " $JOBS " == *" $1 "* ]]; }

# The queue: one line a job, "name<TAB>command"; the longest kinds first so that the end is even.
queue=$LOGS/queue.txt
: > "$queue"
if has grade; then
  printf 'solutions\t%s\n' "$BUILD/grade --tree solution --no-build --results \$J.json" >> "$queue"
fi
if has stability; then
  for i in $(seq 1 "${STABLE_N:-10}"); do
    printf 'stable-%02d\t%s\n' "$i" "$BUILD/grade --tree solution --no-build --results \$J.json" >> "$queue"
  done
fi
if has grade; then
  printf 'starters\t%s\n' "$BUILD/grade --tree student" >> "$queue"
  printf 'validation secret %s\n' "$RANDOM$RANDOM" > "$LOGS/secret.txt"
  printf 'secret\t%s\n' "$BUILD/grade --tree solution --no-build --sanitizer off --profile off --secret-file $LOGS/secret.txt" >> "$queue"
fi
if has tests; then
  # Correct variants (full runner items) before the known-wrong ones: the longest first.
  ctest --test-dir "$BUILD" -N -L gpu -LE hole ${CTEST_ARGS:-} | sed -n 's/^ *Test *#[0-9]*: //p' |
    awk '{print (/_correct_/ ? 0 : 1), $0}' | sort -s -k1,1n | cut -d' ' -f2- > "$LOGS/tests.txt"
  while read -r t; do
    printf 'test:%s\t%s\n' "$t" "ctest --test-dir $BUILD --output-on-failure -V -R '^${t}\$'" >> "$queue"
  done < "$LOGS/tests.txt"
  ctest --test-dir "$BUILD" -N -L hole ${CTEST_ARGS:-} | sed -n 's/^ *Test *#[0-9]*: //p' > "$LOGS/holes.txt"
fi
if has grade; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  other=75; [[ $arch == 75 ]] && other=80
  printf 'wrong-arch\t%s\n' "cmake -S . -B $BUILD-wrong-arch -DCMAKE_CUDA_ARCHITECTURES=${other}-real -DCOURSE_BUILD_DOCS=OFF -DCOURSE_BROWSER_TESTS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF > /dev/null && cmake --build $BUILD-wrong-arch -j8 --target grade lab01_solution > /dev/null && $BUILD-wrong-arch/grade --tree solution --lab 01 --no-build" >> "$queue"
fi
if [[ -n ${DONE:-} && -f $DONE ]]; then
  awk -F'\t' 'NR == FNR { if ($2 != "not-run") done[$1] = 1; next } !($1 in done)' "$DONE" "$queue" > "$queue.left"
  echo "== $(( $(wc -l < "$queue") - $(wc -l < "$queue.left") )) jobs already run ($DONE)"
  mv "$queue.left" "$queue"
fi
total=$(wc -l < "$queue")
echo "== $total jobs on $gpus GPU(s), limit ${LIMIT}s"

# A worker a GPU: takes the next line of the queue (a counter under a lock) until none is left.
echo 0 > "$LOGS/next"
start=$(date +%s)
worker() {
  local gpu=$1 n line name cmd t0 rc
  while :; do
    n=$(flock "$LOGS/next" bash -c 'n=$(<"$0"); echo $((n + 1)) > "$0"; echo $n' "$LOGS/next")
    [[ $n -lt $total ]] || return 0
    line=$(sed -n "$((n + 1))p" "$queue")
    name=${line%%$'\t'*} cmd=${line#*$'\t'}
    local J="$LOGS/jobs/${name//[:\/]/_}"
    if (( $(date +%s) - start > LIMIT - 60 )); then
      printf '%s\tnot-run\t0\t%s\n' "$name" "$gpu" >> "$LOGS/results.txt"
      continue
    fi
    t0=$(date +%s)
    CUDA_VISIBLE_DEVICES=$gpu J=$J timeout $((LIMIT - ($(date +%s) - start))) bash -c "J=$J; $cmd" > "$J.log" 2>&1
    rc=$?
    [[ $rc == 0 && $name == test:* ]] && grep -q '(Skipped)' "$J.log" && rc=skipped
    printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$gpu" >> "$LOGS/results.txt"
  done
}
: > "$LOGS/results.txt"
for g in $(seq 0 $((gpus - 1))); do worker "$g" & done
wait
echo "== all jobs ended after $(( $(date +%s) - start ))s"

# The verdicts. Expected: solutions and stability 0, starters 1, secret 0, wrong-arch 78, tests 0.
status=0
expect() { case $1 in starters) echo 1 ;; wrong-arch) echo 78 ;; *) echo 0 ;; esac; }
while IFS=$'\t' read -r name rc secs gpu; do
  want=$(expect "$name")
  if [[ $rc == not-run || $rc == skipped ]]; then
    echo "NOT RUN  $name ($rc)"; status=1
  elif false; then
    echo "NOT RUN  $name"; status=1
  elif [[ $rc != "$want" ]]; then
    echo "FAILED   $name (exit $rc, expected $want, ${secs}s on GPU $gpu)"; status=1
  fi
done < "$LOGS/results.txt"
if has tests; then
  echo "== tests: $(grep -c '^test:' "$LOGS/results.txt") run, $(awk -F'\t' '$1 ~ /^test:/ && $2 == 0' "$LOGS/results.txt" | wc -l) passed;" \
       "$(grep -h 'ended as expected' "$LOGS"/jobs/test_*.log 2>/dev/null | awk '{print $NF}' | sort | uniq -c | tr '\n' ' ')"
  echo "== known holes (left out; they fail until closed): $(tr '\n' ' ' < "$LOGS/holes.txt")"
  echo "== slowest tests:"; awk -F'\t' '$1 ~ /^test:/' "$LOGS/results.txt" | sort -t$'\t' -k3,3nr | head -5 | cut -f1,3
fi
for j in solutions starters secret wrong-arch; do
  [[ -f $LOGS/jobs/$j.log ]] || continue
  echo "== $j: $(grep -E '^Total|cannot grade' "$LOGS/jobs/$j.log" | head -2 | tr '\n' ' ')"
done
if [[ -f $LOGS/jobs/solutions.log ]]; then
  sed -n '/^lab  check/,$p' "$LOGS/jobs/solutions.log" | grep -E "speed|x |Total" | head -30
fi
if has stability; then
  for f in "$LOGS"/jobs/solutions.json "$LOGS"/jobs/stable-*.json; do
    [[ -f $f ]] && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(' '.join(t['status'][0] for t in r['tests']), r['score'])" "$f"
  done > "$LOGS/stable.txt"
  echo "== stability: $(wc -l < "$LOGS/stable.txt") gradings of the solutions, $(sort -u "$LOGS/stable.txt" | wc -l) distinct verdict(s)"
  [[ $(sort -u "$LOGS/stable.txt" | wc -l) -le 1 ]] || status=1
fi
exit $status
