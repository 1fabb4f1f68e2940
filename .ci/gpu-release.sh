#!/usr/bin/env bash
# The student release on a GPU machine: export it, build it with the student preset, grade the starters
# (all must fail), then fill in labs with the reference solutions' files and grade again (those must
# pass). The course's own build goes to $BUILD, the release to $BUILD/student-release.
#   bash .ci/gpu-release.sh [lab ids to fill in, default 01 04]
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-release-gpu}
fill=("${@:-01 04}")
extra=()
source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
cmake -S . -B "$BUILD" -DCOURSE_BUILD_WRONG_VARIANTS=OFF -DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BROWSER_TESTS=OFF \
  "${extra[@]}" > "$BUILD.log" 2>&1 && cmake --build "$BUILD" --target export-student >> "$BUILD.log" 2>&1 ||
  { tail -20 "$BUILD.log"; exit 1; }
rel="$BUILD/student-release"
[[ ! -e $rel/solutions ]] || { echo "FAIL: the release holds solutions/"; exit 1; }
cd "$rel"
SECONDS=0
cmake --preset student "${extra[@]}" > configure.log 2>&1 && cmake --build build -j"$(nproc)" > build.log 2>&1 ||
  { tail -20 configure.log build.log; exit 1; }
echo "== release configured and built in ${SECONDS}s"
build/grade > starters.txt 2>&1
starters_rc=$?
grep -E "^Lab 0. \(.*\): [0-9]|^Total" starters.txt
echo "== starters: rc $starters_rc (1 expected)"
status=0
[[ $starters_rc -eq 1 ]] || status=1
for id in ${fill[*]}; do
  dir=$(ls -d "../../solutions/$id"-*)
  cp "$dir"/*.cu "labs/$(basename "$dir")/"
  build/grade --lab "$id" > "filled-$id.txt" 2>&1
  rc=$?
  grep -E "^Lab $id \(.*\): [0-9]" "filled-$id.txt"
  echo "== lab $id filled in: rc $rc (0 expected)"
  [[ $rc -eq 0 ]] || status=1
done
exit $status
