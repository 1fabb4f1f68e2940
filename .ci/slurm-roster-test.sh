#!/usr/bin/env bash
# The Slurm path of grading a class, end to end on a real single-node cluster (.ci/slurm-cluster.sh):
# makes a small roster, submits it with autograder/slurm/submit-roster.sh (--allow-no-gpu, 2 shards),
# waits for the array and the merge job, and checks the merged gradebook. Then re-submits one task to
# check that complete students are skipped, and checks that grade --merge-only names a student who is
# not complete.
#
#   .ci/slurm-roster-test.sh [path/to/build/grade]        (default: build/grade)
#
# The roster, one student per layout and failure:
#   starter    a copy of labs/ (the starters)                          every lab: compiles
#   solution   the reference solutions' sources at its top level      every lab: compiles
#   broken01   a copy of labs/, lab 01 with a syntax error in a region lab 01: does_not_compile
#   fopen02    the starters' sources at its top level, lab 02 calling
#              fopen inside a region                                  lab 02: forbidden_symbol
# GPUs are hidden from the jobs (CUDA_VISIBLE_DEVICES=), so the classes are the same on any machine.
#
# Environment: ROSTER_TEST_LABS  the labs graded (default "01 02"; "all" for every lab of the rubric)
#              ROSTER_TEST_WAIT_S  how long to wait for all the jobs, in all (default 1500 s)
#              KEEP=1  keep the temporary folder (it is kept anyway when the test fails)
# Uses the cluster .ci/slurm-cluster.sh started when it runs; otherwise starts it, and stops it at the end.
#
# Exit status: 0 all as expected; 1 a mismatch or a job that did not end (the jobs' outputs are
# printed); 77 skipped (not root, Slurm or munge not installed, grade has no roster mode, or a Slurm
# cluster that is not this script's answers here).
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
grade=${1:-$repo/build/grade}
labs_wanted=${ROSTER_TEST_LABS:-01 02}
wait_s=${ROSTER_TEST_WAIT_S:-1500}
cluster=$repo/.ci/slurm-cluster.sh
submit=$repo/autograder/slurm/submit-roster.sh

skip() {
  echo "slurm-roster-test: SKIPPED: $*"
  exit 77
}
failures=0
fail() {
  echo "slurm-roster-test: MISMATCH: $*"
  failures=$((failures + 1))
}
note() { echo "slurm-roster-test: $*"; }

# --- May it run here? -----------------------------------------------------------------------------
[[ $(id -u) -eq 0 ]] || skip "needs root (it starts a Slurm cluster on this machine)"
for p in sbatch squeue scontrol sinfo slurmctld slurmd munged; do
  command -v "$p" > /dev/null || [[ -x /usr/sbin/$p ]] || skip "Slurm is not installed ($p not found; Debian: apt-get install slurm-wlm munge)"
done
[[ -x $grade ]] || { echo "slurm-roster-test: no runner at $grade (build it: cmake --build build --target grade)"; exit 1; }
"$grade" --help 2> /dev/null | grep -q -- '--roster' || skip "$grade has no roster mode (--roster) yet"
command -v python3 > /dev/null || skip "python3 is needed to read gradebook.json"

export SLURM_CI_DIR=${SLURM_CI_DIR:-${TMPDIR:-/tmp}/course-slurm-ci}
started=0
if "$cluster" status > /dev/null 2>&1; then
  note "using the running test cluster ($SLURM_CI_DIR)"
elif sinfo -h > /dev/null 2>&1; then
  skip "a Slurm cluster not started by .ci/slurm-cluster.sh answers here; not submitting test jobs to it"
else
  "$cluster" start
  rc=$?
  if ((rc == 77)); then skip "the test cluster cannot start here (see above)"; fi
  ((rc == 0)) || { echo "slurm-roster-test: .ci/slurm-cluster.sh start failed (exit $rc)"; exit 1; }
  started=1
fi
export SLURM_CONF=$SLURM_CI_DIR/slurm.conf

