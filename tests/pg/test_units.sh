# Units with a direction on PostgreSQL (migration 0016_unit_directions, as
# cli/unit_directions on SQLite): Google Benchmark's items_per_second 20%
# lower in the head is worse in compare of two runs and in query compare,
# and their --gate and gate-percent's fail on it; a store at version 15
# holding items/s values (the unit as its ingest added it, direction
# unknown), with an evaluation recorded then, migrated by benchdb migrate
# to 16 judges the drop, and history --verify says the evaluation's rows
# and schema hash differ; a store at version 15 without the unit gets its
# row. (pg/schema: every version migrated gives the description's unit
# rows.)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_units
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
G="$BENCHDB_SRC/tests/data/harness/google-benchmark"
pg_emptydb "$db" && bd --db "$uri" init >/dev/null || fail "a store on PostgreSQL"
[ "$failures" -eq 0 ] || exit 1
unit_row() { pg -d "$1" -A -t -c "SELECT name, kind, factor, direction FROM unit WHERE name = 'items/s'"; }

bd --db "$uri" ingest -q --plan p --run base --host h "$G/items_base.json" || fail "ingest base"
bd --db "$uri" ingest -q --plan p --run head --host h "$G/items_head.json" || fail "ingest head"
expect_eq "$(unit_row "$db")" "items/s|other|1|higher" "the unit's row"
run bd --db "$uri" compare --plan p base head --metric items_per_second --gate --no-record
expect_rc 3 "compare of two runs, --gate"
expect_out_has "[-20.7%, -19.7%] worse" "the verdict"
run bd --db "$uri" query gate-percent -p metric=items_per_second -p percent=5 --gate --no-record --format csv
expect_rc 3 "gate-percent on items/s"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 {print $2, $17, $19, $21}')" \
    "BM_Tokenize/1024 20.180741327889624 regression 0" "gate-percent: 20% worse, a regression, pass 0"

# ---- a store at version 15 ----
# Taken back: the unit as a version-15 ingest added it (migration 0016
# changes nothing else; a later migration that changes the store must be
# taken back too), an evaluation recorded in that state.
pg -d "$db" -c "UPDATE unit SET direction = NULL WHERE name = 'items/s'" || fail "the unit as at version 15"
q() { bd --db "$uri" query compare -p plan=p -p a=base -p b=head -p metric=items_per_second "$@"; }
run q --gate --format csv
expect_rc 0 "before the migration the gate passed"
expect_err_has "recorded as evaluation 1" "recorded"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, '$1 == "cell" {print $18, $20}')" "lower 1" "the drop was lower, no regression"
pg -d "$db" -c "DELETE FROM schema_migration WHERE version >= 16" || fail "the store back at version 15"
run bd --db "$uri" migrate
expect_rc 0 "migrate"
expect_out_has "schema version 15 to" "migrated from 15"
expect_eq "$(unit_row "$db")" "items/s|other|1|higher" "the migrated unit's row"
run q --gate --no-record --format csv
expect_rc 3 "after the migration the gate fails"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, '$1 == "cell" {print $18, $20}')" "worse 0" "after the migration: worse, no_regression 0"
run bd --db "$uri" query gate-percent -p metric=items_per_second -p percent=5 --gate --no-record
expect_rc 3 "after the migration gate-percent fails"
run bd --db "$uri" history --verify 1 --format csv
expect_rc 1 "history --verify of the evaluation recorded before"
expect_err_has "verified 1 evaluation: 0 identical, 1 not" "it differs"
expect_out_has "verdict lower -> worse" "the verdict's change named"
expect_out_has "schema: sha256 " "the schema hash differs (the unit rows are part of it)"
pg_dropdb "$db" >/dev/null

# A store at version 15 without the unit: the migration adds its row.
pg_newdb "$db" >/dev/null && pg_migrate "$db" 15 || fail "a store at version 15"
expect_eq "$(unit_row "$db")" "" "no items/s at version 15"
run bd --db "$uri" migrate
expect_rc 0 "migrate a store without the unit"
expect_eq "$(unit_row "$db")" "items/s|other|1|higher" "the unit's row added"
pg_dropdb "$db" >/dev/null

finish
