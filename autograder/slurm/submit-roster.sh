#!/usr/bin/env bash
# Grades a class roster on a Slurm cluster: submits grade-roster.sbatch as a job array of N tasks (task
# I grades shard I/N of the roster, on one GPU each), and a merge job that waits for the whole array
# (--dependency=afterany) and writes OUT/gradebook.csv and OUT/gradebook.json with grade --merge-only.
#
#   autograder/slurm/submit-roster.sh --roster /class/roster --gradebook /class/out --shards 8 \
#       --partition gpu --time 02:00:00
#
# The roster, the gradebook folder and the runner (build/grade, built on a machine like the compute
# nodes) must be on a file system the compute nodes share. Each task's output is in
# OUT/slurm/grade-<array job>_<task>.out, the merge's in OUT/slurm/merge-<job>.out.
#
# Re-running what failed. A student is graded once: grade writes OUT/students/<id>/.complete when
# the student is done, and skips complete students on the next run. So after a task failed (a node
# went down, the time limit ran out, ...), submit again with the same --roster, --gradebook and
# --shards: only the students still missing are graded, and a new merge job writes the whole
# gradebook. To re-run only the tasks that failed, name them (same --shards!):
#
#   sacct -j <array job> -X -o JobID,State          # which tasks failed (where accounting is on)
#   autograder/slurm/submit-roster.sh ... --shards 8 --tasks 2,5
#
# (The merge's output, and grade --merge-only, list the students not complete.) --regrade grades
# every student of the tasks again, complete or not.
#
# Exit status: 0 submitted; 1 sbatch failed; 2 bad arguments. The job ids are printed as
# ARRAY_JOB=<id> and MERGE_JOB=<id> lines, for scripts.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sbatch_script=$here/grade-roster.sbatch

usage() {
  cat >&2 << EOF
usage: $(basename "$0") --roster DIR --gradebook OUT [options] [-- GRADE_ARGS...]
  --roster DIR         one folder per student (its name is the student id), each with a copy of labs/
                       or just the lab sources
  --gradebook OUT      where results (OUT/students/<id>/) and the gradebook (OUT/gradebook.csv, .json) go
  --shards N           split the roster into N array tasks (default: the number of students, at most 8);
                       keep the same N when re-running tasks of a roster
  --tasks LIST         submit only these array tasks, e.g. 2,5 or 0-3 (default: 0-(N-1))
  --max-running M      at most M tasks at once (sbatch --array=...%M)
  --grade PATH         the runner (default: $repo/build/grade)
  --gpu | --no-gpu     request one GPU per task with --gres=gpu:1 (default: --gpu, but --no-gpu with
                       --allow-no-gpu)
  --gres SPEC          request this instead, e.g. gpu:h100:1
  --partition P        sbatch --partition (else SBATCH_PARTITION or the cluster's default)
  --account A          sbatch --account (else SBATCH_ACCOUNT)
  --time T             time limit of each task, e.g. 02:00:00 (else SBATCH_TIMELIMIT or the default)
  --cpus-per-task C    CPUs of each task; the task's builds use as many (grade --jobs C)
  --sbatch-opt OPT     one more option for both sbatch commands, e.g. --sbatch-opt=--mem=16G (repeatable)
  --allow-no-gpu       grade without a GPU: only build each lab (a dry run of the whole pipeline)
  --regrade            grade complete students again
  --lab NN             grade only this lab (repeatable)
  --seed S             the seed for the random inputs of every student
  --dry-run            print the sbatch commands, submit nothing
  -h, --help           this message
Options after -- go to grade as they are.
EOF
}
bad() {
  echo "submit-roster: $*" >&2
  echo "usage: $(basename "$0") --roster DIR --gradebook OUT [options] [-- GRADE_ARGS...]  (--help lists the options)" >&2
  exit 2
}
is_count() { [[ $1 =~ ^[0-9]+$ ]]; }

roster="" gradebook="" shards="" tasks="" max_running="" grade=""
gpu="" gres="gpu:1" dry_run=0
common=()      # options for both sbatch commands
grade_pass=()  # options for grade, in the array tasks (grade-roster.sbatch passes on --lab to the merge)
while (($#)); do
  case $1 in
    --roster | --gradebook | --shards | --tasks | --max-running | --grade | --gres | --partition | --account | \
      --time | --cpus-per-task | --sbatch-opt | --lab | --seed)
      (($# >= 2)) || bad "$1 needs a value"
      case $1 in
        --roster) roster=$2 ;;
        --gradebook) gradebook=$2 ;;
        --shards) shards=$2 ;;
        --tasks) tasks=$2 ;;
        --max-running) max_running=$2 ;;
        --grade) grade=$2 ;;
        --gres) gres=$2; gpu=1 ;;
        --partition) common+=(--partition "$2") ;;
        --account) common+=(--account "$2") ;;
        --time) common+=(--time "$2") ;;
        --cpus-per-task)
          if ! is_count "$2" || ((10#$2 < 1)); then bad "--cpus-per-task needs a positive integer, not '$2'"; fi
          common+=(--cpus-per-task "$2")
          ;;
        --sbatch-opt) common+=("$2") ;;
        --lab | --seed) grade_pass+=("$1" "$2") ;;
      esac
      shift 2
      ;;
    --*=*)
      # --option=value, for every option that takes a value
      opt=${1%%=*}
      val=${1#*=}
      shift
      set -- "$opt" "$val" "$@"
      ;;
    --gpu) gpu=1; shift ;;
    --no-gpu) gpu=0; shift ;;
    --allow-no-gpu | --regrade) grade_pass+=("$1"); shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; grade_pass+=(--); grade_pass+=("$@"); break ;;
    *) bad "unknown argument: $1" ;;
  esac
