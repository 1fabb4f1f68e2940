#!/usr/bin/env bash
# A copy graded with --labs-dir, without a GPU: its messages name the copy's own files and lines, never the
# grading slot the copy is built in. Lab 01 holds a refused region (an #include), Lab 02 a compile error
# in a region and an edit outside the regions.
#
#   labs_dir_messages_test.sh GRADE COURSE_ROOT
set -uo pipefail
grade=$1 root=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/labs-dir-messages.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sub="$work/my copy/labs"  # a space in the path, as a student's folder may have
mkdir -p "$sub/01-sum-reduction" "$sub/02-max-reduce"

# Inserts LINE as the first line of the Nth student region of FILE (into OUT); prints its line number.
insert_in_region() {
  local file=$1 n=$2 line=$3 out=$4
  awk -v n="$n" -v text="$line" '{ print } /BEGIN STUDENT REGION/ && ++seen == n { print text }' "$file" > "$out"
  grep -n "BEGIN STUDENT REGION" "$file" | sed -n "${n}p" | cut -d: -f1 | awk '{ print $1 + 1 }'
}
lab01=$sub/01-sum-reduction/sum_reduction.cu
lab02=$sub/02-max-reduce/max_reduce.cu
refused_line=$(insert_in_region "$root/labs/01-sum-reduction/sum_reduction.cu" 2 "#include <cstdio>" "$lab01")
error_line=$(insert_in_region "$root/labs/02-max-reduce/max_reduce.cu" 2 "    int not_declared = undeclared_name_here;" "$lab02")
sed -i '1s/$/ (edited)/' "$lab02"  # outside the regions: no effect, and said so

out=$(CUDA_VISIBLE_DEVICES= "$grade" --labs-dir "$sub" --lab 01 --lab 02 --allow-no-gpu 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || fail "expected exit 1 (a lab refused, a lab that does not compile), got $rc"
grep -q "grading/slots" <<<"$out" && fail "a message names a grading slot"
grep -qF "Lab 01 (Sum reduction): REFUSED (refused_region): $lab01, student region" <<<"$out" ||
  fail "the refusal does not name the copy's file ($lab01)"
grep -qF "line $refused_line: preprocessor lines" <<<"$out" || fail "the refusal does not name line $refused_line of the file"
grep -q "of the region" <<<"$out" && fail "the refusal counts lines from the region, not the file"
grep -qF "Lab 02 (Max reduction): DOES NOT COMPILE: $lab02($error_line): error" <<<"$out" ||
  fail "the compile error does not name $lab02($error_line)"
grep -qF "note: line 1 of your $lab02 differs from the course's file" <<<"$out" ||
  fail "the note on the edit outside the regions does not name line 1 of the copy's file"
echo "PASS: the messages name $sub's files and lines"
