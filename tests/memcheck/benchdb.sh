#!/bin/sh
# benchdb under valgrind memcheck, for the CLI tests run by run.sh: exits
# 97 on any memory error or definite leak (so a test expecting another
# status fails), otherwise with benchdb's own status.
exec valgrind --quiet --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --log-file="${MEMCHECK_LOG:-/dev/stderr}.%p" "$MEMCHECK_BENCHDB" "$@"
