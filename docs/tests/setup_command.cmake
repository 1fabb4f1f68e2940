# The students' set-up command, in one place: every page that tells a student how to set up and build
# gives exactly this line (the CPU test student_setup_command_on_every_page runs this script).
#
#   cmake -DROOT=/path/to/course -P docs/tests/setup_command.cmake
#
# The pages: the students' README (docs/student-release-README.md; README.md in a student release),
# the course site's start page, every lab's handout and, where it is there, the course's README.
# Each must hold the command verbatim; a page that gives another set-up (`cmake -S . -B build` alone,
# an install-deps without --student) where the students' command belongs fails too.
cmake_minimum_required(VERSION 3.24)
set(student_setup_command [[.ci/install-deps --student && cmake --preset student && cmake --build build -j"$(nproc)"]])

if(NOT ROOT)
  message(FATAL_ERROR "setup_command: give the course's root: -DROOT=/path")
endif()
set(pages docs/pages/index.md)
if(EXISTS "${ROOT}/docs/student-release-README.md")
  list(APPEND pages docs/student-release-README.md README.md)  # the course's repository
else()
  list(APPEND pages README.md)  # a student release: README.md is the students'
endif()
file(GLOB handouts RELATIVE "${ROOT}" "${ROOT}/labs/[0-9][0-9]-*/README.md")
list(SORT handouts)
list(APPEND pages ${handouts})
if(NOT handouts)
  message(FATAL_ERROR "setup_command: no handout under ${ROOT}/labs")
endif()

set(bad 0)
foreach(page IN LISTS pages)
  if(NOT EXISTS "${ROOT}/${page}")
    message(SEND_ERROR "${page}: missing")
    math(EXPR bad "${bad} + 1")
    continue()
  endif()
  file(READ "${ROOT}/${page}" text)
  string(FIND "${text}" "${student_setup_command}" at)
  if(at EQUAL -1)
    message(SEND_ERROR "${page}: does not give the students' set-up command\n  ${student_setup_command}")
    math(EXPR bad "${bad} + 1")
  endif()
  # The set-up a student must not be given instead: a plain configure into build/ (no preset) or the
  # full install-deps. (Other build folders, such as an instructor's build-sub, are not a student's set-up.)
  if(text MATCHES "\\.ci/install-deps && cmake -S \\. -B build " AND NOT page STREQUAL "README.md")
    message(SEND_ERROR "${page}: gives `.ci/install-deps && cmake -S . -B build` as a set-up; "
                       "students set up with\n  ${student_setup_command}")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
list(LENGTH pages n)
if(bad)
  message(FATAL_ERROR "setup_command: ${bad} problem(s) in ${n} pages")
endif()
message(STATUS "setup_command: all ${n} pages give the students' set-up command")
