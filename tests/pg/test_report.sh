# report, backtest and history --verify on a store on PostgreSQL, against
# the same data in an SQLite store (copied by store.py, as in
# test_commands.sh), the same commands run in the same order on both:
#  - report of a saved query (placement-rule, whose chart draws its
#    companion `comparisons`, run and recorded then), report --evaluation
#    ID and --format svg give the same page on both engines, after
#    replacing only the times the evaluations were recorded at (each
#    engine's own, read from its evaluation table);
#  - backtest gate-zscore, gate-ttest (with --since) and gate-percent print
#    the same lines and notes and record the same evaluation rows;
#  - site: the whole store as a site, the same files with the same bytes
#    (the recording times aside), and a second run writes nothing;
#  - on PostgreSQL an evaluation records schema_sha256 (docs/queries.md,
#    "Re-verifying evaluations"), the same for two evaluations of one
#    query; history --verify --all says every evaluation identical, with
#    the same output as on SQLite; an evaluation row altered by hand
#    differs in its rows (exit 1, the same lines as SQLite's); a view
#    written again with another definition changes the schema of the
#    evaluations that read it (and of no other), a trigger function
#    changed and a unit's factor change it too; the view written back as
#    it was makes them identical again; an outcome line or a registration
#    rewritten, a value changed in sample alone and a block score written
#    by hand differ, with the same lines as SQLite's (check names the
#    series too).
# ctest: plain-only cost=16
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_report
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

pg_emptydb "$db"
run bd --db "$uri" init
expect_rc 0 "init on PostgreSQL"
run pg_same_data "$db"
expect_rc 0 "the same data on SQLite and PostgreSQL"
[ "$failures" -eq 0 ] || exit 1

# recorded_times: stdin with each evaluation's evaluated_at in $store (the
# store the output came from, set by both) replaced by EVALUATED_AT, as
# recorded and as a page shows it (2026-12-01 17:16:25, docs/report.md).
recorded_times() {
    bd --db "$store" sql "SELECT evaluated_at FROM evaluation ORDER BY id" -f csv | tail -n +2 | tr -d '\r' |
        awk '{ shown = substr($0, 1, 10) " " substr($0, 12, 8); print $0; print shown }' |
        sed 's/[.]/[.]/g; s/.*/s|&|EVALUATED_AT|g/' >"$T/times.sed"
    sed -f "$T/times.sed"
}

# Every comparison: stdout and stderr; the PostgreSQL side kept as the
# last run's for expect_*.
both_err=1
compare() {
    both "$@"
    cp "$T/pg.out" "$T/out"
    cp "$T/pg.err" "$T/err"
}

# ---- report ----
filter=recorded_times
compare "report of a saved query (its chart from a companion run now)" report placement-rule -p plan=calibration-sim
expect_rc 0 "report placement-rule on PostgreSQL"
expect_out_has '<div class="chart" data-kind="forest" data-evaluation="2" data-rows="720" data-marks="720"' \
    "the companion's 720 rows drawn, from evaluation 2"
expect_out_has "recorded EVALUATED_AT" "the times replaced, and only them"
compare "report --evaluation" report --evaluation 1
expect_out_has "placement-rule on calibration-sim (evaluation 1)" "the page of evaluation 1"
compare "report --evaluation --format svg" report --evaluation 1 --format svg
expect_out_has "<svg" "the chart alone"
filter=cat
expect_eq "$(bd --db "$T/s.db" sql "SELECT count(*) AS n FROM evaluation" -f csv | tail -n 1 | tr -d '\r')" \
    "$(bd --db "$uri" sql "SELECT count(*) AS n FROM evaluation" -f csv | tail -n 1 | tr -d '\r')" \
    "as many evaluations recorded on both engines"

# ---- backtest ----
compare "backtest gate-zscore" backtest gate-zscore
expect_rc 0 "backtest gate-zscore on PostgreSQL"
expect_err_has "gate-zscore would have raised" "its summary"
expect_err_has "recorded as evaluation 3 (see 'benchdb history backtest-gate-zscore')" "recorded on PostgreSQL"
compare "backtest gate-ttest --since" backtest gate-ttest --since 2026-01-01 -f csv
expect_rc 0 "backtest gate-ttest on PostgreSQL"
compare "backtest gate-percent --reference regressions" backtest gate-percent --reference regressions --within 3
expect_rc 0 "backtest gate-percent on PostgreSQL"
compare "backtest --no-record" backtest gate-zscore --no-record -f json
compare "the back-tests recorded" sql "SELECT id, query_name, query_sha256, query_text, params, rows, row_count, \
outcome, data_fingerprint, archive_count, judged_plan, registration, rule_id FROM evaluation \
WHERE query_name LIKE 'backtest-%' ORDER BY id" -f json
expect_out_has '"query_name": "backtest-gate-ttest"' "the gate-ttest back-test among them"
expect_eq "$(bd --db "$uri" sql "SELECT count(*) AS n FROM evaluation WHERE query_name LIKE 'backtest-%'" -f csv |
    tail -n 1 | tr -d '\r')" 3 "three back-tests recorded, not the --no-record one"

