# What a new user stumbled on, each fixed and held here: global options
# after the command's name as before it; names in natural order in lists;
# versions' change with its % sign; regressions' last good run beside the
# first bad one; gate-zscore's minimum baseline; queries that record only
# decisions, and the "not registered" note only for them.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

# ---- global options where people type them ----
run bd init --db a.db
expect_rc 0 "init --db FILE"
expect_out "created store a.db (schema version $(ls "$BENCHDB_SRC"/migrations/[0-9][0-9][0-9][0-9]_*.sql | wc -l))" \
    "init --db FILE makes FILE"
[ -e results.db ] && fail "init --db FILE made results.db"
run bd sql "SELECT count(*) AS n FROM plan" --db=a.db -f csv
expect_out "$(printf 'n\r\n0\r')" "--db=FILE after the SQL"
run bd list --db a.db plans --format csv
expect_rc 0 "--db between the command's options"
# An option's value is not a global option: --param's value here is "--db".
printf -- '-- name: echo\n-- param: v  a value\nSELECT :v AS v;\n' >echo.sql
run bd query echo.sql --param v=--db --db a.db --no-record --format csv
expect_out "$(printf 'v\r\n--db\r')" "a value that reads like --db"
run bd sql --db a.db -p x --db -- "SELECT 1"
expect_rc 2 "-p takes the next word as its value, whatever it is"
# After "--" nothing is an option (sql takes the SQL as its argument).
run bd --db a.db sql -- "--db"
expect_rc 2 "after --, --db is the SQL"
expect_err_has "sql: the SQL text holds no statement" "an SQL comment, not the global option"
run bd init --version
expect_out_has "benchdb " "--version after the command"
run bd init --db
expect_rc 2 "--db without its file"

# ---- a store to look at ----
bd init >/dev/null
for s in 1 2 3 10 11; do bd simulate --quiet --seed "$s" --plan "null-$s" --groups 1 --hosts 1 --cells 2 "sims/null-$s"; done
bd ingest --quiet sims/
run bd list plans --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')" "null-1 null-2 null-3 null-10 null-11 " \
    "plans in natural order"
run bd list runs --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f1 | tr -d '\r' | uniq | tr '\n' ' ')" "null-1 null-2 null-3 null-10 null-11 " \
    "runs by plan in natural order"
run bd query regressions --param plan=null-12
expect_rc 2 "an unknown plan"
expect_err_has "plans: null-1, null-2, null-3, null-10, null-11" "listed in natural order"
run bd query gate-zscore --param plan=null-1 --param min_runs=1
expect_rc 2 "min_runs below 2: a usage error"

# ---- versions' change with its sign and % ----
bd ingest --quiet "$BENCHDB_SRC/examples/git-perf"
run bd query versions --param plan=git-perf-p0001 --param versions=v2.18.0,v2.19.0-rc0,HEAD
expect_out_has "v2.19.0-rc0  10  3.259         +7.842%" "git's +7.8%, as its table prints it"
expect_out_has "HEAD         10  3.119          +3.21%" "and +3.2%"
run bd query versions --param plan=git-perf-p0001 --param versions=v2.18.0,v2.19.0-rc0,HEAD --format csv
expect_out_has ",v2.19.0-rc0,10,3.259,7.842" "CSV keeps the number"

# ---- regressions: the last good run beside the first bad one ----
bd simulate -q --history 40 --hosts 1 --cells 2 --seed 8 --step '20:small/serialize:+25' --plan hist hist
bd ingest -q hist
run bd query regressions --param plan=hist --format csv
expect_rc 0 "regressions"
python3 - "$T/out" <<'PY' || fail "the range to bisect on the line"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
cols = list(rows[0].keys())
assert cols[5:11] == ["seq", "last_good_run", "run", "plan", "last_good_revision", "revision"], cols
r = [r for r in rows if "small" in r["params"] and r["kind"] == "regression"]
assert len(r) == 1 and r[0]["seq"] == "20", rows
assert r[0]["last_good_run"] == "ci-a-0019" and r[0]["run"] == "ci-a-0020", r[0]
assert r[0]["last_good_revision"] and r[0]["last_good_revision"] != r[0]["revision"], r[0]
PY
run bd sql "SELECT (SELECT source FROM run WHERE name = 'ci-a-0019') AS good, (SELECT source FROM run WHERE name = 'ci-a-0020') AS bad" --format csv
good=$(tail -n 1 "$T/out" | cut -d, -f1)
run bd query regressions --param plan=hist --format csv
expect_out_has ",ci-a-0019,ci-a-0020,hist,$good," "the last good run's revision is its source"

