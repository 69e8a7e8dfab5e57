# Every function on SQLite and on PostgreSQL (the extension benchstats):
# the cases of tests/pg/functions.sql, over the table functions_data.sql
# makes the same way on both, must give identical rows, every number bit
# for bit, and the same error texts (tests/pg/dual.py).
# In the plain pass only: the functions' C code runs under the sanitizers
# in the sql/ cases, and of benchdb's lines this test reaches, no other
# sanitized test reached one (JSON's null for an infinite real, which
# cli/sql now checks): tools/plain_only_cover.py, 2026-12-02.
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_functions
pg_newdb "$db" >/dev/null || { fail "cannot create the database $db"; exit 1; }
run bd --db "$T/s.db" init
expect_rc 0 "benchdb init"
run bd --db "$T/s.db" sql --write --file "$BENCHDB_SRC/tests/pg/functions_data.sql"
expect_rc 0 "the table t on SQLite"
run pg -d "$db" -f "$BENCHDB_SRC/tests/pg/functions_data.sql"
expect_rc 0 "the table t on PostgreSQL"
run python3 "$BENCHDB_SRC/tests/pg/dual.py" "$T/s.db" "$db" "$BENCHDB_SRC/tests/pg/functions.sql"
checks=$((checks + 1))
if [ "$rc" != 0 ]; then
    fail "cases differ between the engines:"
    grep -v '^ok ' "$T/out" >&2
    sed 's/^/  stderr: /' "$T/err" >&2
fi
tail -n 1 "$T/out"
pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
