# The linker (docs/testing.md, "What keeps the suite fast"): the first of
# BENCHDB_LINKER's list that links a program here, through gcc's -fuse-ld=.
# "auto" tries mold (Debian's package mold, which scripts/install-deps
# installs), then gold (binutils), then leaves the compiler's default (GNU
# ld): a linker that is missing or broken is passed over, never an error.
# -DBENCHDB_LINKER=bfd (or gold, mold) asks for one; "default" adds nothing.
set(BENCHDB_LINKER "auto" CACHE STRING "Linker for gcc's -fuse-ld= (auto: mold, then gold, then the default)")
if(BENCHDB_LINKER STREQUAL "auto")
  set(benchdb_linkers mold gold)
elseif(BENCHDB_LINKER STREQUAL "default")
  set(benchdb_linkers "")
else()
  set(benchdb_linkers ${BENCHDB_LINKER})
endif()
include(CheckLinkerFlag)
set(BENCHDB_LINKER_USED "default")
foreach(ld IN LISTS benchdb_linkers)
  check_linker_flag(C "-fuse-ld=${ld}" BENCHDB_HAVE_LD_${ld})
  if(BENCHDB_HAVE_LD_${ld})
    add_link_options(-fuse-ld=${ld})
    if(ld STREQUAL "mold")
      # mold links in a child process and its parent returns before the
      # child has ended (--fork, its default): the build would not wait
      # for (or count) the work it started.
      add_link_options(LINKER:--no-fork)
    endif()
    set(BENCHDB_LINKER_USED ${ld})
    break()
  endif()
endforeach()
if(NOT BENCHDB_LINKER STREQUAL "auto" AND NOT BENCHDB_LINKER STREQUAL "default"
   AND BENCHDB_LINKER_USED STREQUAL "default")
  message(FATAL_ERROR "BENCHDB_LINKER=${BENCHDB_LINKER}: gcc -fuse-ld=${BENCHDB_LINKER} does not link here")
endif()
message(STATUS "Linker: ${BENCHDB_LINKER_USED}")
