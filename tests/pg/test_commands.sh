# benchdb's commands on a store on PostgreSQL (--db postgresql://...):
# init makes the store (the extension, every migration of
# migrations/postgresql, the same schema as the test harness's migrations
# give) and the role benchdb_reader; init again and migrate change nothing;
# the same data as an SQLite store (copied by store.py, so that this test
# does not hang on ingest) gives identical stdout for sql, every shipped
# query and compare on both engines, every number bit for bit; an
# evaluation recorded on each engine holds the same rows and the same
# registration against a rule registered on each; history lists, shows and
# diffs what was recorded; sql is read-only unless --write; a schema newer
# than benchdb's is refused; --timeout stops a statement; four inits at
# once make one store; history --verify finds what was recorded identical
# (report, backtest, --verify: test_report.sh); a command that
# does not work on a server yet says so, and so does init where the
# extension cannot be installed. (ingest: test_ingest.sh.)
# ctest: cost=11
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_commands
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
known=$(pg_known)

pg_emptydb "$db"
rc=$?
expect_rc 0 "an empty database"
[ "$failures" -eq 0 ] || exit 1

# ---- init, migrate ----
run bd --db "$uri" init
expect_rc 0 "init on PostgreSQL"
expect_out "created store $uri (schema version $known)
read-only analysis: log in as a member of benchdb_reader (SELECT only; docs/postgresql.md)" "init says what it made"
run pg -d "$db" -A -t -c "SELECT extname FROM pg_extension WHERE extname = 'benchstats'"
expect_out "benchstats" "init installed the extension"
run bd --db "$uri" init
expect_rc 0 "init again"
expect_out_has "store $uri is up to date (schema version $known)" "init again changes nothing"
run bd --db "$uri" migrate
expect_out "store $uri is up to date (schema version $known)" "migrate: nothing pending"
run bd --db "$uri" migrate --status -f csv
expect_rc 0 "migrate --status"
checks=$((checks + 1))
[ "$(grep -c ',applied,' "$T/out")" = "$known" ] || fail "migrate --status: not every migration applied: $(cat "$T/out")"
recorded=$(pg -d "$db" -A -t -c "SELECT string_agg(version || ':' || name || ':' || sha256, ' ' ORDER BY version) FROM schema_migration")
expect_eq "$recorded " "$(pg_records)" "schema_migration records each version's number, name and the SHA-256 of what made it"
# A store at this version made before the baseline (each version recorded
# with the text of its own migration then) is current: migrate leaves it
# as it is, check finds it sound, and --status says the texts differ.
pg -d postgres -c "DROP DATABASE IF EXISTS benchdb_commands_old" -c "CREATE DATABASE benchdb_commands_old TEMPLATE $db" >/dev/null
pg -d benchdb_commands_old -c "UPDATE schema_migration SET sha256 = repeat('0', 64)" >/dev/null
old="postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_commands_old"
run bd --db "$old" migrate
expect_out "store $old is up to date (schema version $known)" "a store made version by version is current"
run bd --db "$old" check
expect_out_has "check: schema: version $known (migrations 1 to $known recorded): ok" "and sound"
run bd --db "$old" migrate --status -f csv
expect_eq "$(grep -c ',modified,' "$T/out")" "$known" "--status: each version made by another text"
pg_dropdb benchdb_commands_old >/dev/null
# The same schema as the harness's own migration runner (lib.sh) gives.
pg_newdb benchdb_commands_ref >/dev/null && pg_migrate benchdb_commands_ref
pg_schema benchdb_commands_ref >"$T/schema-ref"
pg_schema "$db" | grep -v 'benchstats' >"$T/schema-init"
grep -v 'benchstats' "$T/schema-ref" >"$T/schema-ref2"
checks=$((checks + 1))
cmp -s "$T/schema-ref2" "$T/schema-init" || { fail "init's schema differs from lib.sh's migrations"; diff "$T/schema-ref2" "$T/schema-init" | head -20 >&2; }
pg_dropdb benchdb_commands_ref >/dev/null

