# history --verify: recorded evaluations run again on the store and
# compared with their records: identical when nothing changed (more
# archives ingested since included); each kind of change named: a stored
# row altered by hand, the data, the schema (a view, a unit's factor, a
# trigger), the rule's text, the version; exit 0 only when all are
# identical; usage errors.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --cells 6 --forks 1 --iterations 2 --warmups 0 sim
bd ingest -q sim || fail "ingest"
bd simulate -q --history 30 --hosts 1 --cells 2 --steps 1 --seed 5 --plan nightly nightly
bd ingest -q nightly || fail "ingest the history"
mkdir mine
cat >mine/worst.sql <<'SQL'
-- name: worst
-- summary: The noisiest cell of a plan
-- param: plan  the plan
-- type: plan = text naming a plan
-- key: benchmark
SELECT b.name AS benchmark, max(c.sd_log) AS sd
FROM plan_run AS r JOIN run_cell AS c ON c.run_id = r.run_id JOIN benchmark AS b ON b.id = c.benchmark_id
WHERE r.plan = :plan GROUP BY b.name ORDER BY sd DESC, b.name LIMIT 1;
SQL
bd query placement-rule -p plan=calibration-sim >/dev/null 2>&1 || fail "evaluation 1"
bd query comparisons -p plan=calibration-sim -p direction=reverse -p level=0.9 --record >/dev/null 2>&1 || fail "evaluation 2"
bd query verdicts -p plan=calibration-sim --record >/dev/null 2>&1 || fail "evaluation 3"
bd query worst --queries mine -p plan=calibration-sim --record >/dev/null 2>&1 || fail "evaluation 4"
bd backtest gate-percent --plan nightly >/dev/null 2>&1 || fail "evaluation 5"

# --- Nothing changed: identical, exit 0.
run bd history --verify --all --queries mine --format csv
expect_rc 0 "verify --all"
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f4 | sort | uniq -c | tr -s ' ')" " 5 identical" "every evaluation identical"
expect_err_has "verified 5 evaluations: 5 identical, 0 not" "the count on stderr"
expect_out_has "1,placement-rule," "one row per evaluation"
expect_out_has ",identical,,same (2),same (" "rows and data the same"
# The answer first: the count before the rows (a terminal shows both).
"$BENCHDB_BIN" history --verify --all --queries mine >both.txt 2>&1
expect_eq "$(head -n 1 both.txt)" "verified 5 evaluations: 5 identical, 0 not" "the count leads the table"
run bd history --verify 2 4 --queries mine
expect_rc 0 "verify two ids"
expect_out_has " 2  comparisons  identical" "a table: id, query, result"
expect_err_has "verified 2 evaluations: 2 identical, 0 not" "two verified"

# Without the directory of its query, worst's text cannot be compared.
run bd history --verify 4 --format csv
expect_rc 1 "a query not on the query path"
expect_out_has "rule text: no saved query worst on the query path now" "the rule text is missing"

# --- More data: the archives an evaluation saw are still there.
bd simulate -q --plan other --cells 2 --forks 1 --iterations 1 --warmups 0 --seed 9 other
bd ingest -q other || fail "ingest more"
run bd history --verify 1 --format csv
expect_rc 0 "more archives since"
expect_out_has "same (42 archives; 12 ingested since)" "the data the evaluation saw, unchanged"
run bd history --verify 5 --format csv
expect_rc 0 "a back-test re-run, composed again"
rm -rf other
# A gate of each history's latest run, then a night more: its rows move
# with the data, its own archives unchanged. The first line says so of
# the evaluations that differ in rows alone, and each one's differences
# end with how many archives came since (a nightly store's verify said
# '8 not' and 'rows: 48 of 48 differ' alone, read as records edited);
# neither cause is claimed, since an edited record reads the same.
bd --db night.db init >/dev/null && bd simulate -q --history 6 --hosts 1 --cells 2 --seed 4 --plan nightly night &&
    mkdir night6 && mv night/ci-a-0006.jsonl.zst night6/ && bd --db night.db ingest -q night || fail "five nights"
bd --db night.db query gate-percent >/dev/null 2>&1
bd --db night.db ingest -q night6 || fail "the sixth night"
run bd --db night.db history --verify --all --format csv
expect_rc 1 "the gate's rows moved with the sixth night"
expect_eq "$(head -n 1 "$T/err")" "verified 1 evaluation: 0 identical, 1 not, in its rows alone, with archives ingested since (its own unchanged)" \
    "the first line: rows alone, with archives ingested since"
expect_out_has '; 1 archive ingested since (its 5 unchanged)",' "the differences end with the archives ingested since"

