# benchdb_embed(NAME OUT FILES...): generate OUT, a C file defining
#   const struct embedded_file NAME[]; const size_t NAME_count;
# holding each file's base name and bytes, sorted by name. Regenerated
# whenever one of the files changes.
function(benchdb_embed name out)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DNAME=${name} -DOUT=${out} "-DFILES=${files}"
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedRun.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/EmbedRun.cmake
    COMMENT "Embedding ${name}"
    VERBATIM)
endfunction()
