# Every unit a harness writes whose direction is not in doubt has one
# (migration 0016_unit_directions): Google Benchmark's items_per_second
# (unit items/s) 20% lower in the head is worse, and a gate fails on it:
# compare of the two files and its --gate; the same files as runs of a
# store, through compare, query compare and the gate query gate-percent;
# a store at version 15 that holds items/s values (the unit as its ingest
# added it, direction unknown) migrated to 16, then judging the drop, and
# history --verify of an evaluation recorded before the migration (its
# rows and its schema hash differ, and say so). pg/units: the same on
# PostgreSQL.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
G="$BENCHDB_SRC/tests/data/harness/google-benchmark"
cp "$G/items_base.json" base.json
cp "$G/items_head.json" head.json

# ---- two files ----
run bd compare base.json head.json --format csv
expect_rc 0 "compare of the files"
tr -d '\r' <"$T/out" >files.csv
# the items/s cell: its verdict, and the gate's view of it (no_regression 0)
expect_eq "$(awk -F, '$7 == "items_per_second" && $3 == "cell" {print $4, $8, $20, $22}' files.csv)" \
    "BM_Tokenize/1024 items_per_second (items/s) worse 0" "the items/s cell 20% lower is worse, a regression"
expect_eq "$(awk -F, '$7 == "bytes_per_second" && $3 == "cell" {print $4, $8, $20, $22}' files.csv)" \
    "BM_Copy/4096 bytes_per_second (B/s) ~ 1" "the B/s cell unchanged"
run bd compare base.json head.json --metric items_per_second --gate
expect_rc 3 "--gate on items/s alone: the gate fails"
expect_out_has "[-20.7%, -19.7%] worse" "the table's verdict"
expect_err_has "compare: regressed (0 slower, 1 worse, 0 faster, 0 unchanged)" "the summary counts it worse"
run bd compare base.json head.json --metric items_per_second --gate --format markdown
expect_rc 3 "--gate, markdown"
expect_eq "$(head -n 1 "$T/out")" \
    "**0 slower, 1 worse, 0 faster, 0 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; n = 10+10) — gate: fails" \
    "the comment's first line"
# Swapped, the rise is better, and the gate passes.
run bd compare head.json base.json --metric items_per_second --gate
expect_rc 0 "--gate on the rise"
expect_err_has "compare: no regression (0 slower, 0 faster, 1 better, 0 unchanged)" "the rise is better"

# ---- a store ----
bd init >/dev/null
bd ingest -q --plan p --run base --host h base.json
bd ingest -q --plan p --run head --host h head.json
expect_eq "$(bd sql "SELECT name, kind, factor, direction FROM unit WHERE name = 'items/s'" --format csv | tail -n 1 | tr -d '\r')" \
    "items/s,other,1.0,higher" "the unit's row"
run bd compare --plan p base head --metric items_per_second --gate --no-record
expect_rc 3 "compare of two runs, --gate"
expect_out_has "[-20.7%, -19.7%] worse" "runs: the verdict"
q() { bd query compare -p plan=p -p a=base -p b=head -p metric=items_per_second "$@"; }
run q --gate --no-record --format csv
expect_rc 3 "query compare --gate"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, '$1 == "cell" {print $2, $6, $18, $20}')" "BM_Tokenize/1024 items/s worse 0" \
    "query compare: the cell worse, no_regression 0"
# The percentage gate judges items/s against its median: a drop is a regression.
run bd query gate-percent -p metric=items_per_second -p percent=5 --gate --no-record --format csv
expect_rc 3 "gate-percent on items/s"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, 'NR > 1 {print $2, $17, $19, $21}')" "BM_Tokenize/1024 20.180741327889624 regression 0" \
    "gate-percent: 20% worse, a regression, pass 0"

# ---- a store at version 15 ----
# Version 15 had no items/s row: the first ingest of it added the unit as
# kind 'other', factor 1, direction NULL. Migration 0016 changes nothing
# else, so this store taken back to it is one a version-15 ingest made
# (a later migration that changes the store must be taken back too).
cp results.db old.db
bd --db old.db sql --write "UPDATE unit SET direction = NULL WHERE name = 'items/s'" >/dev/null
# An evaluation recorded as version 15 records it: the drop is "lower",
# no regression.
run bd --db old.db query compare -p plan=p -p a=base -p b=head -p metric=items_per_second --gate
expect_rc 0 "before the migration the gate passed"
expect_err_has "recorded as evaluation 1" "recorded"
expect_eq "$(bd --db old.db sql "SELECT json_extract(rows, '\$[0].verdict') FROM evaluation" --format csv | tail -n 1 | tr -d '\r')" \
    "lower" "the recorded verdict"
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM schema_migration WHERE version >= 16")
c.commit()' old.db || fail "taking old.db back to version 15"
run bd --db old.db history
expect_rc 1 "a store at version 15 is read by no command until migrated"
expect_err_has "the store's schema is at version 15 and needs migrations up to" "it says so"
run bd --db old.db migrate
expect_rc 0 "migrate"
expect_out_has "schema version 15 to" "migrated from 15"
expect_eq "$(bd --db old.db sql "SELECT name, kind, factor, direction FROM unit WHERE name = 'items/s'" --format csv | tail -n 1 | tr -d '\r')" \
    "items/s,other,1.0,higher" "the migrated unit's row"