# ---- gate-zscore: no alert before min_runs runs ----
bd simulate -q --history 12 --hosts 1 --cells 2 --seed 8 --step '6:small/serialize:+25' --plan early early
bd ingest -q early
run bd query gate-zscore --param plan=early --param scope=every --format csv --no-record
expect_eq "$(grep -c ',regression,' "$T/out")" 0 "the default minimum (8 runs): no alert on night 6"
run bd query gate-zscore --param plan=early --param scope=every --param min_runs=2 --format csv --no-record
expect_eq "$(grep -c ',regression,' "$T/out")" 1 "Conbench's minimum (2 runs): the step at night 6 alerts"

# ---- decisions are recorded, lookups only when asked ----
evaluations() { bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }
before=$(evaluations)
run bd query trend --param plan=hist --format csv
expect_eq "$(evaluations)" "$before" "a lookup is not recorded"
expect_eq "$(grep -c 'recorded as evaluation' "$T/err")" 0 "and says nothing of it"
run bd query trend --param plan=hist --format csv --record
expect_err_has "recorded as evaluation" "--record records a lookup"
expect_eq "$(evaluations)" "$((before + 1))" "one more"
run bd query gate-zscore --param plan=hist --format csv
expect_err_has "recorded as evaluation" "a gate is recorded"
expect_eq "$(evaluations)" "$((before + 2))" "one more"
run bd query trend --param plan=hist --record --no-record
expect_rc 2 "--record and --no-record"
# "not registered": for a rule with an outcome, once; never for a lookup
# judging a plan, nor for compare.
printf -- '-- name: judged\n-- param: plan  a plan\n-- type: plan = text naming a plan\n-- judges: plan\nSELECT count(*) AS n FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan;\n' >judged.sql
run bd query judged.sql --param plan=hist --record
expect_eq "$(grep -c 'is not registered' "$T/err")" 0 "a lookup judging a plan: no note"
printf -- '-- name: rule\n-- param: plan  a plan\n-- type: plan = text naming a plan\n-- judges: plan\n-- outcome: ok\nSELECT 1 AS ok FROM plan WHERE name = :plan;\n' >rule.sql
run bd query rule.sql --param plan=hist
expect_eq "$(grep -c 'is not registered' "$T/err")" 1 "a rule with an outcome: the note, once"
bd ingest -q --format go-bench --plan crc --run base --host h "$BENCHDB_SRC/examples/go-bench/crc-old.txt"
bd ingest -q --format go-bench --plan crc --run head --host h "$BENCHDB_SRC/examples/go-bench/crc-new.txt"
run bd compare --plan crc base head
expect_eq "$(grep -c 'registered' "$T/err")" 0 "compare: no note"

# ---- a missing argument names the command once ----
# (before: "error: copy: copy: expected DEST ...", and so for backup and export)
run bd --db a.db copy
expect_rc 2 "copy without DEST"
expect_eq "$(cat "$T/err")" "error: copy: expected DEST, the store to copy into (see 'benchdb copy --help')" "copy: named once"
run bd --db a.db backup
expect_eq "$(cat "$T/err")" "error: backup: expected FILE, the new file to copy the store into (see 'benchdb backup --help')" \
    "backup: named once"
run bd --db a.db export
expect_eq "$(cat "$T/err")" "error: export: expected DIR, the directory to write the archives into (see 'benchdb export --help')" \
    "export: named once"

finish