# --- A stored row altered by hand: the rows differ, which is named.
cp results.db keep.db
bd sql --write "UPDATE evaluation SET rows = json_replace(rows, '\$[0].between_n', 119) WHERE id = 1" >/dev/null
run bd history --verify --all --queries mine --format csv
expect_rc 1 "an altered row"
expect_out_has "1,placement-rule," "the evaluation"
expect_out_has "differs,rows: 1 of 2 differ (run_group=protobuf-3: between_n 119 -> " "which row and column"
expect_err_has "verified 5 evaluations: 4 identical, 1 not" "one of five"
bd sql --write "UPDATE evaluation SET rows = json_remove(rows, '\$[1]') WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_out_has "rows: 2 of 2 differ" "a row gone from the record"
expect_out_has "a row not there before" "the row found now only"
# Every row's key changed: each recorded row gone and each found now new,
# counted among the rows of either (it said "4 of 2 differ").
cp keep.db results.db
bd sql --write "UPDATE evaluation SET rows = json_replace(rows, '\$[0].run_group', 'gone-a', '\$[1].run_group', 'gone-b') WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_out_has "rows: 4 of 4 differ" "every key changed: the rows of either counted"

# --- The version, a missing schema hash, a record that cannot be re-run.
cp keep.db results.db
bd sql --write "UPDATE evaluation SET tool_version = '0.0.1' WHERE id = 3" >/dev/null
run bd history --verify 3 --format csv
expect_rc 1 "another version"
expect_out_has "differs,version: 0.0.1 -> " "the version"
cp keep.db results.db
bd sql --write "UPDATE evaluation SET schema_sha256 = NULL WHERE id = 3" >/dev/null
run bd history --verify 3 --format csv
expect_out_has "schema: not recorded" "an evaluation from before schema hashes"
bd sql --write "UPDATE evaluation SET query_text = 'SELECT 1' WHERE id = 3" >/dev/null
run bd history --verify 3 --format csv
expect_rc 1 "a text that does not parse"
expect_out_has "cannot re-run: its recorded text does not parse" "why it cannot be re-run"

# --- The schema: a unit's factor, a view, a trigger deriving what the rule reads.
cp keep.db results.db
bd sql --write "UPDATE unit SET factor = 2 WHERE name = 'ops/min'" >/dev/null
run bd history --verify --all --queries mine --format csv
expect_rc 1 "a unit's factor"
expect_out_has "1,placement-rule,$(bd sql "SELECT evaluated_at FROM evaluation WHERE id = 1" --format csv | tail -n 1 | tr -d '\r'),differs,schema: sha256 " "the rule read unit"
expect_eq "$(grep -c ',differs,schema: sha256 [0-9a-f]* -> [0-9a-f]*,same (' "$T/out")" 5 \
    "every evaluation derives from units (run_cell_data and history_point through block_ratio and unit): the schema only"
cp keep.db results.db
bd sql --write "DROP VIEW plan_run" >/dev/null
bd sql --write "CREATE VIEW plan_run AS
-- a comment changes nothing
SELECT p.id AS plan_id, p.name AS plan, r.id AS run_id, r.name AS run, r.host_id, h.name AS host, r.position,
       r.attributes FROM plan AS p JOIN run AS r ON r.plan_id = p.id JOIN host AS h ON h.id = r.host_id" >/dev/null
run bd history --verify --all --queries mine
expect_rc 0 "a view written again with a comment"
bd sql --write "DROP VIEW plan_run" >/dev/null
bd sql --write "CREATE VIEW plan_run AS
SELECT p.id AS plan_id, p.name AS plan, r.id AS run_id, r.name AS run, r.host_id, h.name AS host, r.position,
       r.attributes FROM plan AS p JOIN run AS r ON r.plan_id = p.id JOIN host AS h ON h.id = r.host_id WHERE 1" >/dev/null
run bd history --verify 4 --queries mine --format csv
expect_rc 1 "a view changed"
expect_out_has "differs,schema: sha256" "the schema differs"
cp keep.db results.db
bd sql --write "DROP TRIGGER series_delete_history" >/dev/null
run bd history --verify --all --queries mine --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f2,4 | tr -d '\r' | tr '\n' ' ')" \
    "placement-rule,identical comparisons,identical verdicts,identical worst,identical backtest-gate-percent,differs " \
    "a trigger deriving history points: only the back-test reads them"
cp keep.db results.db
bd sql --write "DROP TRIGGER block_score_update_run_cell" >/dev/null
run bd history --verify 4 --queries mine --format csv
expect_out_has "differs,schema: sha256" "a trigger deriving run_cell_data"

# --- The rule's text now, and the data.
cp keep.db results.db
mkdir changed
{ cat "$BENCHDB_SRC/queries/placement-rule.sql"; echo "-- a line more"; } >changed/placement-rule.sql
run bd history --verify 1 --queries changed --format csv
expect_rc 1 "a rule whose text changed"
expect_out_has "differs,rule text: sha256 " "the rule text"
bd sql --write "DELETE FROM archive WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "an archive deleted"
expect_out_has "data: fingerprint " "the data"
expect_out_has "rows: " "and the rows"

