#!/usr/bin/env bash
# What sampling the GPU's performance monitors during the timed calls does to the speed checks' ratios,
# on a GPU machine: the solutions graded N times (sanitizer and Nsight Compute off) with the monitors
# sampling and N times without (COURSE_TIMED_COUNTERS=off), alternately on one GPU, after a build by
# .ci/gpu-validate.sh (STAGES=build). Prints each speed check's ratio, run by run, and the medians.
#
#   N=3 bash .ci/gpu-timed-bias.sh
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-gpu}
LOGS=${OUT:-$BUILD/timed-bias}
mkdir -p "$LOGS"
for i in $(seq 1 "${N:-2}"); do
  for mode in on off; do
    COURSE_TIMED_COUNTERS=$mode "$BUILD/grade" --tree solution --no-build --sanitizer off --profile off \
      > "$LOGS/$mode-$i.log" 2>&1
    echo "== counters $mode, run $i: $(grep -E '^Total' "$LOGS/$mode-$i.log")"
  done
done
python3 - "$LOGS" "${N:-2}" <<'PY'
import re, statistics, sys
logs, n = sys.argv[1], int(sys.argv[2])
rows = {}
for mode in ("on", "off"):
    for i in range(1, n + 1):
        for line in open(f"{logs}/{mode}-{i}.log", errors="replace"):
            m = re.match(r"^(\d\d)\s+(speed: .{30}).*?\s(\d+\.\d+)x", line)
            if m:
                rows.setdefault((m[1], m[2].strip()), {}).setdefault(mode, []).append(float(m[3]))
print(f"{'lab':4}{'speed check':34}{'with counters':>22}{'without':>22}{'on/off':>8}")
for (lab, name), r in sorted(rows.items()):
    on, off = r.get("on", []), r.get("off", [])
    ratio = statistics.median(on) / statistics.median(off) if on and off else float("nan")
    print(f"{lab:4}{name:34}{' '.join(f'{v:.2f}' for v in on):>22}{' '.join(f'{v:.2f}' for v in off):>22}{ratio:8.3f}")
PY
