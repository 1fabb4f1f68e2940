# Sourced by the GPU scripts that grade the solutions of a build ($BUILD) lab by lab
# (.ci/gpu-beside-other-card.sh, .ci/gpu-counters-interval.sh, .ci/gpu-nsight-launches.sh).
[[ -x $BUILD/grade ]] || { echo "no $BUILD/grade: build first (STAGES=build bash .ci/gpu-validate.sh)"; exit 1; }
# The labs to grade, as grade's options: LABS (numbers), all six when unset.
labs=()
for l in ${LABS:-01 02 03 04 05 06}; do labs+=(--lab "$l"); done
# Prints grade's table of where each lab's time went (build, exact and measured checks, GPU alone, tools)
# from the log $1, indented.
time_table() { awk '/^lab +build/ {p = 1} p {print "    " $0} /^all / {p = 0}' "$1"; }
# The sums of lab log $1's "timed across the boundary" lines: batches, seconds, and the seconds before the
# clock, timed and after it.
boundary_sums() {
  sed -nE 's/^timed across the boundary: ([0-9]+) batches in ([0-9.]+) s .*before the clock ([0-9.]+), timed ([0-9.]+), after it ([0-9.]+).*/\1 \2 \3 \4 \5/p' "$1" |
    awk '{b += $1; s += $2; l += $3; t += $4; a += $5}
         END {printf "%d batches in %.1f s: before the clock %.1f, timed %.1f, after it %.1f", b, s, l, t, a}'
}
