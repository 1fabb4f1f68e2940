#!/bin/sh
# Runs its arguments on the GPU that ctest assigned the test (COURSE_GPU_TESTS_ON_ASSIGNED_GPUS: the test
# asks for RESOURCE_GROUPS gpus:1, and ctest, given --resource-spec-file, says which in
# CTEST_RESOURCE_GROUP_0_GPUS, "id:<n>,slots:1"). Without an assignment (ctest run without a resource
# spec file) the test runs as it would without this script.
case "${CTEST_RESOURCE_GROUP_0_GPUS:-}" in
  id:*)
    id=${CTEST_RESOURCE_GROUP_0_GPUS#id:}
    CUDA_VISIBLE_DEVICES=${id%%,*}
    export CUDA_VISIBLE_DEVICES
    ;;
esac
exec "$@"