done

[[ -n $roster ]] || bad "--roster DIR is required"
[[ -n $gradebook ]] || bad "--gradebook OUT is required"
[[ -d $roster ]] || bad "the roster $roster is not a folder"
roster=$(cd "$roster" && pwd)
if [[ -z $grade ]]; then grade=$repo/build/grade; fi
[[ -x $grade ]] || bad "the runner $grade is not an executable (build it: cmake --build build --target grade; or give --grade)"
grade=$(cd "$(dirname "$grade")" && pwd)/$(basename "$grade")

# The students: the roster's folders (hidden ones aside), as grade counts them.
students=0
for d in "$roster"/*/; do
  [[ -d $d ]] && students=$((students + 1))
done
((students > 0)) || bad "the roster $roster holds no student folder"

if [[ -z $shards ]]; then
  shards=$((students < 8 ? students : 8))
fi
if ! is_count "$shards" || ((10#$shards < 1)); then bad "--shards needs a positive integer, not '$shards'"; fi
shards=$((10#$shards))
if [[ -n $max_running ]] && { ! is_count "$max_running" || ((10#$max_running < 1)); }; then
  bad "--max-running needs a positive integer, not '$max_running'"
fi
if [[ -z $tasks ]]; then
  tasks="0-$((shards - 1))"
else
  # A list of ids and ranges, each below the shard count.
  [[ $tasks =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] || bad "--tasks needs ids and ranges like 2,5 or 0-3, not '$tasks'"
  IFS=, read -r -a parts <<< "$tasks"
  for p in "${parts[@]}"; do
    for id in ${p//-/ }; do
      ((10#$id < shards)) || bad "task $id of --tasks is not below the shard count $shards"
    done
  done
fi
array=$tasks${max_running:+%$max_running}

# Without a GPU (--allow-no-gpu) no GPU is requested unless --gpu says so.
if [[ -z $gpu ]]; then
  gpu=1
  for a in "${grade_pass[@]}"; do
    if [[ $a == --allow-no-gpu ]]; then gpu=0; fi
  done
fi
gpu_opt=()
if ((gpu)); then gpu_opt=(--gres="$gres"); fi

if ((dry_run)); then
  [[ $gradebook == /* ]] || gradebook=$PWD/$gradebook
else
  command -v sbatch > /dev/null || { echo "submit-roster: sbatch not found: is this a Slurm login node?" >&2; exit 1; }
  mkdir -p "$gradebook/slurm" || bad "cannot create $gradebook/slurm"
  gradebook=$(cd "$gradebook" && pwd)
fi

paths=(--grade "$grade" --roster "$roster" --gradebook "$gradebook")
array_cmd=(sbatch --parsable --job-name=grade-roster --array="$array" --output="$gradebook/slurm/grade-%A_%a.out"
  "${gpu_opt[@]}" "${common[@]}" "$sbatch_script" "${paths[@]}" --shards "$shards" "${grade_pass[@]}")
merge_cmd=(sbatch --parsable --job-name=grade-roster-merge --output="$gradebook/slurm/merge-%j.out"
  --kill-on-invalid-dep=yes "${common[@]}")
merge_args=("$sbatch_script" "${paths[@]}" --merge-only)
for ((k = 0; k < ${#grade_pass[@]}; k++)); do
  [[ ${grade_pass[k]} == -- ]] && break
  if [[ ${grade_pass[k]} == --lab ]]; then merge_args+=(--lab "${grade_pass[k + 1]}"); fi
done

if ((dry_run)); then
  printf '%q ' "${array_cmd[@]}"
  echo
  printf '%q ' "${merge_cmd[@]}" "--dependency=afterany:<array job>" "${merge_args[@]}"
  echo
  exit 0
fi

echo "submit-roster: $students student(s) in $roster, $shards shard(s), tasks $array$( ((gpu)) && echo ", --gres=$gres per task")"
array_job=$("${array_cmd[@]}") || { echo "submit-roster: submitting the array failed" >&2; exit 1; }
array_job=${array_job%%;*}
merge_job=$("${merge_cmd[@]}" --dependency="afterany:$array_job" "${merge_args[@]}") || {
  echo "submit-roster: submitting the merge job failed (the array $array_job runs; merge by hand:" >&2
  echo "  $grade --roster $roster --gradebook $gradebook --merge-only)" >&2
  exit 1
}
merge_job=${merge_job%%;*}
echo "submit-roster: array job $array_job grades, merge job $merge_job writes $gradebook/gradebook.csv and .json"
echo "submit-roster: outputs in $gradebook/slurm/; follow them with squeue -j $array_job,$merge_job"
echo "ARRAY_JOB=$array_job"
echo "MERGE_JOB=$merge_job"
