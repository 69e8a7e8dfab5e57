# history_point_data.started on PostgreSQL is what SQLite's trigger
# computes with strftime, for 5,000 random RFC 3339 start times, 1,000 of
# the form benchdb writes (history_started()'s own path) and the
# edge cases (tests/pg/started.py).
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_started
pg_newdb "$db" >/dev/null && pg -d "$db" -f "$BENCHDB_SRC/schema/postgresql.sql" >/dev/null
rc=$?
expect_rc 0 "schema/postgresql.sql loads"
run python3 "$BENCHDB_SRC/tests/pg/started.py" "$db"
expect_rc 0 "start times as SQLite's strftime gives them"
cat "$T/out"
sed "s/^/  stderr: /" "$T/err" >&2
pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
