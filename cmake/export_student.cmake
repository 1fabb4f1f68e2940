# Writes the repository students get: the starters, the grader, the course site's sources and the
# build, without the reference solutions and without the grader's known-wrong and correct variants.
#
#   cmake -DCOURSE_STUDENT_RELEASE_DIR=/path/to/release [-DCOURSE_SOURCE_DIR=/path/to/course]
#         -P cmake/export_student.cmake
#
# (`cmake --build build --target export-student` runs it into build/student-release, or into the
# folder in the cache variable COURSE_STUDENT_RELEASE_DIR.)
#
# Only what the include list below names is copied: a file or folder added to the course later stays
# out of the release until it is added here. The source tree is only read. The release folder is
# replaced as a whole; an existing folder is replaced only if it is empty or an earlier export (it
# holds .course-student-release), never any other folder.
cmake_minimum_required(VERSION 3.24)

# --- What students get --------------------------------------------------------------------------------
# Files and whole folders, relative to the course's root; an entry with * names the files it matches
# (not folders).
set(release_entries
  CMakeLists.txt
  CMakePresets.json
  .ci/install-deps
  labs
  common
  cmake/DetectGpuArchitecture.cmake
  cmake/expect_exit.cmake
  cmake/labs_untouched.cmake
  docs/CMakeLists.txt
  docs/make_lab_index.cmake
  docs/pages/index.md          # the course site's pages, one by one: an instructor's page stays out
  docs/pages/grading.md
  docs/pages/concepts.md
  docs/pages/concepts
  docs/images
  docs/tests
  autograder/CMakeLists.txt
  autograder/runner
  autograder/support
  autograder/schemas
  autograder/remote            # grade --remote, the grading service's client, and Classroom's points from its results
  autograder/tests/CMakeLists.txt
  autograder/tests/*.cpp       # the grader's unit tests; the instructor's test scripts stay out
  autograder/tests/shared_speed_test.py  # the checker of a unit test (shared_speed_checks.cpp)
  autograder/tests/on_assigned_gpu.sh  # the GPU tests' launcher on a machine of several GPUs, and its test
  autograder/tests/confined_compile_test.sh  # the test that a lab's compile is confined
  autograder/tests/data)
# Each lab's grader, autograder/labs/NN-name/: its files only (checks, baselines, rubric, CMakeLists.txt),
# none of its folders (wrong/ and correct/ hold the grader's own test submissions), and not its bench.cpp.
set(release_lab_graders autograder/labs)
# The students' README.md (the course's README is the instructor's).
set(release_readme docs/student-release-README.md)
# Never shipped, wherever they appear inside a folder above.
set(release_junk_patterns "__pycache__" "*.pyc" ".DS_Store" "*~" "*.orig" "*.rej")

# --- Where from, where to -----------------------------------------------------------------------------
if(NOT DEFINED COURSE_SOURCE_DIR)
  get_filename_component(COURSE_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT COURSE_STUDENT_RELEASE_DIR)
  message(FATAL_ERROR "export_student: give the release folder: -DCOURSE_STUDENT_RELEASE_DIR=/path")
endif()
file(REAL_PATH "${COURSE_SOURCE_DIR}" src)
get_filename_component(dest "${COURSE_STUDENT_RELEASE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
if(EXISTS "${dest}")
  file(REAL_PATH "${dest}" dest)
endif()
if(NOT IS_DIRECTORY "${src}/solutions" OR NOT EXISTS "${src}/${release_readme}")
  message(FATAL_ERROR "export_student: ${src} is not the instructor's course repository "
                      "(it needs solutions/ and ${release_readme})")
endif()

# The release may not be the course itself, hold it, or lie inside anything that is copied.
cmake_path(IS_PREFIX dest "${src}" NORMALIZE dest_holds_src)
if(dest_holds_src)
  message(FATAL_ERROR "export_student: the release folder ${dest} is the course repository or holds it")
endif()
foreach(entry IN LISTS release_entries release_lab_graders release_readme)
  set(entry_path "${src}/${entry}")
  cmake_path(IS_PREFIX entry_path "${dest}" NORMALIZE inside_entry)
  if(inside_entry)
    message(FATAL_ERROR "export_student: the release folder ${dest} lies inside ${entry}, which is copied")
  endif()
endforeach()

# Replace an earlier export, and nothing else.
set(marker .course-student-release)
if(EXISTS "${dest}")
  if(NOT IS_DIRECTORY "${dest}")
    message(FATAL_ERROR "export_student: ${dest} exists and is not a folder")
  endif()
  file(GLOB existing LIST_DIRECTORIES true "${dest}/*" "${dest}/.*")
  if(existing AND NOT EXISTS "${dest}/${marker}")
    message(FATAL_ERROR "export_student: ${dest} is not empty and is not an earlier export (no ${marker}); "
                        "remove it or choose another folder")
  endif()
  file(REMOVE_RECURSE "${dest}")
endif()
file(MAKE_DIRECTORY "${dest}")

# --- Copy -----------------------------------------------------------------------------------------------
set(junk_args)
foreach(p IN LISTS release_junk_patterns)
  list(APPEND junk_args PATTERN "${p}" EXCLUDE)
endforeach()

function(copy_entry rel)
  set(from "${src}/${rel}")
  if(NOT EXISTS "${from}")
    message(FATAL_ERROR "export_student: ${rel} is in the include list but not in ${src}")
  endif()
  get_filename_component(parent "${dest}/${rel}" DIRECTORY)
  file(MAKE_DIRECTORY "${parent}")
  if(IS_DIRECTORY "${from}")
    file(COPY "${from}" DESTINATION "${parent}" ${junk_args})
  else()
    file(COPY "${from}" DESTINATION "${parent}")  # keeps the mode: .ci/install-deps stays executable
  endif()
endfunction()

foreach(entry IN LISTS release_entries)
  if(entry MATCHES "[*]")
    file(GLOB matched LIST_DIRECTORIES false RELATIVE "${src}" "${src}/${entry}")
    if(NOT matched)
      message(FATAL_ERROR "export_student: ${entry} is in the include list but matches nothing in ${src}")
    endif()
    list(SORT matched)
    foreach(f IN LISTS matched)
      copy_entry(${f})
    endforeach()
  else()
    copy_entry(${entry})
  endif()
endforeach()

file(GLOB lab_graders LIST_DIRECTORIES true RELATIVE "${src}/${release_lab_graders}"
     "${src}/${release_lab_graders}/[0-9][0-9]-*")
list(SORT lab_graders)
foreach(lab IN LISTS lab_graders)
  if(NOT IS_DIRECTORY "${src}/${release_lab_graders}/${lab}")
    continue()
  endif()
  file(GLOB files LIST_DIRECTORIES false RELATIVE "${src}" "${src}/${release_lab_graders}/${lab}/*")
  list(SORT files)
  foreach(f IN LISTS files)
    get_filename_component(name "${f}" NAME)
    # bench.cpp: the lab's part of the benchmark of the references (autograder/bench), which needs the
    # solutions: not the students'.
    if(NOT name MATCHES "(~|\\.orig|\\.rej|\\.pyc)$" AND NOT name STREQUAL ".DS_Store" AND NOT name STREQUAL "bench.cpp")
      copy_entry(${f})
    endif()
  endforeach()
endforeach()

# The starters as handed out, put aside: the release's labs/ becomes the student's work, and each lab is
# graded from these (autograder/CMakeLists.txt), so an edit outside the regions has no effect and is named.
file(GLOB lab_folders LIST_DIRECTORIES true RELATIVE "${src}/labs" "${src}/labs/[0-9][0-9]-*")
list(SORT lab_folders)
foreach(lab IN LISTS lab_folders)
  file(GLOB starter_files LIST_DIRECTORIES false "${src}/labs/${lab}/*.cu" "${src}/labs/${lab}/*.cuh")
  if(starter_files)
    file(COPY ${starter_files} DESTINATION "${dest}/autograder/starters/${lab}")
  endif()
endforeach()

file(COPY_FILE "${src}/${release_readme}" "${dest}/README.md")
file(WRITE "${dest}/.gitignore" "/build*/\n")

# The marker: what this folder is and where it came from (the commit, when the course is a git checkout).
set(origin "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${src}" rev-parse HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_rc)
  if(git_rc EQUAL 0)
    set(origin "exported from commit ${commit}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${src}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      string(APPEND origin " with uncommitted changes")
    endif()
  endif()
endif()
file(WRITE "${dest}/${marker}"
  "A student release of the CUDA shared-memory course (cmake/export_student.cmake). ${origin}\n")

# --- Check what was written ---------------------------------------------------------------------------
file(GLOB_RECURSE dirs LIST_DIRECTORIES true RELATIVE "${dest}" "${dest}/*")
foreach(d IN LISTS dirs)
  if(IS_DIRECTORY "${dest}/${d}" AND d MATCHES "(^|/)(solutions|wrong|correct)$")
    message(FATAL_ERROR "export_student: ${dest}/${d} must not be in the release")
  endif()
endforeach()
file(GLOB_RECURSE shipped LIST_DIRECTORIES false "${dest}/*")
list(LENGTH shipped n)
message(STATUS "Student release: ${dest} (${n} files)")
