# The sanitized build's unity batches (docs/testing.md, "What keeps the
# suite fast"): benchdb_unity(TARGET) compiles TARGET's .c files of src/
# in batches of BENCHDB_UNITY_BATCH (cmake/unity_batches.py), each batch
# one compile, so that the headers are parsed once a batch, not once a
# file. Only with BENCHDB_SANITIZE: the plain build keeps one file a
# compile, which catches a missing #include or prototype that an earlier
# file of a batch would supply, and whose object files cli/src_layers
# reads; a clash of names within a batch is an error in the sanitized
# build. Files with source properties of their own (COMPILE_OPTIONS,
# COMPILE_DEFINITIONS) and generated files are compiled alone. The batches
# are made when CMake configures, from the files' contents then; an edit
# of a batched file configures the sanitized build again.
set(BENCHDB_UNITY_BATCH 8 CACHE STRING "Files a unity batch in the sanitized build (below 2: none)")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/unity_batches.py)
# Deferred to the end of the top directory, so that the source properties
# set after the call (mannwhitney.c's COMPILE_OPTIONS) are seen.
function(benchdb_unity target)
  if(BENCHDB_SANITIZE AND BENCHDB_UNITY_BATCH GREATER_EQUAL 2)
    # (EVAL: a deferred call's arguments are otherwise read when it runs.)
    cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL benchdb_unity_now [[${target}]])")
  endif()
endfunction()
function(benchdb_unity_now target)
  find_program(BENCHDB_PYTHON3 python3 REQUIRED)
  get_target_property(sources ${target} SOURCES)
  set(batchable "")
  set(kept "")
  foreach(src IN LISTS sources)
    get_source_file_property(opts ${src} COMPILE_OPTIONS)
    get_source_file_property(defs ${src} COMPILE_DEFINITIONS)
    if(src MATCHES "^${PROJECT_SOURCE_DIR}/src/.*\\.c$" AND NOT opts AND NOT defs)
      list(APPEND batchable ${src})
    else()
      list(APPEND kept ${src})
    endif()
  endforeach()
  execute_process(COMMAND ${BENCHDB_PYTHON3} ${PROJECT_SOURCE_DIR}/cmake/unity_batches.py
                          ${CMAKE_BINARY_DIR}/unity ${target} ${BENCHDB_UNITY_BATCH} ${PROJECT_SOURCE_DIR}/src ${batchable}
                  OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX MATCHALL "(batch|alone) [^\n]+" lines "${out}")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^(batch|alone) " "" path "${line}")
    list(APPEND kept ${path})
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept})
  # A batch depends on its members' names: an edited member configures
  # again (`cmake --build build-asan` too), which may regroup.
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${batchable})
endfunction()