# ---- the same data on both engines ----
run pg_same_data "$db"
expect_rc 0 "the same data on SQLite and PostgreSQL"
[ "$failures" -eq 0 ] || exit 1
# Under the sanitizers (BENCHDB_SANITIZED=1) each `both` below runs on
# PostgreSQL alone (pg_lite, lib.sh): the SQLite store's sql, list, query,
# compare, history and recorded evaluations are the answers PostgreSQL's
# are compared with, and the comparisons are the plain pass's, which runs
# this test whole. The sanitized run keeps every command on PostgreSQL,
# each checked for its exit status and output, and the SQLite store these
# data come from (pg_same_data). That is enough: the same commands on an
# SQLite store run under the sanitizers in cli/ (cli/query, cli/compare_cli,
# cli/history_verify, cli/report_pages ...; docs/testing.md, "The
# PostgreSQL tests' SQLite side, left to the plain pass":
# tools/plain_only_cover.py's counts).
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && pg_lite=0

both "sql: counts, sums and a mean, a LIKE parameter" sql "SELECT count(*) AS n, sum(value) AS s, avg(value) AS a, \
min(p.name) AS p FROM sample JOIN series ON series.id = sample.series_id JOIN run ON run.id = series.run_id \
JOIN plan p ON p.id = run.plan_id WHERE p.name LIKE :x" -p x=calib%
both "sql: reals bit for bit (17 digits), json, NULLs" sql "SELECT s.series_id, s.iteration, s.value, \
CAST(s.value AS DOUBLE PRECISION) / 7 AS seventh, r.attributes ->> 'profile' AS profile, r.started_at \
FROM sample s JOIN series se ON se.id = s.series_id JOIN run r ON r.id = se.run_id \
ORDER BY s.series_id, s.warmup, s.iteration LIMIT 200" --digits 17 -f csv
both "sql: several statements, the last one's rows" sql "SELECT 1 AS a; SELECT name, position FROM run \
WHERE position = :p ORDER BY name" -p p=2 -f json
both "sql: benchstats functions" sql "SELECT se.id, geomean(s.value) AS g, median(s.value) AS m FROM sample s \
JOIN series se ON se.id = s.series_id GROUP BY se.id ORDER BY se.id" --digits 17
both "list plans" list
both "list runs of a plan" list runs --plan calibration-sim -f csv
both "list archives" list archives -f csv
# Finding one's way: the sqlite3 shell's dot commands, and the nearest
# names after an unknown one (docs/schema.md), on both engines.
# (ingest_defer: SQLite's ingest's own bookkeeping; sample: a table on
# SQLite, on PostgreSQL a view of the table sample_values, docs/schema.md)
tables_alike() { grep -v '^ingest_defer \|^sample_values ' | sed 's/^\(sample  *\)view$/\1table/'; }
filter=tables_alike
both "sql .tables" sql ".tables"
filter=cat
run bd --db "$uri" sql ".tables sample%"
checks=$((checks + 1))
grep -Eq '^sample +view$' "$T/out" && grep -Eq '^sample_values +table$' "$T/out" ||
    fail "PostgreSQL's sample is a view of the table sample_values: $(cat "$T/out")"
filter=tables_alike
both "sql .tables PATTERN" sql ".tables run%" -f csv
filter=cat
# docs/schema.md's recipes: the same rows on both engines.
python3 - "$BENCHDB_SRC/docs/schema.md" "$T" <<'PY' || fail "the recipes of docs/schema.md"
import re, sys
text = open(sys.argv[1]).read()
part = text[text.index("\n## Recipes\n"):]
for i, sql in enumerate(re.findall(r"```sql recipe\n(.*?)```", part, re.S), 1):
    open("%s/recipe%02d.sql" % (sys.argv[2], i), "w").write(sql)