# --- Usage.
cp keep.db results.db
run bd history --verify
expect_rc 2 "--verify without ids"
expect_err_has "error: history: --verify needs evaluation ids, or --all (not both)" "message"
run bd history --verify 1 --all
expect_rc 2 "ids and --all"
run bd history --all --diff 1 2
expect_rc 2 "--all with --diff"
expect_err_has "--all goes with --verify or a listing" "message"
run bd history --verify x
expect_rc 2 "a bad id"
run bd history --verify 1 --diff 1 2
expect_rc 2 "--verify and --diff"
# -n lists the last N: with --verify --all it verified every evaluation,
# with --diff it did nothing; refused rather than ignored
run bd history --verify --all -n 1
expect_rc 2 "--verify --all -n 1"
expect_err_has "error: history: --limit lists the last N evaluations: not with --verify" "says why"
run bd history --diff 1 2 --limit 1
expect_rc 2 "--diff with --limit"
# The limits hold --verify's re-runs; a listing and --diff run no query:
# refused there rather than taken and ignored (and --diff reads no saved
# query: --queries refused too).
for o in "--timeout 5" "--max-rows 10" "--max-result-bytes 1M"; do
    run bd history $o
    expect_rc 2 "a listing with $o"
    expect_err_has "error: history: ${o% *} holds the queries --verify runs again; a listing runs none" "listing, $o: says why"
    run bd history --diff 1 2 $o
    expect_rc 2 "--diff with $o"
    expect_err_has "error: history: ${o% *} holds the queries --verify runs again; --diff runs none" "--diff, $o: says why"
    expect_eq "$(wc -c <"$T/out")" 0 "--diff with $o: nothing on stdout"
done
run bd history --all gate-zscore
expect_rc 2 "--all with NAME: NAME lists every evaluation of it already"
expect_err_has "error: history: --all lists every query's evaluations, lookups too; 'gate-zscore' lists every evaluation of gate-zscore already" \
    "says why"
run bd history --diff 1 2 --queries .
expect_rc 2 "--diff with --queries"
expect_err_has "error: history: --queries: --diff compares two recorded evaluations and reads no saved query" "says why"
run bd history --verify 1 --timeout 60 --max-rows 1000000
expect_rc 0 "--verify takes the limits"
run bd history --verify 1 --max-rows 1
expect_rc 1 "--verify: a re-run held to --max-rows 1 stops"
run bd history --verify 99
expect_rc 1 "a missing evaluation"
expect_err_has "error: history: no evaluation 99 in the store (its " "message"
n=$(bd sql "SELECT count(*) || ' evaluations are ' || min(id) || ' to ' || max(id) FROM evaluation" --format csv | tail -1 | tr -d '\r')
expect_err_has "$n: 'benchdb history --all' lists them)" "with the ids there are"
bd --db none.db init >/dev/null
run bd --db none.db history --verify 1
expect_rc 1 "an evaluation of a store that holds none"
expect_eq "$(cat "$T/err")" "error: history: no evaluation 1 in the store (it holds none yet)" "says so"
run bd --db none.db history --verify --all
expect_rc 0 "--verify --all of a store that holds none: nothing differs"
expect_eq "$(cat "$T/err")" "no evaluation is recorded: nothing to verify" "says so (not 'verified 0 evaluations')"
expect_eq "$(wc -c <"$T/out")" 0 "and no bare header"
# An empty history, and a query never evaluated, say so first (they printed
# a bare header, the note after it or none at all); so does an empty list.
run bd --db none.db history
expect_rc 0 "the history of a store that holds none"
expect_eq "$(cat "$T/err")" "no evaluation is recorded yet: 'benchdb query NAME' records one of a query with an -- outcome: column" \
    "says so"
run bd --db none.db history gate-zscore
expect_rc 0 "a saved query never evaluated"
expect_eq "$(cat "$T/err")" "no evaluation of gate-zscore is recorded" "says so"
run bd --db none.db list plans
expect_rc 0 "the plans of an empty store"
expect_eq "$(cat "$T/err")" "the store holds no plans yet: 'benchdb ingest FILE' loads some" "says so"
expect_eq "$(bd --db none.db history gate-zscore 2>&1 | head -1)" "no evaluation of gate-zscore is recorded" "first, before the header"
expect_eq "$(bd --db none.db list plans 2>&1 | head -1)" "the store holds no plans yet: 'benchdb ingest FILE' loads some" \
    "first, before the header"
run bd --db none.db list archives --format csv
expect_rc 0 "CSV of an empty store"
expect_eq "$(cat "$T/err")" "" "only the header, for a program"

finish
