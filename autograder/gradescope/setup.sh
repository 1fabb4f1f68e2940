#!/usr/bin/env bash
# Gradescope's set-up step for the CUDA shared-memory labs: Gradescope unpacks the autograder bundle
# (make-bundle.sh) into /autograder/source and runs this once, as root, when it builds the image.
#
# It installs the Debian/Ubuntu packages the grader needs, then configures and builds the grader in
# /autograder/source/build. The CUDA Toolkit (12.0 or newer, nvcc) is not installed here: it must be
# on the GPU-backed runner image already (on PATH, or in /usr/local/cuda/bin).
#
# The GPU architectures: CMake builds for the GPU it finds, else for compute capabilities 7.5 to 9.0;
# set CUDAARCHS (e.g. CUDAARCHS=90) in the image to build for one.
#
# A bundle made with make-bundle.sh --server (it holds service.json) grades on the course's service:
# then this only makes sure Python 3 is there, and Gradescope's ordinary image (no GPU) will do.
#
# Environment (for trying it elsewhere): COURSE_SOURCE (default: the folder holding this script, which
# is /autograder/source in the bundle), COURSE_BUILD (default: $COURSE_SOURCE/build).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=${COURSE_SOURCE:-$here}
# In the repository this file is autograder/gradescope/setup.sh; in the bundle it is at the top.
if [[ ! -f $source_dir/CMakeLists.txt && -f $here/../../CMakeLists.txt ]]; then
  source_dir=$(cd "$here/../.." && pwd)
fi
build_dir=${COURSE_BUILD:-$source_dir/build}
log() { echo "setup.sh: $*"; }

if [[ -f $here/service.json ]]; then
  if ! command -v python3 > /dev/null; then
    log "installing python3"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 ca-certificates
  fi
  log "grading through the course's service ($(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["url"])' "$here/service.json"))"
  exit 0
fi

# --- Packages -------------------------------------------------------------------------------------
packages=(cmake g++ make doctest-dev libcli11-dev nlohmann-json3-dev ca-certificates)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The course needs CMake 3.24 or newer; Ubuntu 22.04's is 3.22. Then CMake from PyPI (pip), which
# installs into /usr/local/bin, ahead of /usr/bin on PATH.
cmake_ok() {
  local v
  v=$(cmake --version 2> /dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  [[ -n $v ]] || return 1
  read -r major minor <<< "$v"
  ((major > 3 || (major == 3 && minor >= 24)))
}
if ! cmake_ok; then
  log "CMake $(cmake --version | head -n 1 | awk '{print $3}') is older than 3.24: installing CMake from PyPI"
  if ! command -v pip3 > /dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip
  fi
  pip3 install --quiet 'cmake>=3.24' 2> /dev/null || pip3 install --quiet --break-system-packages 'cmake>=3.24'
  hash -r
  cmake_ok || { echo "setup.sh: still no CMake 3.24 or newer on PATH" >&2; exit 1; }
fi

# --- The CUDA Toolkit -----------------------------------------------------------------------------
export PATH="$PATH:/usr/local/cuda/bin"
if ! command -v nvcc > /dev/null; then
  echo "setup.sh: nvcc not found: the runner image must have the CUDA Toolkit 12.0 or newer" \
    "(on PATH, or in /usr/local/cuda/bin)" >&2
  exit 1
fi
log "$(nvcc --version | tail -n 1)"

# --- The grader -----------------------------------------------------------------------------------
log "configuring $source_dir into $build_dir"
cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BUILD_WRONG_VARIANTS=OFF
# Everything the submissions share (the runner, the tools, each lab's checks and baselines) is built
# now, so grading a submission compiles only the student's code.
cmake --build "$build_dir" -j"$(nproc)"
test -x "$build_dir/grade"
log "the grader is ready: $build_dir/grade"
