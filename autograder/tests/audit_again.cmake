# Audits a copy of a built lab's keep folder (KEEP, copied to COPY) three times with the audit's command
# (AUDIT, a list: audit_lab and its arguments but --verdict and --ptx-dir); each audit must allow the lab.
file(REMOVE_RECURSE ${COPY})
file(MAKE_DIRECTORY ${COPY})
file(COPY ${KEEP} DESTINATION ${COPY})
foreach(i 1 2 3)
  execute_process(COMMAND ${AUDIT} --verdict ${COPY}/audit.json --ptx-dir ${COPY}/keep
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "audit ${i} of a copy of ${KEEP} ended with ${rc}:\n${out}${err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${COPY})
