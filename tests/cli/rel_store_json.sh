# JSON (docs/reliability.md): 'check' said "ok" on a store
# whose run.attributes held malformed JSON (stored around the CHECK
# constraint with PRAGMA ignore_check_constraints), while every saved query
# failed with "malformed JSON" naming no row. Now check validates every JSON
# column the schema declares (found in schema/schema.sql: each json_valid
# in a CHECK) and names the row; a saved query meeting bad JSON points to
# check. Each column is damaged in turn, then thirteen rows at once.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd() { "$BENCHDB_BIN" --db "$T/s.db" "$@"; }
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
# Every JSON column gets a value: an evaluation and a series detail.
mkdir -p q && printf -- '-- name: e\nSELECT count(*) AS runs FROM run\n' >q/e.sql
bd query --record --queries q e >/dev/null 2>&1
bd sql --write "UPDATE series SET detail = '{\"mode\":\"avgt\"}' WHERE id = 1" >/dev/null
cp s.db good.db
columns=$(grep -o 'json_valid([a-z_]*)' "$BENCHDB_SRC/schema/schema.sql" | wc -l | tr -d ' ')
expect_eq "$columns" 7 "test setup: the schema's JSON columns (update the list below with it)"
run bd check
expect_rc 0 "check on a sound store"
expect_out_has "check: $columns JSON columns: valid JSON in every row" "check: JSON line"

# bad TABLE COLUMN: one malformed value in TABLE.COLUMN (its lowest id).
bad() {
    cp good.db s.db
    bd sql --write "PRAGMA ignore_check_constraints = ON;
        UPDATE $1 SET $2 = '{\"a\":' WHERE id = (SELECT min(id) FROM $1)" >/dev/null || fail "test setup: $1.$2"
    id=$("$BENCHDB_BIN" --db "$T/s.db" sql "SELECT min(id) FROM $1" --format csv | tail -n 1 | tr -d '\r')
    run bd check
    expect_rc 1 "check: $1.$2"
    expect_eq "$(cat "$T/err")" "error: check: $1 $id: $2 is not valid JSON" "check names $1 $id $2"
    expect_out_has "check: $columns JSON columns: 1 value is NOT valid JSON" "check: $1.$2: summary"
    expect_eq "$(head -n 1 "$T/out")" "check: 1 problem found" "check: $1.$2: one problem"
}
bad run attributes
bad benchmark params
bad series detail
bad gate detail
bad event detail
bad evaluation params
bad evaluation rows

# A saved query meeting the bad value points to check.
cp good.db s.db
bd sql --write "PRAGMA ignore_check_constraints = ON; UPDATE run SET attributes = '[1,' WHERE id = 1" >/dev/null
run bd query --record placement-rule --param plan=calibration-example
expect_rc 1 "a rule reading malformed JSON"
expect_eq "$(cat "$T/err")" "error: query placement-rule: malformed JSON (a value in the store is not valid JSON: 'benchdb check' names its row)" "the rule's message points to check"

# Thirteen bad values: ten named, the rest counted.
cp good.db s.db
bd sql --write "PRAGMA ignore_check_constraints = ON;
    INSERT INTO gate(id, run_id, name, passed, detail)
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 13)
    SELECT 100 + x, 1, 'g' || x, 1, 'not json' FROM c" >/dev/null
run bd check
expect_rc 1 "check: thirteen bad values"
expect_eq "$(cat "$T/err")" "$(for i in 101 102 103 104 105 106 107 108 109 110; do
    echo "error: check: gate $i: detail is not valid JSON"; done)
error: check: gate: 3 more rows whose detail is not valid JSON" "check: ten named, three counted"
expect_out_has "check: $columns JSON columns: 13 values are NOT valid JSON" "check: thirteen: summary"
expect_eq "$(head -n 1 "$T/out")" "check: 13 problems found" "check: thirteen problems"
finish
