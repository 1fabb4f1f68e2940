#!/usr/bin/env bash
# A GPU lock file another user made is still taken: a lab program run as user nobody takes a lock file of
# root's that only root may write (mode 0644, as root's usual umask leaves it), instead of stopping with
# "cannot take the GPU lock". No GPU is used: with none visible the program then stops with exit 77.
#
#   gpu_lock_other_user_test.sh LAB_PROGRAM
# Exit 125 (skipped) where it cannot run: not root, or no setpriv, or no user nobody.
set -uo pipefail
program=$1
if [[ $(id -u) != 0 ]] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
  echo "skipped: needs root, setpriv and the user nobody"
  exit 125
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
(umask 022 && : > "$dir/gpu.lock")
out=$(CUDA_VISIBLE_DEVICES= setpriv --reuid=nobody --regid=nogroup --clear-groups \
  "$program" --pass measured --gpu-lock "$dir/gpu.lock" 2>&1)
rc=$?
echo "$out"
echo "exit $rc"
if [[ $out == *"cannot take the GPU lock"* ]]; then
  echo "FAIL: the lock file of another user was not taken"
  exit 1
fi
if [[ $rc != 77 ]]; then
  echo "FAIL: expected exit 77 (no GPU visible) after taking the lock"
  exit 1
fi
echo "ok: taken, then stopped for want of a GPU"
