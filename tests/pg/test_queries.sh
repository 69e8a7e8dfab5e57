# Every shipped saved query on both engines over the same data: a store
# made by benchdb on SQLite (examples/ and a simulated nightly history with
# injected steps, one evaluation recorded) is copied into PostgreSQL at the
# schema of migrations/postgresql (store.py copy; PostgreSQL's triggers
# derive block_score_data and history_point_data), every table must then
# be identical on both (store.py compare), and every query of
# queries.list give identical rows, every number bit for bit (queries.py:
# the queries marked pending are reported).
# Plain pass only: what it runs of benchdb's code, the saved queries on
# SQLite and their translation for PostgreSQL (src/query/pg_sql.c), runs
# under the sanitizers in cli/'s query tests and in pg/copy, which runs
# every shipped query through benchdb on PostgreSQL; here the sanitized
# pass would only repeat the servers' work (19 s of CPU).
# ctest: slow plain-only cost=15
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_queries
run bd simulate -q --history 30 --hosts 2 --cells 3 --steps 3 --seed 9 "$T/nightly"
expect_rc 0 "simulate a nightly history"
run bd --db "$T/s.db" init
run bd --db "$T/s.db" ingest -q "$BENCHDB_SRC/examples" "$T/nightly"
expect_rc 0 "ingest the data on SQLite"
run bd --db "$T/s.db" query gate-ttest
expect_rc 0 "record an evaluation"
pg_newdb "$db" >/dev/null && pg_migrate "$db"
rc=$?
expect_rc 0 "a PostgreSQL store"
[ "$failures" -eq 0 ] || exit 1

run python3 "$BENCHDB_SRC/tests/pg/store.py" copy "$T/s.db" "$db"
expect_rc 0 "copy the store into PostgreSQL"
run python3 "$BENCHDB_SRC/tests/pg/store.py" compare "$T/s.db" "$db"
expect_rc 0 "every table identical on both engines"
cat "$T/out"
run python3 "$BENCHDB_SRC/tests/pg/queries.py" "$T/s.db" "$db" "$BENCHDB_SRC/tests/pg/queries.list"
expect_rc 0 "every query marked same identical on both engines"
cut -c1-400 "$T/out"
sed 's/^/  stderr: /' "$T/err" >&2

pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