work=$(mktemp -d "${TMPDIR:-/tmp}/slurm-roster-test.XXXXXX")
chmod 755 "$work"
finish() {
  local rc=$?
  if ((started)); then "$cluster" stop > /dev/null 2>&1 || true; fi
  if ((rc == 0)) && [[ -z ${KEEP:-} ]]; then rm -rf "$work"; else echo "slurm-roster-test: files kept in $work"; fi
}
trap finish EXIT

# --- The roster -----------------------------------------------------------------------------------
roster=$work/roster
out=$work/out
mkdir -p "$roster"
# The lab ids and their folders, from the rubric.
lab_dirs=()
for d in "$repo"/autograder/labs/[0-9][0-9]-*/; do
  [[ -f $d/rubric.json ]] && lab_dirs+=("$(basename "$d")")
done
((${#lab_dirs[@]})) || { echo "slurm-roster-test: no lab in $repo/autograder/labs"; exit 1; }
if [[ $labs_wanted == all ]]; then
  labs_wanted=""
  for d in "${lab_dirs[@]}"; do labs_wanted+="${d%%-*} "; done
fi
read -r -a labs <<< "$labs_wanted"
lab_args=()
for l in "${labs[@]}"; do lab_args+=(--lab "$l"); done

# The one .cu source of a lab folder (the handout's lab file).
lab_source() { find "$1" -maxdepth 1 -name '*.cu' | head -n 1; }
flat_copy() {  # flat_copy FROM_TREE TO: each lab's .cu at TO's top level
  mkdir -p "$2"
  for d in "${lab_dirs[@]}"; do cp "$(lab_source "$1/$d")" "$2/"; done
}
# insert_after FILE MARKER LINE: puts LINE after the first line holding MARKER; fails if none does.
insert_after() {
  grep -q -- "$2" "$1" || { echo "slurm-roster-test: no '$2' in $1"; exit 1; }
  awk -v m="$2" -v l="$3" '{ print } !done && index($0, m) { print l; done = 1 }' "$1" > "$1.new" && mv "$1.new" "$1"
}
cp -r "$repo/labs" "$roster/starter"
flat_copy "$repo/solutions" "$roster/solution"
cp -r "$repo/labs" "$roster/broken01"
insert_after "$(lab_source "$roster/broken01/01-sum-reduction")" "BEGIN STUDENT REGION block_sum_kernel" \
  "    int broken = ;  // a syntax error inside the region"
flat_copy "$repo/labs" "$roster/fopen02"
insert_after "$roster/fopen02/$(basename "$(lab_source "$repo/labs/02-max-reduce")")" "BEGIN STUDENT REGION launch" \
  '    if (std::FILE* f = std::fopen("notes.txt", "r")) std::fclose(f);  // file I/O: refused'

# expected STUDENT LAB: the class the gradebook must show.
expected() {
  case $1/$2 in
    broken01/01) echo does_not_compile ;;
    fopen02/02) echo forbidden_symbol ;;
    *) echo compiles ;;
  esac
}
students=(broken01 fopen02 solution starter)

