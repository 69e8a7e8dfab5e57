# The store's schema on PostgreSQL: migrations/postgresql, a baseline
# (NNNN_baseline.sql: a new store at version NNNN in one step) and one
# file per later SQLite migration with the same name, applied to an empty
# database give exactly schema/postgresql.sql (made from
# schema/benchdb.schema; pg_dump --schema-only of both, and the unit
# table's rows); so do they from
# every version a store can be at on the way, holding rows stored at that
# version, each version recorded with SQLite's name for it; and those rows
# then give the same derived tables (block_score_data, history_point_data,
# run_cell_data) as rows stored at the last (the later migrations'
# rebuilds and backfills follow the triggers' rules). One database a
# version for both (they were two, a database and its migrations more a
# version: a third of the test's CPU). run_cell_data
# follows later changes; a database without UTF-8 and the C collation, or
# without benchstats, or whose search_path finds PostgreSQL's stddev before
# benchstats', is refused with the reason and left as it was.
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"

# One baseline, at a version SQLite has; after it, one PostgreSQL
# migration per SQLite one, with the same file name.
ls "$BENCHDB_SRC"/migrations/postgresql/ >"$T/pg-migrations"
checks=$((checks + 1))
base=$(grep -c '^[0-9][0-9][0-9][0-9]_baseline\.sql$' "$T/pg-migrations")
[ "$base" = 1 ] || fail "migrations/postgresql holds $base baselines (NNNN_baseline.sql), not one"
base=$(grep '_baseline\.sql$' "$T/pg-migrations" | head -n 1 | cut -c1-4 | sed 's/^0*//')
ls "$BENCHDB_SRC"/migrations/*.sql | xargs -n1 basename |
    awk -v b="$base" 'substr($0, 1, 4) + 0 > b + 0' >"$T/sqlite-after"
grep -v '_baseline\.sql$' "$T/pg-migrations" >"$T/pg-after"
checks=$((checks + 1))
[ -n "$base" ] && ls "$BENCHDB_SRC"/migrations/"$(printf %04d "$base")"_*.sql >/dev/null 2>&1 ||
    fail "the baseline's version $base is no SQLite migration's"
checks=$((checks + 1))
if ! cmp -s "$T/sqlite-after" "$T/pg-after"; then
    fail "after the baseline, migrations/postgresql does not match migrations/ one for one (< SQLite, > PostgreSQL):"
    diff "$T/sqlite-after" "$T/pg-after" >&2
fi
last=$(pg_known)
# The versions a store on PostgreSQL can be at: none, the baseline's, each later one.
versions="0 $(seq "$base" "$last" | tr '\n' ' ')"

pg_newdb benchdb_schema_file >/dev/null && pg -d benchdb_schema_file -f "$BENCHDB_SRC/schema/postgresql.sql" >/dev/null
rc=$?
expect_rc 0 "schema/postgresql.sql loads"
pg_schema benchdb_schema_file >"$T/schema-file"
# The unit table's rows are the description's too (a unit's kind, factor
# and direction are definitions: 0016_unit_directions added one).
units="SELECT name, kind, float8send(factor), direction FROM unit ORDER BY name"
pg -d benchdb_schema_file -A -t -c "$units" >"$T/units-file"
grep -q '^items/s|other|.*|higher$' "$T/units-file" || fail "schema/postgresql.sql: no items/s row: $(cat "$T/units-file")"
[ "$(wc -l <"$T/schema-file")" -gt 300 ] || fail "pg_dump printed $(wc -l <"$T/schema-file") lines of schema"

# Each version a store can be at, in one database: migrated to it, rows
# stored at it (but at none: no tables yet), then migrated to the end;
# its schema must be the file's and its derived rows the same as those
# of rows stored at the last version (below).
derived="SELECT * FROM block_score_data ORDER BY run_id, benchmark_id, block, variant_id;
SELECT * FROM history_point_data ORDER BY run_id, benchmark_id, variant_id, metric;
SELECT * FROM block_ratio ORDER BY run_id, benchmark_id, block;
SELECT * FROM run_cell_data ORDER BY run_id, benchmark_id;
SELECT * FROM sample ORDER BY series_id, warmup, iteration;"
for from in $versions; do
    db=benchdb_schema_$from
    [ "$from" = 0 ] || db=benchdb_schema_data_$from
    pg_newdb "$db" >/dev/null
    run pg_migrate "$db" "$from"
    expect_rc 0 "migrate to version $from"
    if [ "$from" != 0 ]; then
        run pg -d "$db" -f "$BENCHDB_SRC/tests/pg/schema_data.sql"
        expect_rc 0 "rows stored at version $from"
    fi
    run pg_migrate_rest "$db"
    expect_rc 0 "migrate from version $from to the end"
    pg_schema "$db" >"$T/got"
    checks=$((checks + 1))
    if ! cmp -s "$T/schema-file" "$T/got"; then
        fail "migrations from version $from do not give schema/postgresql.sql (< schema file, > migrations):"
        diff "$T/schema-file" "$T/got" | head -40 >&2
    fi
    # the unit rows, then the versions recorded (its last line), in one psql
    run pg -d "$db" -A -t -c "$units" \
        -c "SELECT string_agg(version || ':' || name || ':' || sha256, ' ' ORDER BY version) FROM schema_migration"
    expect_rc 0 "units and versions after migrating from $from"
    sed '$d' "$T/out" >"$T/units"
    checks=$((checks + 1))
    cmp -s "$T/units-file" "$T/units" || {
        fail "migrations from version $from do not give schema/postgresql.sql's units (< schema file, > migrations):"
        diff "$T/units-file" "$T/units" >&2
    }
    expect_eq "$(tail -n 1 "$T/out")" "$(pg_records | sed 's/ $//')" "versions recorded after migrating from $from"
    [ "$from" = 0 ] || pg -d "$db" -A -t -c "$derived" >"$T/derived-$from"
    [ "$from" = "$last" ] || pg_dropdb "$db" >/dev/null
done

# The derived tables of rows stored at each version a store can hold rows
# at (the later migrations' backfills) and at the last one (the triggers
# alone); and the values (from version 13 a view of their arrays).
for at in $versions; do
    [ "$at" = 0 ] || [ "$at" = "$last" ] && continue
    checks=$((checks + 1))
    cmp -s "$T/derived-$last" "$T/derived-$at" || {
        fail "rows stored at version $at give other derived rows than at version $last (< $last, > $at):"
        diff "$T/derived-$last" "$T/derived-$at" | head -20 >&2
    }
done
n=$(wc -l <"$T/derived-$last")
[ "$n" -ge 66 ] || fail "only $n derived rows"
grep -q '|2026-01-01T08:00:00.500Z|' "$T/derived-$last" || fail "started of 2026-01-01T10:00:00.5+02:00 is not 2026-01-01T08:00:00.500Z"
grep -q '|2026-01-02T00:00:59.000Z|' "$T/derived-$last" || fail "started of 2026-01-02t00:00:60z is not 2026-01-02T00:00:59.000Z"

# Version 13 keeps a series' values as one row of arrays (sample_values,
# sample a view of it): the values stored at version 12 come out of the
# view as they went in (counts, warmups, each value's bits), and a store
# whose values no array can keep (a gap in the iterations, a value of no
# series) is refused by benchdb migrate, naming it, and left at version 12.
v12() {
    pg_newdb "$1" >/dev/null && pg_migrate "$1" 12 && pg -d "$1" -f "$BENCHDB_SRC/tests/pg/schema_data.sql" >/dev/null &&
        pg -d "$1" -c "$2" >/dev/null
}
db=benchdb_schema_v13
v12 "$db" "INSERT INTO sample VALUES (1, 0, 2, 2.5, 3), (1, 1, 1, -0.125, 1), (1, 1, 2, 1e300, 1), (2, 0, 2, 0.1, 1)"
rows="SELECT series_id, warmup, iteration, float8send(value), count FROM sample ORDER BY 1, 2, 3"
want=$(pg -d "$db" -A -t -c "$rows")
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$db" migrate
expect_rc 0 "values stored at version 12, migrated"
expect_eq "$(pg -d "$db" -A -t -c "$rows")" "$want" "every value, count and warmup as stored, through the view"
expect_eq "$(pg -d "$db" -A -t -c "SELECT series_id, value, count, warmup FROM sample_values WHERE series_id <= 3 ORDER BY 1")" \
    "1|{0.3333333333333333,2.5}|{1,3}|{-0.125,1e+300}
2|{0.6666666666666666,0.1}||
3|{1}||" "a row of arrays per series (counts only where one is not 1, warmups only where there are)"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM sample_values")" 96 "every series' row"
pg_dropdb "$db" >/dev/null
refused() {
    v12 "$db" "$2"
    run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$db" migrate
    expect_rc 1 "$1: refused"
    expect_err_has "$3" "$1: named"
    expect_eq "$(pg -d "$db" -A -t -F ' ' -c "SELECT (SELECT max(version) FROM schema_migration), \
CAST((SELECT relkind FROM pg_class WHERE oid = CAST('sample' AS regclass)) AS TEXT), (SELECT count(*) FROM sample)" 2>&1)" \
        "12 r $4" "$1: the store left at version 12, sample a table of its rows"
    pg_dropdb "$db" >/dev/null
}
refused "a gap" "INSERT INTO sample VALUES (2, 0, 3, 2.5, 1)" \
    "sample: series 2 (warmup 0) has 2 values numbered 1 to 3, not 1 to 2: they cannot be kept as an array" 97
refused "a value of no series" "INSERT INTO sample VALUES (999, 0, 1, 2.5, 1)" \
    "1 sample rows belong to no series (the first to series 999)" 97
refused "a counted warmup" "INSERT INTO sample VALUES (2, 1, 1, 2.5, 4)" \
    "sample: series 2 has a warmup value (iteration 1) of count 4" 97

# run_cell_data follows changes as SQLite's triggers make it: series
# updated (a total, a block, a variant), deleted, a run's treatment and
# baseline swapped and another run's unset; then every row is what its block ratios
# give afresh, and the cells without ratios have none.
db=benchdb_schema_data_$last
fresh="SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
FROM block_ratio GROUP BY run_id, benchmark_id ORDER BY run_id, benchmark_id"
run pg -d "$db" -A -t -c "UPDATE series SET total = total * 3 WHERE id = 5" -c "UPDATE series SET block = 4 WHERE id = 9" \
    -c "UPDATE series SET variant_id = 1, fork = 7 WHERE id = 30" -c "DELETE FROM series WHERE id IN (2, 6, 10, 14, 18, 22)" \
    -c "UPDATE run SET treatment_id = 1, baseline_id = 2 WHERE id = 1" -c "UPDATE run SET treatment_id = NULL, baseline_id = NULL WHERE id = 3" \
    -c "SELECT * FROM run_cell_data ORDER BY run_id, benchmark_id"
expect_rc 0 "changes under the triggers"
mv "$T/out" "$T/kept"
run pg -d "$db" -A -t -c "$fresh"
checks=$((checks + 1))
cmp -s "$T/out" "$T/kept" || { fail "run_cell_data after changes differs from its block ratios (< fresh, > kept):"; diff "$T/out" "$T/kept" >&2; }
[ "$(wc -l <"$T/kept")" -ge 3 ] || fail "only $(wc -l <"$T/kept") run_cell_data rows after the changes"
grep -q '^3|' "$T/kept" && fail "run 3 without a baseline keeps run_cell_data rows"
grep -q '^1|' "$T/kept" || fail "run 1 swapped has no run_cell_data rows"
pg_dropdb "$db" >/dev/null

# What benchdb needs of the database, refused with the reason.
pg -d postgres -c "DROP DATABASE IF EXISTS benchdb_schema_locale" \
    -c "CREATE DATABASE benchdb_schema_locale TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'" &&
    pg -d benchdb_schema_locale -c "CREATE EXTENSION benchstats" >/dev/null
run pg_migrate benchdb_schema_locale
expect_rc 1 "a database with another collation"
expect_err_has "benchdb needs a database with UTF-8 encoding and the C collation, which benchdb_schema_locale has not" \
    "the collation's refusal"
pg_dropdb benchdb_schema_locale >/dev/null
pg -d postgres -c "DROP DATABASE IF EXISTS benchdb_schema_noext" \
    -c "CREATE DATABASE benchdb_schema_noext TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" >/dev/null
run pg_migrate benchdb_schema_noext
expect_rc 1 "a database without benchstats"
expect_err_has "benchdb needs the extension benchstats in database benchdb_schema_noext" "the extension's refusal"
run pg -d benchdb_schema_noext -A -t -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
expect_out 0 "nothing created in a refused database"
pg_dropdb benchdb_schema_noext >/dev/null
pg_newdb benchdb_schema_path >/dev/null && pg -d postgres -c "ALTER DATABASE benchdb_schema_path RESET search_path"
run pg_migrate benchdb_schema_path
expect_rc 1 "a database whose search_path finds PostgreSQL's stddev first"
expect_err_has "benchdb needs benchstats before pg_catalog in search_path, which is" "the search_path's refusal"
run pg -d benchdb_schema_path -A -t -c "SELECT to_regclass('schema_migration') IS NULL, to_regclass('run') IS NULL"
expect_out "t|t" "the refused baseline left nothing behind"
pg_dropdb benchdb_schema_path >/dev/null
pg_dropdb benchdb_schema_file >/dev/null

[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
