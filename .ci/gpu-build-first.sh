# Sourced by the one-call GPU scripts (.ci/gpu-session-check.sh, .ci/gpu-cards.sh), from the repository
# root, with L set to their log folder: builds in build-gpu (gpu-validate.sh's build stage; the script
# ends when it fails), and defines `summary LOG`, the lines of a ctest log that say how each test ended.
STAGES=build bash .ci/gpu-validate.sh > "$L/build.log" 2>&1 || { echo "build failed"; tail -20 "$L/build.log"; exit 1; }
summary() { grep -E "ended as expected|^[0-9]+: expected lab|  expected [a-z_]+, got|tests passed|Test +#" "$1" | sed 's/^[0-9]*: //'; }
