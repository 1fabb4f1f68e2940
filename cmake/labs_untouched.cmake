# Grades (or, without a GPU, builds) the student labs and checks that not one byte under LABS_DIR
# changed and no file appeared or vanished there: the grader never writes into student work.
#   cmake -DGRADE=... -DLABS_DIR=... -P labs_untouched.cmake
function(tree_digest dir out)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${dir} ${dir}/*)
  list(SORT files)
  set(acc "")
  foreach(f IN LISTS files)
    file(SHA256 ${dir}/${f} h)
    string(APPEND acc "${f}:${h}\n")
  endforeach()
  string(SHA256 digest "${acc}")
  set(${out} ${digest} PARENT_SCOPE)
endfunction()

tree_digest(${LABS_DIR} before)
execute_process(COMMAND ${GRADE} --tree student --allow-no-gpu RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
tree_digest(${LABS_DIR} after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "grading changed files under ${LABS_DIR}")
endif()
message("labs untouched (grade exit status ${rc})")