PY
for f in "$T"/recipe*.sql; do
    both "recipe $(basename "$f")" sql --file "$f" --digits 17
done
run bd --db "$uri" sql ".schema run"
expect_rc 0 "sql .schema TABLE on PostgreSQL"
expect_out_has "CREATE TABLE run (" "the table's definition"
expect_out_has "  plan_id bigint NOT NULL," "a column: type and NOT NULL"
expect_out_has "  CONSTRAINT run_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES plan(id)" "a constraint"
expect_out_has "CREATE INDEX run_host ON " "its indexes"
run bd --db "$uri" sql ".schema block_score"
expect_out_has "CREATE VIEW block_score AS" "a view's definition"
run bd --db "$uri" sql ".schema runs"
expect_rc 2 "sql .schema of no table"
expect_err_has "error: sql: .schema: no table or view named 'runs'; did you mean 'run'?" "names the nearest"
run bd --db "$uri" sql ".functions" -f csv
expect_rc 0 "sql .functions on PostgreSQL"
for f in "median,aggregate,1" "mann_whitney,aggregate,3" "t_quantile,scalar,2" "pooled_t_ci_of,scalar,4"; do
    expect_out_has "$f" ".functions lists $f"
done
run bd --db "$uri" sql "SELECT nam FROM run"
expect_rc 1 "an unknown column"
expect_err_has "; did you mean 'name'?" "names the nearest column"
run bd --db "$uri" sql "SELECT * FROM runs"
expect_err_has "; did you mean 'run'?" "names the nearest table"
run bd --db "$uri" sql "SELECT medain(value) FROM sample"
expect_err_has "; did you mean 'median'?" "names the nearest function"
BENCHDB="$uri" bd sql "SELECT count(*) AS n FROM plan" >"$T/out" 2>&1
rc=$?
expect_rc 0 "\$BENCHDB names a PostgreSQL store"
expect_out "$(bd --db "$T/s.db" sql "SELECT count(*) AS n FROM plan")" "the same store as --db"
both "query versions" query versions -p plan=git-perf-p0001 -p versions=v2.18.0,v2.19.0-rc0,HEAD --no-record
# a revision abbreviated as the pages show it, completed from the store's sources on either engine
both "query versions, an abbreviated source" query versions -p plan=calibration-sim -p by=source -p versions=844fd45 \
    --no-record -f csv --digits 17
expect_rc 0 "query versions, an abbreviated source"
checks=$((checks + 1))
grep -q ",844fd45e700040dbe036acea9f98f95922897d3e," "$T/pg.out" || fail "the whole revision in the rows"
both "query trend" query trend -p benchmark=serialize --no-record -f csv
both "query gate-percent" query gate-percent --no-record -f csv
both "query gate-zscore" query gate-zscore --no-record -f csv
both "query regressions" query regressions --no-record -f json
both "query injected-steps" query injected-steps --no-record
for q in placement-rule comparisons verdicts cell-spread aggregations variability; do
    both "query $q" query $q -p plan=calibration-sim --no-record -f csv --digits 17
done
both "query widest" query widest -p plan=calibration-sim -p kind=all --no-record -f csv --digits 17
both "query: an unmet need" query versions -p plan=no-such-plan --no-record
both "compare by variant, run means" compare --plan calibration-sim --by variant chill native --metric primary \
    --sample run --no-record
both "compare by variant, csv" compare --by variant chill native --metric primary --no-record -f csv --digits 17
cp "$T/pg.out" "$T/primary.csv"
# a metric named by its unit as compare shows it (ns/op and us/op: sec/op)
both "compare --metric sec/op" compare --by variant chill native --metric sec/op --no-record -f csv --digits 17
checks=$((checks + 1))
cmp -s "$T/pg.out" "$T/primary.csv" || fail "compare --metric sec/op on PostgreSQL: not the metric primary's rows"
# --exact-units as the table shows a unit: the stored units that show so
both "compare --exact-units ns/op,us/op" compare --by variant chill native --metric primary --exact-units ns/op,us/op \
    --no-record -f csv --digits 17