run bd --db old.db query compare -p plan=p -p a=base -p b=head -p metric=items_per_second --gate --no-record --format csv
expect_rc 3 "after the migration the gate fails"
expect_eq "$(tr -d '\r' <"$T/out" | awk -F, '$1 == "cell" {print $18, $20}')" "worse 0" "after the migration: worse, no_regression 0"
run bd --db old.db query gate-percent -p metric=items_per_second -p percent=5 --gate --no-record
expect_rc 3 "after the migration gate-percent fails"
# The evaluation recorded before: its rows depended on the direction.
run bd --db old.db history --verify 1 --format csv
expect_rc 1 "history --verify of the evaluation recorded before"
expect_err_has "verified 1 evaluation: 0 identical, 1 not" "it differs"
expect_out_has "verdict lower -> worse" "the verdict's change named"
expect_out_has 'outcome: ""no regression"" -> ""regressed""' "and the outcome's"
expect_out_has "schema: sha256 " "the schema hash differs (the unit rows are part of it)"

# A store at version 15 without the unit: the migration adds its row.
bd --db empty.db init >/dev/null
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM unit WHERE name = ?", ("items/s",))
c.execute("DELETE FROM schema_migration WHERE version >= 16")
c.commit()' empty.db || fail "taking empty.db back to version 15"
run bd --db empty.db migrate
expect_rc 0 "migrate a store without the unit"
expect_eq "$(bd --db empty.db sql "SELECT name, kind, factor, direction FROM unit WHERE name = 'items/s'" --format csv | tail -n 1 | tr -d '\r')" \
    "items/s,other,1.0,higher" "the unit's row added"

# ---- JMH's minutes, hours and days ----
# @OutputTimeUnit(TimeUnit.MINUTES) writes "min/op" (avgt) and "ops/min"
# (thrpt), HOURS "hr/op" and "ops/hr", DAYS "day/op" and "ops/day" (JMH's
# TimeValue.tuToString): all but ops/min were refused as a primary
# metric's unit. Each loads now, converts (120.9 s/op for 2.015 min/op),
# and 20% slower is slower, in compare and in a gate.
python3 - <<'PY'
import json
def f(name, scale):
    d = [{"benchmark": "org.example.Slow.%s" % u.replace("/", "_"), "mode": mode,
          "primaryMetric": {"scoreUnit": u, "rawData": [[x * (scale if mode == "avgt" else 1 / scale)
                                                         for x in (2.0, 2.1, 2.05, 1.95, 2.02, 2.01, 1.99, 2.03, 2.0, 2.04)]]}}
         for u, mode in (("min/op", "avgt"), ("hr/op", "avgt"), ("day/op", "avgt"), ("ops/hr", "thrpt"), ("ops/day", "thrpt"))]
    json.dump(d, open(name, "w"))
f("jmh_base.json", 1.0)
f("jmh_head.json", 1.2)
PY
run bd compare jmh_base.json jmh_head.json --format csv --gate
expect_rc 3 "JMH in minutes, hours, days: a 20% slowdown fails the gate"
python3 - "$T/out" <<'PY' || fail "JMH's minutes, hours and days: $(cat "$T/out")"
import csv, sys
rows = {r["benchmark"].rsplit(".", 1)[1]: r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "cell"}
assert sorted(rows) == ["day_op", "hr_op", "min_op", "ops_day", "ops_hr"], sorted(rows)
median = sorted((2.0, 2.1, 2.05, 1.95, 2.02, 2.01, 1.99, 2.03, 2.0, 2.04))[4:6]
m = sum(median) / 2
for name, unit, factor in (("min_op", "sec/op", 60), ("hr_op", "sec/op", 3600), ("day_op", "sec/op", 86400),
                           ("ops_hr", "ops/s", 1 / 3600), ("ops_day", "ops/s", 1 / 86400)):
    r = rows[name]
    assert r["unit"] == unit and r["verdict"] == "slower" and r["no_regression"] == "0", r
    assert abs(float(r["median_a"]) / (m * factor) - 1) < 1e-12, (r["median_a"], m * factor)
PY
checks=$((checks + 1))
bd init --db jmh.db >/dev/null
run bd ingest --db jmh.db --plan j --host h --run base jmh_base.json
expect_rc 0 "JMH in hours: stored"
bd ingest --db jmh.db --quiet --plan j --host h --run head jmh_head.json || fail "ingest the head"
run bd query gate-percent --db jmh.db --no-record --param plan=j --gate
expect_rc 3 "the gate query fails on them"
expect_err_has "the gate fails: 5 of 5 runs judged regressed" "every one of the five"

finish
