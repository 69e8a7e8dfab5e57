#!/bin/sh
# 'make memcheck' (docs/reliability.md): the suite's representative part
# under valgrind memcheck, on a build without sanitizers. Runs:
#  - every unit test but the two fault-injection ones (thousands of runs
#    each: ASan covers them in 'make test'), every SQL case file, and the
#    fuzz corpora replays, each under valgrind with --error-exitcode;
#  - these CLI tests with BENCHDB_BIN a wrapper running benchdb under
#    valgrind: sql, query, rel_hostile, ingest_basic, ingest_zstd,
#    ingest_atomic, ingest_stdin, ingest_dir, check_store, ingest_bad,
#    ingest_files, delete_list, and every refused input
#    (tests/cli/lib/refused.sh: tests/data/bad, formats/bad, refused).
# Any memory error or definite/indirect leak fails it; the logs of failing
# runs are printed.
# usage: tests/memcheck/run.sh BUILD
set -u
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed" >&2; exit 1; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
vg="valgrind --quiet --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"
failed=0
n=0
check() { # NAME STATUS
    n=$((n + 1))
    if [ "$2" != 0 ]; then
        echo "memcheck: FAIL $1 (exit $2)"
        failed=$((failed + 1))
    else
        echo "memcheck: ok   $1"
    fi
}
export BENCHDB_SRC="$src" BENCHDB_BUILD="$build" BENCHDB_EXT="$build/benchstats" BENCHDB_SANITIZED=1 BENCHDB=
for t in "$build"/tests/test_*; do
    name=$(basename "$t")
    case $name in test_ingest_oom | test_stats_oom) continue ;; esac
    $vg "$t" >"$logs/$name.out" 2>&1
    rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$logs/$name.out"
    check "unit/${name#test_}" "$rc"
done
for f in "$src"/tests/sql/*.sql; do
    name=$(basename "$f" .sql)
    $vg "$build/tests/sqltest" "$f" >"$logs/sql-$name.out" 2>&1
    rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$logs/sql-$name.out"
    check "sql/$name" "$rc"
done
for t in "$build"/tests/fuzz/fuzz_*_replay; do
    name=$(basename "$t" _replay)
    name=${name#fuzz_}
    $vg "$t" "$src/tests/fuzz/corpus/$name" >"$logs/fuzz-$name.out" 2>&1
    rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$logs/fuzz-$name.out"
    check "fuzz/$name" "$rc"
done
export MEMCHECK_BENCHDB="$build/benchdb" MEMCHECK_LOG="$logs/vg"
export BENCHDB_BIN="$src/tests/memcheck/benchdb.sh"
cases=""
for f in "$src"/tests/data/bad/*.err; do cases="$cases archive:$(basename "$f" .err)"; done
for f in "$src"/tests/data/formats/bad/*/*.err; do
    cases="$cases harness:$(basename "$(dirname "$f")")/$(basename "$f" .err)"
done
for d in "$src"/tests/data/refused/*/; do cases="$cases case:$(basename "$d")"; done
for name in sql query rel_hostile ingest_basic ingest_zstd ingest_atomic ingest_stdin ingest_dir check_store ingest_bad \
            ingest_files delete_list $cases; do
    rm -f "$logs"/vg.*
    case $name in
    *:*) sh "$src/tests/cli/lib/refused.sh" "${name%%:*}" "${name#*:}" >"$logs/cli-refused.out" 2>&1 ;;
    *) sh "$src/tests/cli/$name.sh" >"$logs/cli-$name.out" 2>&1 ;;
    esac
    rc=$?
    # A memory error shows in the valgrind logs even where the test itself
    # expected a failure status.
    if [ -n "$(cat "$logs"/vg.* 2>/dev/null)" ]; then
        cat "$logs"/vg.* | head -n 40
        rc=97
    fi
    case $name in *:*) out="$logs/cli-refused.out" ;; *) out="$logs/cli-$name.out" ;; esac
    [ "$rc" = 0 ] || [ "$rc" = 97 ] || tail -n 30 "$out"
    check "cli/$name" "$rc"
done
echo "memcheck: $((n - failed)) of $n passed"
[ "$failed" = 0 ]