cp "$T/pg.out" "$T/exact.csv"
both "compare --exact-units sec/op" compare --by variant chill native --metric primary --exact-units sec/op \
    --no-record -f csv --digits 17
checks=$((checks + 1))
cmp -s "$T/pg.out" "$T/exact.csv" || fail "compare --exact-units sec/op on PostgreSQL: not ns/op and us/op's rows"

# ---- evaluations recorded on PostgreSQL ----
both "query regressions, recorded" query regressions --record -f csv
[ "$pg_lite" = 0 ] || expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same notes on both engines"
cp "$T/pg.err" "$T/err"
expect_err_has "recorded as evaluation 1 (see 'benchdb history regressions')" "the evaluation's id on PostgreSQL"
both "query gate-percent with a parameter, recorded" query gate-percent -p percent=3 -f csv
both "query gate-zscore, recorded" query gate-zscore -f csv
# What was recorded: the same rows (as JSON), counts, outcomes, parameters
# and data fingerprint on both engines.
both "the evaluations recorded" sql "SELECT id, query_name, query_sha256, params, rows, row_count, outcome, \
data_fingerprint, archive_count, judged_plan, registration, rule_id FROM evaluation ORDER BY id" -f json
# history, but for when each was recorded (the second column)
filter="sed s/^\([0-9]*\),[^,]*,/\1,/"
both "history lists them" history -f csv
both "history of one query" history gate-percent -f csv
both "history --limit" history -n 2 -f csv
filter=cat
both "history --diff" history --diff 2 3
both "history --verify (report, backtest and --verify: test_report.sh)" history --verify 1 3
cp "$T/pg.err" "$T/err"
expect_err_has "verified 2 evaluations: 2 identical, 0 not" "history --verify on PostgreSQL"
# the limits hold --verify's re-runs only: a listing or --diff refuses them
run bd --db "$uri" history --diff 2 3 --max-rows 10
expect_rc 2 "history --diff --max-rows on PostgreSQL"
expect_err_has "error: history: --max-rows holds the queries --verify runs again; --diff runs none" "says why"
run bd --db "$uri" history --verify 1 --max-rows 1
expect_rc 1 "history --verify on PostgreSQL held to --max-rows 1"

# ---- rule register on PostgreSQL ----
run bd --db "$uri" rule register compare --published-at 2020-01-01T00:00:00Z
expect_rc 0 "rule register"
expect_err_has "registered rule compare" "rule register says so"
run bd --db "$uri" rule register compare --published-at yesterday
expect_rc 2 "a bad --published-at is a usage error"
run bd --db "$uri" rule list -f csv
expect_out_has ",compare,$(sha256sum "$BENCHDB_SRC/queries/compare.sql" | cut -c1-12),"  "rule list on PostgreSQL"
expect_out_has ",2020-01-01T00:00:00Z," "with its publication time"
run bd --db "$T/s.db" rule register compare --published-at 2020-01-01T00:00:00Z
expect_rc 0 "the same rule on SQLite"
both "compare judged against its rule" compare --plan calibration-sim --by variant chill native --metric primary
[ "$pg_lite" = 0 ] || expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same registration on both engines"
cp "$T/pg.err" "$T/err"
expect_err_has "before plan calibration-sim began (2026-10-21T03:57:49Z), but with other parameters" \
    "registration judged on PostgreSQL"
for d in "$T/s.db" "$uri"; do bd --db "$d" rule register placement-rule --published-at 2020-01-01T00:00:00Z \
    >/dev/null 2>&1; done
