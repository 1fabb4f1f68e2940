#!/usr/bin/env bash
# Makes the Gradescope autograder bundle: a zip with setup.sh and run_autograder at its top level and the
# course's sources the grader needs beside them (Gradescope unpacks it into /autograder/source, runs
# setup.sh once, then run_autograder for each submission). Upload it as the assignment's autograder
# ("Zip file upload"), on a GPU-backed runner image that has the CUDA Toolkit.
#
#   autograder/gradescope/make-bundle.sh [--out FILE.zip] [--lab NN ...] [--secret-file FILE]
#   autograder/gradescope/make-bundle.sh --server URL --token-file FILE [--wait S] [--student-key sid|email-name]
#                                        [--out FILE.zip] [--lab NN ...]
#
# With --server the bundle grades nothing itself: run_autograder sends the submission to the course's
# grading service (course-server) and writes the service's results.json, on Gradescope's ordinary image
# (no GPU, no CUDA Toolkit: Python 3 alone). It holds only the two scripts, forward.py, the remote client
# and the service's address and token (service.json, service-token):
#   --server URL       the service, https:// (plain http:// only to this machine, for trying it)
#   --token-file FILE  a forwarder token (course-server tokens --forwarder gradescope): it submits for the
#                      student Gradescope names; a student's token is refused for that
#   --wait S           how long run_autograder waits for the grading (default 600); keep Gradescope's
#                      autograder timeout above it. Then, or when the service cannot be reached, the
#                      student gets a NOT GRADED result, not a score
#   --student-key K    which of Gradescope's fields is the service's student id: sid (the Student ID of
#                      Gradescope's roster, the default) or email-name (the email before its '@')
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
# correct/ folders), .ci/install-deps, autograder/gradescope/ and autograder/remote/ (whose client
# writes a NOT GRADED result). Never solutions/, the course site,
# build folders or version control. The course tree is only read.
#
# Exit status: 0 written; 1 it failed; 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
  echo "usage: $(basename "$0") [--out FILE.zip] [--lab NN ...] [--secret-file FILE]" >&2
  echo "       $(basename "$0") --server URL --token-file FILE [--wait S] [--student-key sid|email-name]" \
    "[--out FILE.zip] [--lab NN ...]" >&2
}
bad() {
  echo "make-bundle: $*" >&2
  usage
  exit 2
}

out=$PWD/gradescope-autograder.zip
labs=()
secret=
server= token_file= wait_s=600 student_key=sid
while (($#)); do
  case $1 in
    --out | --lab | --secret-file | --server | --token-file | --wait | --student-key)
      (($# >= 2)) || bad "$1 needs a value"
      case $1 in
        --out) out=$2 ;; --lab) labs+=("$2") ;; --secret-file) secret=$2 ;; --server) server=$2 ;;
        --token-file) token_file=$2 ;; --wait) wait_s=$2 ;; *) student_key=$2 ;;
      esac
      shift 2
      ;;
    --out=*) out=${1#*=}; shift ;;
    --lab=*) labs+=("${1#*=}"); shift ;;
    --secret-file=*) secret=${1#*=}; shift ;;
    --server=*) server=${1#*=}; shift ;;
    --token-file=*) token_file=${1#*=}; shift ;;
    --wait=*) wait_s=${1#*=}; shift ;;
    --student-key=*) student_key=${1#*=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) bad "unknown argument: $1" ;;
  esac
done
[[ $out == *.zip ]] || bad "--out must name a .zip file, not '$out'"
[[ -z $secret || -r $secret ]] || bad "--secret-file: cannot read '$secret'"
[[ $out == /* ]] || out=$PWD/$out
if [[ -n $server || -n $token_file ]]; then
  [[ -n $server && -n $token_file ]] || bad "--server and --token-file go together"
  [[ -r $token_file && -n $(tr -d '[:space:]' < "$token_file") ]] || bad "--token-file: cannot read a token from '$token_file'"
  [[ -z $secret ]] || bad "--secret-file has no use with --server: the service holds the secret (course-server --grade-arg)"
  [[ $wait_s =~ ^[0-9]+$ ]] && ((wait_s >= 1)) || bad "--wait takes whole seconds, not '$wait_s'"
  [[ $student_key == sid || $student_key == email-name ]] || bad "--student-key is sid or email-name, not '$student_key'"
  # The client's own rule: a token goes over plain HTTP to this machine only.
  why=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[1]); import grade_remote; print(grade_remote.insecure_url(sys.argv[2]) or "")' \
    "$repo/autograder/remote" "$server") || bad "python3 is needed to check --server"
  [[ -z $why ]] || bad "--server: $why"
fi
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
  autograder/gradescope autograder/remote)
if [[ -n $server ]]; then
  # The service grades: the course's sources stay out.
  entries=(autograder/gradescope autograder/remote)
fi
for e in CMakeLists.txt cmake common labs autograder/CMakeLists.txt autograder/runner autograder/support autograder/remote; do
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
  [[ -z $server ]] || break
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
if [[ -n $server ]]; then
  rm -f "$stage/grade-args"
  # Each lab's source file (the starter's name): forward.py sends only those.
  lab_files=()
  for f in "$repo"/labs/[0-9][0-9]-*/*.cu; do
    lab_files+=("$(basename "$(dirname "$f")" | cut -c1-2)=$(basename "$f")")
  done
  python3 -c '
import json, sys
out, url, wait_s, key, n = sys.argv[1:6]
labs, files = sys.argv[6:6 + int(n)], sys.argv[6 + int(n):]
conf = {"url": url, "wait_s": int(wait_s), "poll_s": 2, "student_key": key, "labs": labs,
        "lab_files": dict(f.split("=", 1) for f in files)}
with open(out, "w") as f:
    json.dump(conf, f, indent=2)
' "$stage/service.json" "$server" "$wait_s" "$student_key" "${#labs[@]}" "${labs[@]}" "${lab_files[@]}"
  tr -d '[:space:]' < "$token_file" > "$stage/service-token"
  chmod 600 "$stage/service-token"
fi

# No solution may be in it: a safety net under the include list.
if [[ -e $stage/solutions ]] || find "$stage" -path '*/autograder/labs/*/wrong' -o -path '*/autograder/labs/*/correct' | grep -q .; then
  echo "make-bundle: a solution or a grader variant got into the bundle; not writing it" >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
rm -f "$out"
(cd "$stage" && shopt -s dotglob && cmake -E tar cf "$out" --format=zip -- *)
echo "make-bundle: wrote $out ($(find "$stage" -type f | wc -l) files$( ((${#labs[@]})) && echo ", labs: ${labs[*]}")$([[ -n $secret ]] && echo ", with the instructor's secret")$([[ -n $server ]] && echo ", grading through $server"))"
