# The one catalogue of functions (src/fnshared/functions.json) against
# what each engine registers: benchdb on SQLite (each function and
# argument count, its kind and determinism) and the extension benchstats
# on PostgreSQL; the functions of both engines the same on both
# (tests/pg/catalogue.py).
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_catalogue
pg_newdb "$db" >/dev/null
run bd --db "$T/s.db" init
expect_rc 0 "init on SQLite"
run python3 "$BENCHDB_SRC/tests/pg/catalogue.py" "$T/s.db" "$db"
expect_rc 0 "both engines register the catalogue's functions"
sed "s/^/  /" "$T/err" >&2
n=$(cd "$BENCHDB_SRC/tools/gen" && python3 -c 'import functions; print(sum(len(functions.engines(f)) == 2 for f in functions.load()["functions"]))')
expect_out_has "compared $n functions of both engines" "every function of both engines compared"
cat "$T/out"
pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