both "placement-rule with its own parameters, recorded" query placement-rule -p plan=calibration-sim
[ "$pg_lite" = 0 ] || expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same notes on both engines"
cp "$T/pg.err" "$T/err"
expect_err_has "pre-registered" "pre-registered on PostgreSQL"
# rule show: the registered bytes; an edited text's note names the rule
# registered under its name (rule 2 on both), the same on both engines.
run bd --db "$uri" rule show placement-rule
expect_rc 0 "rule show on PostgreSQL"
cmp -s "$T/out" "$BENCHDB_SRC/queries/placement-rule.sql" || fail "rule show on PostgreSQL: the registered bytes"
sed 's/^-- summary: /-- summary: (edited) /' "$BENCHDB_SRC/queries/placement-rule.sql" >"$T/placement-rule.sql"
both "an edited rule, recorded" query "$T/placement-rule.sql" -p plan=calibration-sim
[ "$pg_lite" = 0 ] || expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same note on both engines"
cp "$T/pg.err" "$T/err"
expect_err_has "this text differs from the one registered under its name, rule 2 (sha256 " \
    "the registered rule named on PostgreSQL"

# ---- read-only unless --write ----
run bd --db "$uri" sql "DELETE FROM evaluation"
expect_rc 1 "sql without --write refuses a write"
expect_err_has "sql: the store is opened read-only: DELETE is not a statement that only reads (SELECT, WITH, VALUES, TABLE, EXPLAIN, SHOW) (pass --write to change it)" "and says why"
run bd --db "$uri" sql "COMMIT; DELETE FROM evaluation"
expect_rc 1 "the read-only transaction cannot be ended (pg/readonly tries every way)"
expect_err_has "sql: the store is opened read-only: transaction control (COMMIT) is refused (pass --write to change it)" "and says why"
before=$(pg -d "$db" -A -t -c "SELECT count(*) FROM evaluation")
run bd --db "$uri" sql --write "DELETE FROM evaluation WHERE id = 2"
expect_rc 0 "sql --write writes"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM evaluation")" "$((before - 1))" "one evaluation deleted, the others kept"

# ---- read-only analysis as a member of benchdb_reader ----
# (what such a login cannot do: pg/reader)
analyst=benchdb_commands_analyst
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $analyst" \
    -c "CREATE ROLE $analyst LOGIN IN ROLE benchdb_reader" >/dev/null
reader="postgresql://$analyst@$PGHOST:$PGPORT/$db"
run pg -U benchdb_reader -d "$db" -c "SELECT 1"
expect_rc 2 "benchdb_reader itself cannot log in"
expect_err_has 'role "benchdb_reader" is not permitted to log in' "the server says so"
filter=cat
run bd --db "$reader" sql "SELECT count(*) AS n FROM sample"
expect_rc 0 "the reader reads"
expect_out_has "$(bd --db "$T/s.db" sql "SELECT count(*) FROM sample" -f csv | tail -n 1 | tr -d '\r')" "every row"
run bd --db "$reader" query gate-zscore --no-record -f csv
expect_rc 0 "the reader runs a saved query without recording it"
# (the values' table on PostgreSQL: sample is a view of it)
run bd --db "$reader" sql --write "DELETE FROM sample_values"
expect_rc 1 "the reader cannot write, --write or not"
expect_err_has "sql: the role $analyst may only read this store (a member of benchdb_reader); it is written by the role $PGUSER, which owns its tables: connect as $PGUSER or a member of it; nothing was run (without --write, sql reads)" "and is told why, and who writes"
run bd --db "$reader" sql --write "SET default_transaction_read_only = off; DELETE FROM sample_values"
expect_rc 1 "nor by lifting the session's read-only default"
expect_err_has "sql: the role $analyst may only read this store" "refused before any statement runs"
run bd --db "$reader" query gate-zscore
expect_rc 1 "recording an evaluation fails for the reader"
expect_err_has "cannot record the evaluation" "and says the evaluation was not recorded"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM sample")" "$(bd --db "$T/s.db" sql "SELECT count(*) FROM sample" -f csv | tail -n 1 | tr -d '\r')" "nothing deleted"
pg -d postgres -c "DROP OWNED BY $analyst" -c "DROP ROLE $analyst" >/dev/null 2>&1

