#!/usr/bin/env bash
# Makes the Gradescope autograder bundle: a zip with setup.sh and run_autograder at its top level and the
# course's sources the grader needs beside them (Gradescope unpacks it into /autograder/source, runs
# setup.sh once, then run_autograder for each submission). Upload it as the assignment's autograder
# ("Zip file upload"), on a GPU-backed runner image that has the CUDA Toolkit.
#
#   autograder/gradescope/make-bundle.sh [--out FILE.zip] [--lab NN ...] [--secret-file FILE]
#
#   --out FILE.zip     where to write it (default: ./gradescope-autograder.zip); replaced if it exists
#   --lab NN           grade only this lab (repeatable): for one Gradescope assignment per lab
#   --secret-file FILE the instructor's secret (grade --secret-file): copied into the bundle as `secret`,
#                      which run_autograder passes on; students never see the bundle, so the hidden sizes
#                      and inputs stay theirs to guess
#
# What it holds, and only that (a file added to the course later stays out until it is named here):
# CMakeLists.txt, CMakePresets.json, cmake/, common/, labs/ (the starters: the grader builds every
# submission from the course's copy with the student's regions in it), autograder/ (the runner, its
# support, schemas and tests; each lab's checks, baselines and rubric, without its wrong/ and
# correct/ folders), .ci/install-deps and autograder/gradescope/. Never solutions/, the course site,
# build folders or version control. The course tree is only read.
#
# Exit status: 0 written; 1 it failed; 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() { echo "usage: $(basename "$0") [--out FILE.zip] [--lab NN ...] [--secret-file FILE]" >&2; }
bad() {
  echo "make-bundle: $*" >&2
  usage
  exit 2
}

out=$PWD/gradescope-autograder.zip
labs=()
secret=
while (($#)); do
  case $1 in
    --out | --lab | --secret-file)
      (($# >= 2)) || bad "$1 needs a value"
      case $1 in --out) out=$2 ;; --lab) labs+=("$2") ;; *) secret=$2 ;; esac
      shift 2
      ;;
    --out=*) out=${1#*=}; shift ;;
    --lab=*) labs+=("${1#*=}"); shift ;;
    --secret-file=*) secret=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) bad "unknown argument: $1" ;;
  esac
done
[[ $out == *.zip ]] || bad "--out must name a .zip file, not '$out'"
[[ -z $secret || -r $secret ]] || bad "--secret-file: cannot read '$secret'"
[[ $out == /* ]] || out=$PWD/$out
for i in "${!labs[@]}"; do
  l=${labs[i]}
  [[ $l =~ ^[0-9]{1,2}$ ]] || bad "--lab needs a lab number like 03, not '$l'"
  l=$(printf '%02d' "$((10#$l))")
  compgen -G "$repo/autograder/labs/$l-*/rubric.json" > /dev/null || bad "no lab $l in $repo/autograder/labs"
  labs[i]=$l
done

# --- What goes in ---------------------------------------------------------------------------------
entries=(CMakeLists.txt CMakePresets.json .ci/install-deps cmake common labs
  autograder/CMakeLists.txt autograder/runner autograder/support autograder/schemas autograder/tests
  autograder/gradescope)
for e in CMakeLists.txt cmake common labs autograder/CMakeLists.txt autograder/runner autograder/support; do
  [[ -e $repo/$e ]] || { echo "make-bundle: $repo/$e is missing: is this the course repository?" >&2; exit 1; }
done

stage=$(mktemp -d "${TMPDIR:-/tmp}/gradescope-bundle.XXXXXX")
trap 'rm -rf "$stage"' EXIT
for e in "${entries[@]}"; do
  [[ -e $repo/$e ]] || continue
  mkdir -p "$stage/$(dirname "$e")"
  cp -R "$repo/$e" "$stage/$e"
done
# Each lab's grader: its files, none of its folders (wrong/ and correct/ are the grader's own test
# submissions, some of them right answers).
for d in "$repo"/autograder/labs/[0-9][0-9]-*/; do
  name=$(basename "$d")
  mkdir -p "$stage/autograder/labs/$name"
  find "$d" -maxdepth 1 -type f -exec cp {} "$stage/autograder/labs/$name/" \;
done
# Never shipped, wherever they appear.
find "$stage" \( -name __pycache__ -o -name '*.pyc' -o -name .DS_Store -o -name '*~' -o -name '*.orig' \
  -o -name '*.rej' \) -prune -exec rm -rf {} +
# Gradescope's two files at the top.
cp "$here/setup.sh" "$here/run_autograder" "$stage/"
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
if ((${#labs[@]})); then
  for l in "${labs[@]}"; do printf -- '--lab %s ' "$l"; done > "$stage/grade-args"
  echo >> "$stage/grade-args"
fi
if [[ -n $secret ]]; then
  cp "$secret" "$stage/secret"
  chmod 600 "$stage/secret"
fi

# No solution may be in it: a safety net under the include list.
if [[ -e $stage/solutions ]] || find "$stage" -path '*/autograder/labs/*/wrong' -o -path '*/autograder/labs/*/correct' | grep -q .; then
  echo "make-bundle: a solution or a grader variant got into the bundle; not writing it" >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
rm -f "$out"
(cd "$stage" && shopt -s dotglob && cmake -E tar cf "$out" --format=zip -- *)
echo "make-bundle: wrote $out ($(find "$stage" -type f | wc -l) files$( ((${#labs[@]})) && echo ", labs: ${labs[*]}")$([[ -n $secret ]] && echo ", with the instructor's secret"))"