# ---- site ----
# The whole store as a site, on both engines: the same files, byte for
# byte but for the times each engine recorded its evaluations at.
run bd --db "$T/s.db" site -q "$T/site-lite"
expect_rc 0 "site on SQLite"
run bd --db "$uri" site "$T/site-pg"
expect_rc 0 "site on PostgreSQL"
expect_err_has "written, 0 unchanged, 0 removed" "site on PostgreSQL: every page written"
for side in lite pg; do
    if [ "$side" = lite ]; then store=$T/s.db; else store=$uri; fi
    recorded_times </dev/null >/dev/null
    cp "$T/times.sed" "$T/$side.sed"
done
lite_files=$(cd "$T/site-lite" && find . -type f | sort)
expect_eq "$lite_files" "$(cd "$T/site-pg" && find . -type f | sort)" "site: the same files on both engines"
# Each side's times written alike, every file by one sed (-i) in a copy of
# each site (site-pg stays as written, for the second run below), then
# the copies compared by one diff: a process or three, not three a page.
cp -R "$T/site-lite" "$T/cmp-lite" && cp -R "$T/site-pg" "$T/cmp-pg"
(cd "$T/cmp-lite" && sed -i -f "$T/lite.sed" $lite_files) && (cd "$T/cmp-pg" && sed -i -f "$T/pg.sed" $lite_files) ||
    fail "site: the times written alike"
diff -rq "$T/cmp-lite" "$T/cmp-pg" >"$T/differ"
differ=$(grep -c . "$T/differ")
for f in $(sed -n 's|^Files [^ ]*/cmp-lite/\([^ ]*\) and .*|\1|p' "$T/differ" | head -2); do
    diff "$T/cmp-lite/$f" "$T/cmp-pg/$f" | head -6 | cut -c1-300 | sed "s|^|  $f: |" >&2
done
expect_eq "$differ" 0 "site: every page the same on both engines ($(echo "$lite_files" | wc -l) files)"
grep -q 'class="headline' "$T/site-pg/index.html" || fail "site: an index with its headline"
run bd --db "$uri" site "$T/site-pg"
expect_err_has ": 0 written, " "site on PostgreSQL: a second run writes nothing"

# ---- history --verify ----
run bd --db "$uri" query gate-percent -f csv
expect_rc 0 "gate-percent recorded"
run bd --db "$uri" query gate-percent -f csv
run bd --db "$T/s.db" query gate-percent -f csv
run bd --db "$T/s.db" query gate-percent -f csv
expect_eq "$(bd --db "$uri" sql "SELECT count(*) AS n, count(DISTINCT schema_sha256) AS hashes, \
min(length(schema_sha256)) AS len FROM evaluation WHERE query_name = 'gate-percent'" -f csv | tail -n 1 | tr -d '\r')" \
    "2,1,64" "two evaluations of gate-percent record one schema hash, 64 hex digits"
expect_eq "$(bd --db "$uri" sql "SELECT count(*) AS n FROM evaluation WHERE schema_sha256 IS NULL" -f csv |
    tail -n 1 | tr -d '\r')" 0 "every evaluation on PostgreSQL records its schema"
compare "history --verify --all" history --verify --all
expect_rc 0 "history --verify --all on PostgreSQL"
expect_err_has "verified 7 evaluations: 7 identical, 0 not" "every evaluation identical"
filter=recorded_times
compare "history --verify, csv" history --verify 1 5 -f csv
filter=cat

# An evaluation altered by hand.
for d in "$T/s.db" "$uri"; do bd --db "$d" sql --write "UPDATE evaluation SET rows = '[]' WHERE id = 7" >/dev/null; done
filter=recorded_times
compare "an altered evaluation" history --verify --all -f csv
filter=cat
expect_rc 1 "an altered evaluation on PostgreSQL"
expect_out_has '7,gate-percent,EVALUATED_AT,differs,"rows: 489 of 489 differ (' "its rows differ"
expect_err_has "verified 7 evaluations: 6 identical, 1 not" "and only it"
for d in "$T/s.db" "$uri"; do bd --db "$d" sql --write "DELETE FROM evaluation WHERE id = 7" >/dev/null; done

# Everything recorded is compared, the same on both engines: the outcome
# line rewritten to say "adopted" (the attack), the registration; and the
# summaries a re-run reads against their values: a value changed in sample
# alone (the attack's variant), a block score written by hand. Each undone
# after (doubling and halving are exact).
for d in "$T/s.db" "$uri"; do
    bd --db "$d" sql --write "UPDATE evaluation SET outcome = outcome || ' adopted' WHERE id = 1" >/dev/null
