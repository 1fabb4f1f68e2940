#!/usr/bin/env bash
# The process boundary's timing, experiment by experiment: the speed checks of the labs named in LABS,
# in an isolated build ($ISO, default build-gpu) under the settings named in CONFIGS, and in an
# in-process build (build-inproc, made by gpu-isolation.sh), R runs each. Prints each contender's
# figures, so that a bias can be traced to the contender that moved.
set -uo pipefail
cd "$(dirname "$0")/.."
ISO=${ISO:-build-gpu}
LABS=${LABS:-"01 04"}
R=${R:-2}
CONFIGS=${CONFIGS:-"inproc iso"}
for lab in $LABS; do
  for cfg in $CONFIGS; do
    name=${cfg%%:*}; envs=""; [[ $cfg == *:* ]] && envs=${cfg#*:}
    dir=$ISO; [[ $name == inproc ]] && dir=build-inproc
    for r in $(seq 1 "$R"); do
      env ${envs//,/ } "$dir/graders/lab${lab}_solution" -tc='speed*' --report-fd 3 3> /tmp/boundary-records.txt > /dev/null 2>&1
      out=$(cat /tmp/boundary-records.txt)
      printf '%s %-45s %s\n' "$lab" "$cfg" "$(grep -m1 -oE '(n = 2\^28|8192 x 8192|4096\^3|8192x8192, K = [0-9])[^()]*' <<< "$out")"
    done
  done
done