# ---- a newer schema, a time limit, what is not there yet ----
pg -d "$db" -c "INSERT INTO schema_migration VALUES (999, '0999_future.sql', '', '')"
run bd --db "$uri" sql "SELECT 1"
expect_rc 1 "a newer schema is refused"
expect_err_has "the store's schema is at version 999, newer than this benchdb knows (up to $known)" "and says so"
run bd --db "$uri" init
expect_rc 1 "init refuses it too"
pg -d "$db" -c "DELETE FROM schema_migration WHERE version = 999"
run bd --db "$uri" sql --timeout 0.3 "SELECT pg_sleep(5)"
expect_rc 1 "--timeout stops a statement on PostgreSQL"
expect_err_has "sql: stopped after 0.3 s" "and names the limit"
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_no_such_db" sql "SELECT 1"
expect_rc 1 "no such database"
expect_err_has "error: postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_no_such_db: cannot connect to the PostgreSQL store" "the connection's failure and the store named"
run bd --db "postgresql://$PGUSER:secret@$PGHOST:$PGPORT/benchdb_no_such_db" sql "SELECT 1"
expect_err_has "error: postgresql://$PGUSER:***@$PGHOST:$PGPORT/benchdb_no_such_db: cannot connect" "an error names the store without its password"
grep -q secret "$T/err" && fail "the password is not in the error"
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/postgres" sql "SELECT 1"
expect_rc 1 "a database without a store"
expect_err_has "error: postgresql://$PGUSER@$PGHOST:$PGPORT/postgres: no store in this database" "the store named"
run bd --db "postgresql://$PGUSER:secret@$PGHOST:$PGPORT/$db" init
expect_out_has "store postgresql://$PGUSER:***@$PGHOST:$PGPORT/$db is up to date" "a password is not printed"

# Four inits of one new database at once: one makes the store, the others
# wait for its migrations (an advisory lock) and find it made.
pg_dropdb benchdb_commands_four >/dev/null
pg -d postgres -c "CREATE DATABASE benchdb_commands_four TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
for i in 1 2 3 4; do
    (bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_commands_four" init >"$T/init$i.out" 2>&1
        echo $? >"$T/init$i.rc") &
done
wait
expect_eq "$(cat "$T"/init?.rc | tr -d '\n')" "0000" "four inits at once all succeed"
expect_eq "$(pg -d benchdb_commands_four -A -t -c "SELECT count(*) || ' ' || max(version) FROM schema_migration")" \
    "$known $known" "each migration applied once"
pg_dropdb benchdb_commands_four >/dev/null

# A database where the connecting role cannot install the extension.
pg_dropdb benchdb_commands_noext >/dev/null
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS benchdb_noext" -c "CREATE ROLE benchdb_noext LOGIN" \
    -c "CREATE DATABASE benchdb_commands_noext OWNER benchdb_noext TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" >/dev/null
run bd --db "postgresql://benchdb_noext@$PGHOST:$PGPORT/benchdb_commands_noext" init
expect_rc 1 "init without the extension"
expect_err_has "the extension benchstats is not installed in this database and cannot be installed: permission denied to create extension \"benchstats\"" "says why"
pg_dropdb benchdb_commands_noext >/dev/null
pg -d postgres -c "DROP ROLE benchdb_noext" >/dev/null

# A store of an older schema on the server (the version before this
# benchdb's): copy refuses one that holds rows as it is, unmigrated; a
# command that writes brings it up and says so (a teammate's older benchdb
# no longer opens it).
old=benchdb_commands_old
olduri="postgresql://$PGUSER@$PGHOST:$PGPORT/$old"
pg_newdb "$old" >/dev/null && pg_migrate "$old" $((known - 1)) >/dev/null &&
    pg -d "$old" -c "INSERT INTO plan(name) VALUES ('kept')" >/dev/null || fail "a store at version $((known - 1))"
