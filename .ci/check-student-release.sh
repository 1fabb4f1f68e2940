#!/usr/bin/env bash
# The student release, end to end on a machine without a GPU (the CPU test student_release_builds_and_grades
# runs it; it runs by hand too): export it (cmake/export_student.cmake), check that no solution and none
# of the grader's own test submissions are in it, configure it with the student preset (for sm_90: there
# may be no GPU to detect), build it, run its CPU tests, and have its grade compile every starter.
#
#   .ci/check-student-release.sh [--work DIR] [--keep] [--cmake CMAKE] [--ctest CTEST] [-- cmake -D options]
#
# DIR (default: a new temporary folder) receives the release in DIR/release, built in DIR/release/build.
# On success the release is removed unless --keep is given; on failure it is kept for a look.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work="" keep=0 cmake=cmake ctest=ctest
extra=()
while (($#)); do
  case $1 in
    --work) work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --cmake) cmake=$2; shift 2 ;;
    --ctest) ctest=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: .ci/check-student-release.sh [--work DIR] [--keep] [--cmake CMAKE] [--ctest CTEST] [-- cmake options]" >&2
       exit 2 ;;
  esac
done
made_work=0
if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/student-release.XXXXXX")
  made_work=1
fi
mkdir -p "$work"
rel=$work/release
jobs=$(nproc)
fail() { echo "check-student-release: FAIL: $*" >&2; exit 1; }
step() { echo; echo "== $*"; SECONDS=0; }
took() { echo "-- ${SECONDS}s"; }

# The export only reads the course: its git status (where it is a checkout) must not change.
status_of_source() { git -C "$src" status --porcelain 2>/dev/null || true; }
before=$(status_of_source)

step "export the release into $rel"
"$cmake" -DCOURSE_SOURCE_DIR="$src" -DCOURSE_STUDENT_RELEASE_DIR="$rel" -P "$src/cmake/export_student.cmake"
[[ $(status_of_source) == "$before" ]] || fail "exporting changed the course's source tree"
du -sh "$rel" | cut -f1 | sed 's/^/size: /'
took

step "nothing of the instructor's in it"
found=$(find "$rel" -type d \( -name solutions -o -name wrong -o -name correct \) -print)
[[ -z $found ]] || fail "must not be in the release: $found"
for p in autograder/slurm autograder/gradescope autograder/classroom .ci/run .ci/gpu-validate.sh .ci/gpu-smoke.sh \
         .ci/check-student-release.sh cmake/export_student.cmake docs/student-release-README.md .debs \
         docs/pages/instructors.md autograder/tests/roster_test.sh; do
  [[ ! -e $rel/$p ]] || fail "$p must not be in the release"
done
# No file of solutions/, under any name: each solution file that differs from the starter beside it (the
# headers are the same in both) must have no copy in the release.
mapfile -t shipped < <(cd "$rel" && find . -type f -print0 | xargs -0 sha256sum | cut -d' ' -f1 | sort -u)
declare -A in_release=()
for s in "${shipped[@]}"; do in_release[$s]=1; done
checked=0
while IFS= read -r -d '' f; do
  path=${f#"$src/solutions/"}
  if [[ -f $src/labs/$path ]] && cmp -s "$f" "$src/labs/$path"; then continue; fi
  sum=$(sha256sum "$f" | cut -d' ' -f1)
  [[ -z ${in_release[$sum]:-} ]] || fail "the release holds a copy of solutions/$path"
  checked=$((checked + 1))
done < <(find "$src/solutions" -type f -print0)
cmp -s "$rel/README.md" "$src/docs/student-release-README.md" || fail "README.md is not the students' README"
[[ -x $rel/.ci/install-deps ]] || fail ".ci/install-deps is missing or not executable"
echo "no solutions/, wrong/ or correct/; none of the ${checked} solution files under any name; ${#shipped[@]} distinct files"
took

step "configure with the student preset (CMAKE_CUDA_ARCHITECTURES=90)"
(cd "$rel" && "$cmake" --preset student -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}")
cache=$rel/build/CMakeCache.txt
grep -q '^COURSE_BUILD_WRONG_VARIANTS:BOOL=OFF$' "$cache" || fail "the release builds known-wrong variants"
# The course site's and the report schemas' tools are not even looked for.
! grep -qE '^(DOXYGEN_EXECUTABLE|JSONSCHEMA_CLI|XMLLINT|COURSE_CHROMIUM)[:=]' "$cache" ||
  fail "the student preset looks for Doxygen, Chromium or the schema validators"
took

step "build ($jobs jobs)"
"$cmake" --build "$rel/build" --parallel "$jobs"
took

step "the release's CPU tests (no GPU visible)"
CUDA_VISIBLE_DEVICES= "$ctest" --test-dir "$rel/build" -L cpu --output-on-failure --no-tests=error -j "$jobs"
took

starters=$(cd "$rel/labs" && ls -d [0-9][0-9]-*/ | wc -l)
step "grade --allow-no-gpu: all $starters starters compile"
set +e
out=$(cd "$rel" && CUDA_VISIBLE_DEVICES= build/grade --allow-no-gpu 2>&1)
rc=$?
set -e
echo "$out"
[[ $rc -eq 0 ]] || fail "grade --allow-no-gpu exited with $rc"
compiled=$(grep -cE '^Lab [0-9]{2} .*: compiles' <<<"$out" || true)
[[ $starters -gt 0 && $compiled -eq $starters ]] || fail "$compiled of the $starters starters compile"
set +e
out=$(cd "$rel" && build/grade --tree solution 2>&1)
rc=$?
set -e
[[ $rc -eq 2 && $out == *"student release"* ]] || fail "grade --tree solution in the release: exit $rc, '$out' (expected 2)"
echo "grade --tree solution: exit 2, $out"
took

step "the course site builds from the release (its pages link only to pages it has)"
if command -v doxygen > /dev/null && command -v dot > /dev/null; then
  (cd "$rel" && "$cmake" --preset student -B build-docs -DCOURSE_BUILD_DOCS=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
     "${extra[@]}" > "$work/build-docs.configure.log") || { cat "$work/build-docs.configure.log"; fail "configuring the site"; }
  "$cmake" --build "$rel/build-docs" --target docs
  [[ -f $rel/build-docs/docs/html/index.html ]] || fail "no build-docs/docs/html/index.html"
else
  echo "skipped: no Doxygen with Graphviz here"
fi
took

if ((keep)); then
  echo "release kept in $rel"
elif ((made_work)); then
  rm -rf "$work"
else
  rm -rf "$rel"
fi
echo "check-student-release: OK"
