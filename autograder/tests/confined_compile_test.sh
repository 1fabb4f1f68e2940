#!/usr/bin/env bash
# The compile of a submission is confined (runner/confined_compile.cpp), with the options every lab
# program's compile gets: it reads its source and writes its object, its keep/ folder and its temporary
# files; it cannot read a file beside its source (a grading slot's verdicts of the previous submission),
# outside what it was allowed (by assembly's .incbin, by #include) nor write its object outside its folder,
# and what it prints cannot pass for the confinement's report.
#
#   confined_compile_test.sh WORK NVCC PROTECTED TOOLKIT_NVCC -- <confined_compile and its options, ending in -->
# WORK: the folder the options were made for: its source.cu is the source they allow, keep/ and tmp/ its
# writable folders, objects/ the object folder, confinement.txt the report; PROTECTED: a file the compile
# must not read (the solution of Lab 01 in the course's repository); TOOLKIT_NVCC: the toolkit's own nvcc
# (NVCC, the build's compiler, may itself be a wrapper of it). Skipped (77) where the system has no Landlock.
set -u
work=$1 nvcc=$2 protected=$3 toolkit_nvcc=$4
shift 5
launcher=("$@")
outside=$(dirname "$work")/confined-outside
rm -rf "$work" "$outside"
mkdir -p "$work/objects" "$work/keep" "$outside"
fails=0
secret="secret-$RANDOM$RANDOM"
echo "$secret" > "$outside/secret.txt"
echo "$secret" > "$work/regions.previous.json"
echo "keep-$RANDOM$RANDOM" > "$work/keep/own.txt"
printf '#define SECRET "%s"\n' "$secret" > "$outside/secret.h"
# source.cu whose host code pulls file $1 into the object.
incbin() {
  printf 'asm(".section .rodata\\n.incbin \\"%s\\"\\n.text");\n__global__ void kernel(int* p) { *p = 1; }\n' "$1" \
    > "$work/source.cu"
}
compile() {  # compile <log> <output>
  "${launcher[@]}" "$nvcc" -c "$work/source.cu" -o "$2" > "$1" 2>&1
}
incbin "$work/keep/own.txt"
compile "$work/probe.log" "$work/objects/probe.o"
if grep -q "unconfined" "$work/confinement.txt" 2> /dev/null; then
  echo "SKIP: $(cat "$work/confinement.txt")"; exit 77
fi
expect() {  # expect ok|refused <what> <log> <output>
  local want=$1 what=$2 log=$3 got
  if compile "$log" "$4"; then got=ok; else got=refused; fi
  if [[ $got == "$want" ]]; then echo "ok: $what ($got)"; else echo "FAIL: $what: $got, expected $want"; cat "$log"; fails=$((fails + 1)); fi
}
incbin "$work/keep/own.txt"
expect ok "a file of its own keep/ folder, by .incbin" "$work/own.log" "$work/objects/own.o"
grep -q "keep-" "$work/objects/own.o" || { echo "FAIL: the object lacks the file of its keep/ folder"; fails=$((fails + 1)); }
incbin "$work/regions.previous.json"
expect refused "a file beside the source, by .incbin" "$work/beside.log" "$work/objects/beside.o"
incbin "$outside/secret.txt"
expect refused "a file outside, by .incbin" "$work/outside.log" "$work/objects/outside.o"
if [[ -f $protected ]]; then
  incbin "$protected"
  expect refused "the solution, by .incbin ($protected)" "$work/solution.log" "$work/objects/solution.o"
fi
printf '#include "%s"\nconst char* s = SECRET;\n' "$outside/secret.h" > "$work/source.cu"
expect refused "a header outside, by #include" "$work/include.log" "$work/objects/include.o"
printf '#include "regions.previous.json"\n' > "$work/source.cu"
expect refused "a file beside the source, by #include" "$work/include-beside.log" "$work/objects/include-beside.o"
# Writing: a shell under the same rules, its output named as an object's in objects/ (as CMake names one).
for target in "$work/audit.json" "$work/confinement.txt" "$outside/object.o"; do
  if "${launcher[@]}" sh -c 'echo x > "$1"' sh "$target" -o "$work/objects/shell.o" 2> "$work/write.log"; then
    echo "FAIL: $target was written"; fails=$((fails + 1))
  else
    echo "ok: $target not written ($(tail -1 "$work/write.log"))"
  fi
done
if "${launcher[@]}" sh -c 'echo x > "$1"' sh "$work/objects/shell.o" -o "$work/objects/shell.o" 2> "$work/write.log"; then
  echo "ok: the object's own folder written"
else
  echo "FAIL: the object's own folder not written: $(cat "$work/write.log")"; fails=$((fails + 1))
fi
if grep -rqs "$secret" "$work/objects" "$work/keep" "$work/tmp" "$work"/*.log; then
  echo "FAIL: the secret reached the compile's output"; fails=$((fails + 1))
fi
# The compiler named by a wrapper script outside the toolkit (as a /usr/local/bin/nvcc that execs the
# toolkit's): the wrapper runs, and nothing else of its folder is readable.
mkdir -p "$outside/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$toolkit_nvcc" > "$outside/bin/nvcc"
chmod +x "$outside/bin/nvcc"
echo "$secret" > "$outside/bin/secret.txt"
incbin "$work/keep/own.txt"
if "${launcher[@]}" "$outside/bin/nvcc" -c "$work/source.cu" -o "$work/objects/wrapper.o" > "$work/wrapper.log" 2>&1; then
  echo "ok: the compiler through a wrapper script outside the toolkit"
else
  echo "FAIL: the compiler through a wrapper script: $(cat "$work/wrapper.log")"; fails=$((fails + 1))
fi
if "${launcher[@]}" "$outside/bin/nvcc" -c "$work/source.cu" -o "$work/objects/wrapper.o" -Xcompiler -include \
  -Xcompiler "$outside/bin/secret.txt" > "$work/wrapper-beside.log" 2>&1; then
  echo "FAIL: a file beside the wrapper was read"; fails=$((fails + 1))
else
  echo "ok: a file beside the wrapper not read"
fi
# A source that prints what the confinement would say: the report stays empty.
printf '#pragma message("confined_compile: warning: the compile runs unconfined")\nint x;\n' > "$work/source.cu"
expect ok "a source printing a warning of the confinement's" "$work/forged.log" "$work/objects/forged.o"
if [[ -s $work/confinement.txt ]]; then
  echo "FAIL: the confinement reported: $(cat "$work/confinement.txt")"; fails=$((fails + 1))
fi
# A protected folder within reach (here one the compile would read) stops the compile, exit 125.
"${launcher[@]:0:${#launcher[@]}-1}" --read "$outside" --protect "$outside/secret.txt" -- true 2> "$work/protect.log"
rc=$?
if [[ $rc -eq 125 ]] && grep -q "refusing to compile" "$work/protect.log"; then echo "ok: a protected file within reach (125)"
else echo "FAIL: a protected file within reach: exit $rc"; cat "$work/protect.log"; fails=$((fails + 1)); fi
# The same for a path the runner names in the environment (grade: its secret file, roster and gradebook).
GRADER_CONFINED_PROTECT="/nonexistent:$outside/secret.txt" \
  "${launcher[@]:0:${#launcher[@]}-1}" --read "$outside" -- true 2> "$work/protect-env.log"
rc=$?
if [[ $rc -eq 125 ]]; then echo "ok: a file the runner protects within reach (125)"
else echo "FAIL: a file the runner protects within reach: exit $rc"; cat "$work/protect-env.log"; fails=$((fails + 1)); fi
echo "$fails failure(s)"
[[ $fails -eq 0 ]]
