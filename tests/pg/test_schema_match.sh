# A fresh store on SQLite and a fresh store on PostgreSQL, each made by
# benchdb init, agree on every table's columns (names, order, types through
# the map of tools/gen/schema.py, NOT NULL, defaults), keys, foreign keys
# and indexes, and on every view's columns, and both are what
# schema/benchdb.schema describes (tests/pg/schema_match.py).
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_schema_match
pg_emptydb "$db" >/dev/null
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$db" init
expect_rc 0 "init on PostgreSQL"
run bd --db "$T/s.db" init
expect_rc 0 "init on SQLite"
run python3 "$BENCHDB_SRC/tests/pg/schema_match.py" "$T/s.db" "$db"
expect_rc 0 "the two stores and the description agree"
sed "s/^/  /" "$T/err" >&2
shared=$(cd "$BENCHDB_SRC/tools/gen" && python3 -c 'import schema; print(sum(len(t.engines) == 2 for t in schema.parse().tables))')
expect_out_has "compared $shared tables, " "every table of both engines compared"
cat "$T/out"
pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
