#!/usr/bin/env bash
# The dry run of the starters (grade --allow-no-gpu on a machine without a GPU, as `make check` runs it):
# for every lab, what passed (the region rules, the audit), a resource line for each kernel on the GPU the
# build targets, what was not run and why, and no compiler warning.
#
#   dry_run_test.sh GRADE LABS_DIR     (LABS_DIR: the starters' folders, NN-name)
set -uo pipefail
grade=$1
ids=$(cd "$2" && ls -d [0-9][0-9]-*/ | cut -c1-2)
count=$(wc -w <<<"$ids")
fail() { echo "FAIL: $*"; exit 1; }
out=$(CUDA_VISIBLE_DEVICES= "$grade" --tree student --allow-no-gpu 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "expected exit 0 (every starter builds), got $rc"
grep -q "compiler warning" <<<"$out" && fail "a starter draws a compiler warning"
labs=$(grep -cE "^Lab [0-9]{2} \(.*\): compiles$" <<<"$out")
[[ $count -gt 0 && $labs -eq $count ]] || fail "expected $count labs that compile, found $labs"
# Each lab's block: from its "Lab NN" line to the next.
for id in $ids; do
  block=$(awk -v id="$id" '/^Lab [0-9][0-9] / { on = ($2 == id) } on' <<<"$out")
  grep -q "^  passed: the region rules: your [0-9]* student regions\? hold" <<<"$block" || fail "lab $id: no region rules line"
  grep -q "^  passed: the audit: the compiled code defines names only in namespace lab$id" <<<"$block" ||
    fail "lab $id: no audit line"
  grep -qE "^  kernels, as ptxas builds them for sm_[0-9]+ " <<<"$block" || fail "lab $id: no kernels header"
  kernels=$(grep -cE "^    (void )?lab$id::[A-Za-z_0-9<>]+\(.*\) on sm_[0-9]+: [0-9]+ registers, (no spills|spills [0-9]+ bytes \(stores\) and [0-9]+ bytes \(loads\)), [0-9]+ bytes of static shared memory, blocks of up to [0-9]+ threads" <<<"$block")
  [[ $kernels -ge 1 ]] || fail "lab $id: no resource line for a kernel"
  grep -qE "^  not run \(they run your kernels, and this machine has no GPU\): the lab's [0-9]+ checks; memory and race check" <<<"$block" ||
    fail "lab $id: does not say what was not run, and why"
  echo "lab $id: $kernels kernel(s) reported"
done
echo "PASS"