run bd --db "$uri" copy "$olduri"
expect_rc 1 "copy into an older store with rows"
expect_err_has "error: copy: $olduri: the destination is not empty: its table plan holds rows" "refused, naming the table"
expect_eq "$(pg -d "$old" -A -t -c "SELECT max(version) FROM schema_migration")" "$((known - 1))" "and left at its version"
run bd --db "$olduri" ingest --quiet "$BENCHDB_SRC/examples/git-perf"
expect_rc 0 "ingest into the older store"
expect_eq "$(cat "$T/err")" "note: $olduri: the store's schema was brought from version $((known - 1)) to $known; a benchdb that knows only up to version $((known - 1)) no longer opens it" \
    "the migration said"
run bd --db "$olduri" ingest --quiet "$BENCHDB_SRC/examples/git-perf"
expect_eq "$(cat "$T/err")" "" "said once"
pg_dropdb "$old" >/dev/null

# ---- query compare of two runs without a cell in common ----
# Nothing compared: the verdict says so on both engines, and the gate exits
# 4 with the reason, as compare's does.
printf 'BenchmarkOnlyA 1 5 ns/op\nBenchmarkOnlyA 1 6 ns/op\n' >"$T/only-a.txt"
printf 'BenchmarkOnlyB 1 5 ns/op\nBenchmarkOnlyB 1 6 ns/op\n' >"$T/only-b.txt"
for d in "$T/s.db" "$uri"; do
    for s in a b; do
        bd --db "$d" ingest -q --format go-bench --plan apart --run "$s" --host h "$T/only-$s.txt" ||
            fail "ingest plan apart, run $s, into $d"
    done
done
both "query compare --gate, nothing compared" query compare -p plan=apart -p a=a -p b=b --gate --no-record -f csv
expect_rc 4 "query compare --gate, nothing compared"
cp "$T/pg.err" "$T/err"
expect_eq "$(head -n 1 "$T/err")" "nothing compared (0 slower, 0 faster, 1 removed, 1 added, 0 unchanged): no cell has \
values both in a and in another side; each side holds one benchmark, named apart: OnlyA in a, OnlyB in b (a benchmark \
is compared with the one of its name: give both one name)" "the first line on PostgreSQL: nothing compared, and why"
expect_err_has "gate: nothing compared (exit 4)" "the gate on PostgreSQL"
[ "$pg_lite" = 0 ] || expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same notes on both engines"

# ---- units shown alike: one table ----
# A benchmark in ns and one in s are one sec table with one geomean on
# either engine (the query's rows keep each unit's), as on files.
{ echo benchmark,unit,value; for v in 100 102 101 99 100 101; do echo fast,ns,$v; done
  for v in 1.5 1.6 1.55 1.52 1.58 1.57; do echo slow,s,$v; done; } >"$T/u-base.csv"
{ echo benchmark,unit,value; for v in 110 112 111 109 110 111; do echo fast,ns,$v; done
  for v in 1.5 1.6 1.55 1.52 1.58 1.57; do echo slow,s,$v; done; } >"$T/u-head.csv"
for d in "$T/s.db" "$uri"; do
    for s in base head; do
        bd --db "$d" ingest -q --plan units --run "$s" --host h "$T/u-$s.csv" || fail "ingest plan units, run $s, into $d"
    done
done
both "compare, ns and s" compare --plan units base head --no-record
expect_eq "$(grep -c '│ *sec *│' "$T/pg.out")" 1 "ns and s on PostgreSQL: one table headed sec"
checks=$((checks + 1))
grep -q "^geomean   396.0µ        415.2µ       +4.86%" "$T/pg.out" || fail "ns and s on PostgreSQL: one geomean over both"

pg_dropdb "$db" >/dev/null
finish
