#!/usr/bin/env bash
# Roster grading without a GPU: every submission is built in a grading slot (no reconfigure) and the
# gradebook records, per lab, "compiles" or the class that stopped it. Also: shards merge into the same
# gradebook, an interrupted roster resumes, and no file of the roster is changed.
#   roster_test.sh GRADE SOURCE_DIR
set -euo pipefail
grade=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
roster=$work/roster
mkdir -p "$roster"/{ada,ben,cy,dee,eve,fay}
cp -r "$src/labs/01-sum-reduction" "$src/labs/02-max-reduce" "$roster/ada/"             # the starters, as labs/
cp "$src/solutions/01-sum-reduction/sum_reduction.cu" "$src/solutions/02-max-reduce/max_reduce.cu" "$roster/ben/"  # flat
mkdir -p "$roster/cy/labs/01-sum-reduction"                                             # labs/NN-name/ inside
sed 's|^\( *\)// TODO.*|\1this is not C++;|' "$src/labs/01-sum-reduction/sum_reduction.cu" \
  > "$roster/cy/labs/01-sum-reduction/sum_reduction.cu"
cp "$src/labs/02-max-reduce/max_reduce.cu" "$roster/dee/"
python3 - "$roster/dee/max_reduce.cu" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
# The launcher's region starts with a call the course forbids (a stream of its own).
s = re.sub(r'^(\s*// BEGIN STUDENT REGION launch\n)', r'\1    { cudaStream_t st; (void)cudaStreamCreate(&st); }\n', s, count=1, flags=re.M)
open(p, 'w').write(s)
PY
grep -q cudaStreamCreate "$roster/dee/max_reduce.cu"
# A cheat: links to the course's own solutions, as a file (lab 01) and through a linked folder (lab 02).
# The grader copies a submission's files, so it must not follow them.
ln -s "$src/solutions/01-sum-reduction/sum_reduction.cu" "$roster/fay/sum_reduction.cu"
ln -s "$src/solutions/02-max-reduce" "$roster/fay/02-max-reduce"
# A student's folder that is a link (to the course's solutions) is no student: not graded, and said so.
ln -s "$src/solutions" "$roster/mallory"
# A source past the size a lab's file may have (1 MiB): refused before it is built, and said so.
mkdir -p "$roster/gus"
{ cat "$src/labs/01-sum-reduction/sum_reduction.cu"; head -c 1100000 /dev/zero | tr '\0' '/'; echo; } \
  > "$roster/gus/sum_reduction.cu"
before=$(cd "$roster" && find . -type f -exec sha256sum {} + | sort)

run() { CUDA_VISIBLE_DEVICES= "$grade" --roster "$roster" --allow-no-gpu --lab 01 --lab 02 "$@"; }
run --gradebook "$work/shards" --shard 0/2 | tee "$work/log0"
run --gradebook "$work/shards" --shard 1/2 | tee "$work/log1"
run --gradebook "$work/whole" 2> "$work/err-whole" | tee "$work/log-whole"
cat "$work/err-whole"
fail() { echo "FAIL: $*"; exit 1; }
expect_row() {  # book student lab01_class lab02_class
  local row
  row=$(grep "^$2," "$1/gradebook.csv") || fail "no row for $2 in $1"
  IFS=, read -r -a f <<< "$row"
  [[ ${f[6]} == "$3" && ${f[9]} == "$4" ]] || fail "$2: lab01 ${f[6]}, lab02 ${f[9]}; expected $3, $4"
  echo "ok: $2 lab01 $3, lab02 $4"
}
for book in "$work/shards" "$work/whole"; do
  [[ $(wc -l < "$book/gradebook.csv") -eq 8 ]] || fail "$book: expected a header and 7 rows"
  ! grep -q "^mallory," "$book/gradebook.csv" || fail "$book: the linked folder mallory was graded"
  expect_row "$book" ada compiles compiles
  expect_row "$book" ben compiles compiles
  expect_row "$book" cy does_not_compile does_not_compile
  expect_row "$book" dee does_not_compile forbidden_symbol
  expect_row "$book" eve does_not_compile does_not_compile
  expect_row "$book" fay does_not_compile does_not_compile
  expect_row "$book" gus does_not_compile does_not_compile
done
grep -q "mallory is a symbolic link: not graded" "$work/err-whole" || fail "the linked student folder was not reported"
grep -qE "holds 11[0-9]{5} bytes: a lab.{1,6}s file is at most 1048576 bytes" "$work/whole/students/gus/junit.xml" ||
  fail "gus's report does not say the file is too large"
grep -q "is a symbolic link or lies outside the submission" "$work/whole/students/fay/junit.xml" ||
  fail "fay's report does not say her files are links"
grep -q "cudaStreamCreate" "$work/whole/students/dee/junit.xml" || fail "dee's report does not name the forbidden call"
grep -q "has no sum_reduction.cu" "$work/whole/students/eve/junit.xml" || fail "eve's report does not say the file is missing"
# Resume: nothing left to grade; the merge finds everyone.
run --gradebook "$work/whole" > "$work/again"
grep -q "7 students, 0 to grade" "$work/again" || fail "a second run graded again"
CUDA_VISIBLE_DEVICES= "$grade" --roster "$roster" --gradebook "$work/whole" --merge-only > "$work/merge"
grep -q "7 of 7 students" "$work/merge" || fail "--merge-only did not find every student"
# A student not yet graded is named by --merge-only, which then fails.
rm "$work/whole/students/ben/.complete"
if CUDA_VISIBLE_DEVICES= "$grade" --roster "$roster" --gradebook "$work/whole" --merge-only > "$work/merge"; then
  fail "--merge-only succeeded with a student missing"
fi
grep -q "not graded yet: ben" "$work/merge" || fail "--merge-only did not name the missing student"
after=$(cd "$roster" && find . -type f -exec sha256sum {} + | sort)
[[ $before == "$after" ]] || fail "the roster's files changed"
echo "roster test: all as expected"
