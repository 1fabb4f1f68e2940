# Sourced by the GPU scripts that need only the grader and the reference solutions (.ci/gpu-timing.sh,
# .ci/gpu-calibrate-quick.sh), from the repository root: configures $BUILD without the docs, the schema
# tests and the known-wrong variants, and builds `grade`, every lab's labNN_solution program and the targets
# named in $@ (e.g. bench). Logs go to $BUILD-configure.log and $BUILD-build.log; returns non-zero, with
# the first errors printed, when either step fails.
build_solutions() {
  local extra=(-DCOURSE_BUILD_DOCS=OFF -DCOURSE_REPORT_SCHEMA_TESTS=OFF -DCOURSE_BROWSER_TESTS=OFF -DCOURSE_BUILD_WRONG_VARIANTS=OFF)
  source .ci/debs-prefix.sh "$PWD/$BUILD-deps"
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$BUILD-configure.log" 2>&1 ||
    { tail -30 "$BUILD-configure.log"; return 1; }
  local targets=(grade "$@")
  for d in solutions/[0-9][0-9]-*/; do targets+=("lab$(basename "$d" | cut -c1-2)_solution"); done
  cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]}" > "$BUILD-build.log" 2>&1 ||
    { grep -m20 error "$BUILD-build.log"; return 1; }
}
