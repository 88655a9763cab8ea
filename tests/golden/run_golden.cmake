# Runs one golden REPL transcript (the Perfetto "diff test" habit): `bottlenecks repl PROFILE
# [ARGS] -f CASE.cmds` in a scratch directory, standard output and error merged in order, plus
# a last line with the exit status when it is not 0; then compares with the expected file.
#
# Variables: BIN (the bottlenecks executable), PROFILE, CMDS (command file), EXPECTED (.out),
# WORK (scratch directory), ARGS (optional ';'-list of extra arguments), FILES (optional
# fixtures copied into WORK). With the environment
# variable BN_GOLDEN_UPDATE=ON the transcript replaces EXPECTED instead (regenerate.sh).

# The ';' of ARGS and FILES arrive escaped (add_test keeps each -D one argument); unescape them
# so each list element becomes one argument.
string(REPLACE "\\;" ";" ARGS "${ARGS}")
string(REPLACE "\\;" ";" FILES "${FILES}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(cmds_name "${CMDS}" NAME)
# Run on a copy so errors name the file as `name.cmds:LINE` wherever the tree lives.
file(COPY "${CMDS}" ${FILES} DESTINATION "${WORK}")
set(transcript "${WORK}/transcript.out")
# Labels a case leaves unsaved are kept under the scratch directory, never in the user's home;
# the transcript names the directory <work> so it reads the same wherever the build is.
set(ENV{XDG_STATE_HOME} "${WORK}/state")
execute_process(COMMAND "${BIN}" repl "${PROFILE}" ${ARGS} -f "${cmds_name}"
                WORKING_DIRECTORY "${WORK}"
                OUTPUT_FILE "${transcript}" ERROR_FILE "${transcript}"
                RESULT_VARIABLE status)
if(NOT status MATCHES "^[0-9]+$")
  message(FATAL_ERROR "cannot run ${BIN}: ${status}")
endif()
if(NOT status EQUAL 0)
  file(APPEND "${transcript}" "[exit status ${status}]\n")
endif()
file(READ "${transcript}" text)
string(REPLACE "${WORK}" "<work>" text "${text}")
file(WRITE "${transcript}" "${text}")

if("$ENV{BN_GOLDEN_UPDATE}" STREQUAL "ON")
  file(COPY_FILE "${transcript}" "${EXPECTED}")
  message(STATUS "updated ${EXPECTED}")
  return()
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${transcript}" "${EXPECTED}" RESULT_VARIABLE differs)
if(differs)
  execute_process(COMMAND diff -u "${EXPECTED}" "${transcript}")
  message(FATAL_ERROR "golden transcript differs: ${EXPECTED} (expected) vs ${transcript} (actual)")
endif()