# --- Submit and wait ------------------------------------------------------------------------------
export CUDA_VISIBLE_DEVICES=  # no GPU for the jobs, whatever this machine has
# The jobs of this run still pending or running: array_job and merge_job, only while their output goes
# to this run's folder. A cluster started afresh numbers its jobs from 1 again, so an id alone could name
# another run's job (a test left running from an earlier, interrupted run must not cancel this one's).
own_live_jobs() {
  local j
  for j in $(squeue -h -j "$array_job,$merge_job" -o %F 2> /dev/null | sort -u); do
    scontrol show job "$j" 2> /dev/null | grep -q "StdOut=$out/" && echo "$j"
  done
}
# submit_and_wait ARGS...: submits, then waits for the array and the merge; sets array_job, merge_job.
submit_and_wait() {
  local log=$work/submit.$SECONDS.log
  if ! "$submit" --roster "$roster" --gradebook "$out" --grade "$grade" --allow-no-gpu --shards 2 \
    "${lab_args[@]}" "$@" > "$log" 2>&1; then
    cat "$log"
    echo "slurm-roster-test: submit-roster.sh failed"
    exit 1
  fi
  cat "$log"
  array_job=$(sed -n 's/^ARRAY_JOB=//p' "$log")
  merge_job=$(sed -n 's/^MERGE_JOB=//p' "$log")
  [[ -n $array_job && -n $merge_job ]] || { echo "slurm-roster-test: no job ids from submit-roster.sh"; exit 1; }
  local start=$SECONDS
  while [[ -n $(own_live_jobs) ]]; do
    if ((SECONDS > deadline)); then
      squeue -j "$array_job,$merge_job"
      # shellcheck disable=SC2046
      scancel $(own_live_jobs) 2> /dev/null
      show_outputs
      echo "slurm-roster-test: the jobs did not end within ${wait_s}s (ROSTER_TEST_WAIT_S)"
      exit 1
    fi
    sleep 5
  done
  note "jobs $array_job (array) and $merge_job (merge) ended after $((SECONDS - start))s"
}
show_outputs() {
  for f in "$out"/slurm/*.out; do
    [[ -f $f ]] || continue
    echo "----- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}
# job_states JOB: "state exit" per job or array task, from scontrol (no accounting database here).
job_states() {
  scontrol -o show job "$1" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p'
}
check_jobs_ended_well() {
  local j s n
  for j in "$array_job" "$merge_job"; do
    n=0
    while read -r s; do
      n=$((n + 1))
      [[ $s == "COMPLETED 0:0" ]] || fail "job $j: a task ended as '$s', expected COMPLETED with exit 0"
    done < <(job_states "$j")
    ((n > 0)) || fail "job $j: scontrol knows nothing of it"
  done
}

note "roster of ${#students[@]} students in $roster; labs ${labs[*]}; runner $grade"
SECONDS=0
deadline=$wait_s
submit_and_wait
check_jobs_ended_well

# --- The gradebook --------------------------------------------------------------------------------
for s in "${students[@]}"; do
  [[ -f $out/students/$s/.complete ]] || fail "$s is not complete ($out/students/$s/.complete missing)"
  [[ -s $out/students/$s/results.json ]] || fail "$s has no results.json"
done
csv=$out/gradebook.csv
json=$out/gradebook.json
[[ -s $csv ]] || fail "no $csv"
[[ -s $json ]] || fail "no $json"
if [[ -s $csv && -s $json ]]; then
  expect_file=$work/expected.txt
  for s in "${students[@]}"; do
    for l in "${labs[@]}"; do echo "$s $l $(expected "$s" "$l")"; done
  done > "$expect_file"
  python3 - "$csv" "$json" "$expect_file" "$out/students" << 'EOF' || failures=$((failures + 1))
import csv, json, sys, pathlib
csv_path, json_path, expect_path, students_dir = sys.argv[1:5]
expected = {}
for line in open(expect_path):
    s, lab, cls = line.split()
    expected.setdefault(s, {})[lab] = cls
bad = []

# gradebook.csv: a header, then one row per student.
rows = list(csv.reader(open(csv_path, newline="")))
header, body = rows[0], [r for r in rows[1:] if r]
for col in ["student", "status", "points", "max_points"]:
    if col not in header:
        bad.append(f"gradebook.csv: no column {col} in {header}")
for lab in sorted({l for labs in expected.values() for l in labs}):
    for col in (f"lab{lab}_points", f"lab{lab}_max", f"lab{lab}_class"):
        if col not in header:
            bad.append(f"gradebook.csv: no column {col}")
if header[:4] != ["student", "status", "points", "max_points"]:
    bad.append(f"gradebook.csv: the header starts {header[:4]}, not student,status,points,max_points")
names = [r[0] for r in body]
if sorted(names) != sorted(expected):
    bad.append(f"gradebook.csv: students {sorted(names)}, expected one row each for {sorted(expected)}")
for r in body:
    row = dict(zip(header, r))
    s = row.get("student")
    for lab, cls in expected.get(s, {}).items():
        got = row.get(f"lab{lab}_class")
        if got != cls:
            bad.append(f"gradebook.csv: {s} lab {lab} is '{got}', expected '{cls}'")

# gradebook.json: the same students and classes. A list of student records, or an object holding one
# (under "students"), or an object keyed by student id; a record's labs are a list of {"id", "class"}
# or an object keyed by lab id.
data = json.load(open(json_path))
def records(d):
    if isinstance(d, list):
        return d
    if isinstance(d, dict):
        if isinstance(d.get("students"), (list, dict)):
            return records(d["students"])
        return [dict(v, student=v.get("student", k)) for k, v in d.items() if isinstance(v, dict)]
    return []
recs = records(data)
by_student = {}
for r in recs:
    s = r.get("student", r.get("id"))
    if s in by_student:
        bad.append(f"gradebook.json: {s} appears twice")
    by_student[s] = r
if sorted(map(str, by_student)) != sorted(expected):
    bad.append(f"gradebook.json: students {sorted(map(str, by_student))}, expected {sorted(expected)}")
def lab_class(rec, lab):
    labs = rec.get("labs")
    if isinstance(labs, dict):
        v = labs.get(lab, labs.get(f"lab{lab}"))
        return v.get("class") if isinstance(v, dict) else v
    for v in labs or []:
        if isinstance(v, dict) and str(v.get("id", v.get("lab"))) in (lab, f"lab{lab}"):
            return v.get("class")
    return rec.get(f"lab{lab}_class")
for s, labs in expected.items():
    rec = by_student.get(s)
    if rec is None:
        continue
    for lab, cls in labs.items():
        got = lab_class(rec, lab)
        if got != cls:
            bad.append(f"gradebook.json: {s} lab {lab} is '{got}', expected '{cls}'")

# Each student's results.json is Gradescope's format.
for s in expected:
    p = pathlib.Path(students_dir) / s / "results.json"
    try:
        r = json.load(open(p))
        if "tests" not in r and "score" not in r:
            bad.append(f"{p}: neither 'tests' nor 'score'")
    except (OSError, ValueError) as e:
        bad.append(f"{p}: {e}")

for b in bad:
    print("slurm-roster-test: MISMATCH:", b)
print("slurm-roster-test: gradebook.csv and gradebook.json:", "as expected" if not bad else f"{len(bad)} mismatch(es)")
sys.exit(1 if bad else 0)
EOF
fi
if ((failures)); then
  echo "----- $csv"
  cat "$csv" 2> /dev/null
  show_outputs
  echo "slurm-roster-test: FAILED ($failures)"
  exit 1
fi
cat "$csv"

# --- Resuming: complete students are skipped --------------------------------------------------------
# Each student's .complete and results.json with their modification times.
stamps() { for s in "${students[@]}"; do find "$out/students/$s" -maxdepth 1 \( -name .complete -o -name results.json \) -printf "%p %T@\n"; done | sort; }
before=$(stamps)
sleep 1
submit_and_wait --tasks 1
check_jobs_ended_well
after=$(stamps)
[[ $before == "$after" ]] || fail "re-submitting task 1 graded complete students again:"$'\n'"$before"$'\n'"---"$'\n'"$after"
[[ -s $csv ]] || fail "the second merge wrote no gradebook.csv"
rows=$(($(wc -l < "$csv") - 1))
((rows == ${#students[@]})) || fail "after the second merge gradebook.csv has $rows rows, not ${#students[@]}"

# --- The merge names a student who is not complete --------------------------------------------------
mv "$out/students/starter/.complete" "$work/starter.complete"
merge_log=$work/merge-incomplete.log
"$grade" --roster "$roster" --gradebook "$out" --merge-only > "$merge_log" 2>&1
rc=$?
((rc == 1)) || fail "grade --merge-only with a student not complete exited $rc, expected 1"
grep -q starter "$merge_log" || fail "grade --merge-only did not name the incomplete student 'starter': $(cat "$merge_log")"
mv "$work/starter.complete" "$out/students/starter/.complete"

if ((failures)); then
  show_outputs
  echo "slurm-roster-test: FAILED ($failures)"
  exit 1
fi
note "PASSED in ${SECONDS}s"
