# Sets CMAKE_CUDA_ARCHITECTURES before the CUDA language is enabled: the architecture of the
# GPU(s) nvidia-smi reports, or, on a machine without a GPU, COURSE_NO_GPU_ARCHITECTURES: by default
# every architecture the course supports (Turing and newer), so that what is built runs on any of them.
# The ci preset narrows it to the oldest and the newest (75;90), half the compile time: CI has no GPU to
# run what it builds, and the course's code has no code of its own per architecture (no __CUDA_ARCH__),
# so the two ends of the range show that it compiles for the range.
set(COURSE_NO_GPU_ARCHITECTURES "75;80;86;89;90" CACHE STRING
    "CUDA architectures to build for when CMAKE_CUDA_ARCHITECTURES is native and no GPU is found")
set(_course_default_archs "${COURSE_NO_GPU_ARCHITECTURES}")
# Asked for by CMAKE_CUDA_ARCHITECTURES=native (the presets): what is found replaces "native".
set(_course_force "")
if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
  set(_course_force FORCE)
endif()
find_program(_course_nvidia_smi nvidia-smi)
set(_course_archs "")
if(_course_nvidia_smi)
  execute_process(
    COMMAND ${_course_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _course_caps RESULT_VARIABLE _course_rc ERROR_QUIET TIMEOUT 20)
  if(_course_rc EQUAL 0)
    string(REPLACE "\n" ";" _course_caps "${_course_caps}")
    foreach(cap IN LISTS _course_caps)
      string(STRIP "${cap}" cap)
      if(cap MATCHES "^([0-9]+)\\.([0-9]+)$")
        list(APPEND _course_archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _course_archs)
  endif()
endif()
if(_course_archs)
  message(STATUS "GPU found: building for its architecture(s) ${_course_archs}")
  set(CMAKE_CUDA_ARCHITECTURES "${_course_archs}" CACHE STRING "CUDA architectures" ${_course_force})
else()
  message(STATUS "No GPU found: building for ${_course_default_archs}")
  set(CMAKE_CUDA_ARCHITECTURES "${_course_default_archs}" CACHE STRING "CUDA architectures" ${_course_force})
endif()