done
filter=recorded_times
compare "an outcome rewritten" history --verify 1 -f csv
filter=cat
expect_rc 1 "an outcome rewritten on PostgreSQL"
expect_out_has ',differs,"outcome: ""separate-host placement not adopted' "the outcome named"
expect_out_has ' adopted"" -> ""separate-host placement not adopted' "with what the rows say"
for d in "$T/s.db" "$uri"; do
    bd --db "$d" sql --write "UPDATE evaluation SET outcome = substr(outcome, 1, length(outcome) - 8), \
registration = 'pre-registered' WHERE id = 1" >/dev/null
done
filter=recorded_times
compare "a registration rewritten" history --verify 1 -f csv
filter=cat
expect_rc 1 "a registration rewritten on PostgreSQL"
expect_out_has ',differs,registration: pre-registered -> unregistered,' "the registration named"
for d in "$T/s.db" "$uri"; do
    bd --db "$d" sql --write "UPDATE evaluation SET registration = 'unregistered' WHERE id = 1" >/dev/null
done
# (on PostgreSQL sample is a view: the value is the first of series 3's array)
bd --db "$T/s.db" sql --write "UPDATE sample SET value = value * 2 WHERE series_id = 3 AND warmup = 0 AND iteration = 1" >/dev/null
bd --db "$uri" sql --write "UPDATE sample_values SET value[1] = value[1] * 2 WHERE series_id = 3" >/dev/null
filter=recorded_times
compare "a value changed in sample alone" history --verify 1 6 -f csv
filter=cat
expect_rc 1 "a value changed in sample on PostgreSQL"
expect_out_has 'summaries: series: 1 of ' "the series named"
expect_out_has ' differ from their values (series 3: total is ' "with what differs"
expect_err_has "verified 2 evaluations: 0 identical, 2 not" "the rule and the gate read series"
run bd --db "$uri" check
expect_rc 1 "check on PostgreSQL"
expect_err_has "error: check: series 3: total is " "check names the series"
bd --db "$T/s.db" sql --write "UPDATE sample SET value = value / 2 WHERE series_id = 3 AND warmup = 0 AND iteration = 1" >/dev/null
bd --db "$uri" sql --write "UPDATE sample_values SET value[1] = value[1] / 2 WHERE series_id = 3" >/dev/null
for d in "$T/s.db" "$uri"; do
    bd --db "$d" sql --write "UPDATE block_score_data SET score = score * 2 WHERE run_id = 1 AND benchmark_id = 1 \
AND block = 1 AND variant_id = 1" >/dev/null
done
filter=recorded_times
compare "a block score written by hand" history --verify 1 -f csv
filter=cat
expect_rc 1 "a block score written by hand on PostgreSQL"
expect_out_has 'summaries: block_score_data: 2 of ' "the block scores named"
for d in "$T/s.db" "$uri"; do
    bd --db "$d" sql --write "UPDATE block_score_data SET score = score / 2 WHERE run_id = 1 AND benchmark_id = 1 \
AND block = 1 AND variant_id = 1" >/dev/null
done
run bd --db "$uri" history --verify --all
expect_rc 0 "all undone: identical again"

# A view read by placement-rule and comparisons (through calibration_pair).
plan_run="SELECT p.id AS plan_id, p.name AS plan, r.id AS run_id, r.name AS run, r.host_id, h.name AS host, \
r.position, r.attributes FROM plan AS p JOIN run AS r ON r.plan_id = p.id JOIN host AS h ON h.id = r.host_id"
run bd --db "$uri" sql --write "CREATE OR REPLACE VIEW plan_run AS $plan_run WHERE r.id > 0"
expect_rc 0 "a view replaced"
run bd --db "$uri" history --verify --all -f csv
expect_rc 1 "a view changed"
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f1,2,4 | tr -d '\r' | tr '\n' ' ')" \
    "1,placement-rule,differs 2,comparisons,differs 3,backtest-gate-zscore,identical 4,backtest-gate-ttest,identical \
5,backtest-gate-percent,identical 6,gate-percent,identical " \
    "the evaluations that read it differ in their schema, the others not"
expect_out_has "1,placement-rule,$(bd --db "$uri" sql "SELECT evaluated_at FROM evaluation WHERE id = 1" -f csv |
    tail -n 1 | tr -d '\r'),differs,schema: sha256 " "the schema only"
run bd --db "$uri" sql --write "CREATE OR REPLACE VIEW plan_run AS $plan_run"
run bd --db "$uri" history --verify --all
expect_rc 0 "the view as it was: identical again"

# A function a trigger runs (history points: what the gates read).
pg -d "$db" -c "DO \$\$ BEGIN EXECUTE replace(pg_get_functiondef(CAST('history_add(series)' AS regprocedure)), \
'BEGIN', 'BEGIN -- changed'); END \$\$"
run bd --db "$uri" history --verify 6 -f csv
expect_rc 1 "a trigger's function changed"
expect_out_has ",differs,schema: sha256 " "the schema differs"
# A unit's factor: every evaluation reads units (through block_ratio).
run bd --db "$uri" sql --write "UPDATE unit SET factor = 2 WHERE name = 'ops/min'"
run bd --db "$uri" history --verify 3 -f csv
expect_rc 1 "a unit's factor changed"
expect_out_has ",differs,schema: sha256 " "the schema differs"

pg_dropdb "$db" >/dev/null
finish
