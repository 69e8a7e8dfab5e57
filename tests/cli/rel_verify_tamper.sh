# history --verify catches tampering (docs/queries.md, "Re-verifying
# evaluations"): every part of a record is compared with a
# fresh run (the outcome line and row count, the parameters as bound, the
# rule text and its SHA-256, the judged plan, the registration and its
# rule, besides rows, data, schema and version), and the summaries a
# re-run reads (series' n and total, block_score_data, run_cell_data,
# history_point_data) are compared with the values they summarise, so that
# a value changed in `sample` alone, or a summary written by hand, is not
# "identical". `check` names the same rows. The attack and its variants
# each on a copy of one store.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --cells 3 --forks 1 --iterations 2 --warmups 0 sim
bd ingest -q sim || fail "ingest a plan"
bd simulate -q --history 8 --hosts 1 --cells 2 --plan nightly n
bd ingest -q n || fail "ingest a history"
bd rule register placement-rule --published-at 2020-01-01T00:00:00Z >/dev/null 2>&1 || fail "register the rule"
bd query --record placement-rule -p plan=calibration-sim >/dev/null 2>&1 || fail "evaluation 1"
bd query --record gate-zscore >/dev/null 2>&1 || fail "evaluation 2"
bd query --record comparisons -p plan=calibration-sim >/dev/null 2>&1 || fail "evaluation 3"
mkdir q
printf -- '-- name: plans\n-- summary: the plans\n-- outcome: ok\nSELECT name, 1 AS ok FROM plan ORDER BY name;\n' >q/plans.sql
bd query --record plans --queries q >/dev/null 2>&1 || fail "evaluation 4"
cp results.db keep.db
restore() { cp keep.db results.db; }
col() { # COLUMN: the verify row of evaluation $id, that column, from CSV
    python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[0][sys.argv[2]])' "$T/out" "$1"
}

# --- Untouched: identical, and each part says what it compared.
run bd history --verify --all --queries q --format csv
expect_rc 0 "every evaluation identical"
expect_err_has "verified 4 evaluations: 4 identical, 0 not" "the count"
run bd history --verify 1 --format csv
expect_eq "$(col outcome),$(col params),$(col registration)" "same,same,same" "outcome, parameters and registration"
expect_eq "$(col summaries)" "match their values (series, block_score_data, run_cell_data)" "the summaries it read"
run bd history --verify 2 --format csv
expect_eq "$(col summaries)" "match their values (series, history_point_data)" "a gate reads history points"
run bd history --verify 4 --queries q --format csv
expect_eq "$(col summaries)" "none read" "a query reading no summary"

# --- The attack: the outcome line rewritten to say "adopted" over rows
# that say otherwise.
bd sql --write "UPDATE evaluation SET outcome = 'separate-host placement adopted' WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a rewritten outcome"
expect_out_has 'differs,"outcome: ""separate-host placement adopted"" -> ""separate-host placement not adopted' "named, with what the rows say"
expect_err_has "verified 1 evaluation: 0 identical, 1 not" "not identical"
restore
# Variant: the row count.
bd sql --write "UPDATE evaluation SET row_count = 3 WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a row count rewritten"
expect_eq "$(col outcome)" "row_count 3 -> 2" "named"
restore

# --- The attack: a value changed in sample alone (the series' total, and
# every summary above it, left as they were).
bd sql --write "UPDATE sample SET value = value * 2 WHERE series_id = 3 AND warmup = 0 AND iteration = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a value changed in sample"
expect_out_has "summaries: series: 1 of " "the series named"
expect_out_has "differ from their values (series 3: total is " "with what differs"
expect_out_has "the re-run read them, not the values ('benchdb check' names them, docs/schema.md rebuilds them)" "and what it means"
run bd check
expect_rc 1 "check says so too"
expect_err_has "error: check: series 3: total is " "check names the series"
run bd history --verify 4 --queries q --format csv
expect_rc 0 "a query that reads no summary is not concerned"
restore
# Variants: each summary written by hand.
bd sql --write "UPDATE series SET total = total * 2 WHERE id = 5" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a series' total"
expect_out_has "series: 1 of " "the series"
restore
# (block_score_data's own triggers recompute run_cell_data from the score
# written: the rows then differ too.)
bd sql --write "UPDATE block_score_data SET score = score * 2 WHERE run_id = 1 AND benchmark_id = 1 AND block = 1 AND variant_id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a block score"
expect_out_has "summaries: block_score_data: 2 of " "the block scores (the row written and the row its series give)"
run bd check
expect_err_has "error: check: block_score_data: 2 rows differ from its series (the first: run 1, benchmark 1, block 1, variant 1)" "check too"
restore
bd sql --write "UPDATE run_cell_data SET mean_log = mean_log + 0.5 WHERE run_id = 1 AND benchmark_id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a run summary"
expect_out_has "summaries: run_cell_data: 2 of " "the run summaries"
run bd check
expect_err_has "error: check: run_cell_data: 2 rows differ from the block ratios (the first: run 1, benchmark 1)" "check too"
restore
bd sql --write "UPDATE history_point_data SET total = total * 2 WHERE run_id = (SELECT max(run_id) FROM history_point_data)" >/dev/null
run bd history --verify 2 --format csv
expect_rc 1 "a history point"
expect_out_has "history_point_data: " "the history points"
run bd check
expect_err_has "error: check: history_point_data: " "check too"
restore

# --- Every other part of the record.
bd sql --write "UPDATE evaluation SET params = json_set(params, '\$.extra', 1) WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "a parameter added"
expect_out_has 'params: recorded {' "the parameters as recorded and as bound"
restore
bd sql --write "UPDATE evaluation SET query_sha256 = substr(query_sha256, 2) || '0' WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "the recorded hash"
expect_out_has "rule text: the recorded sha256 " "is not the text's"
restore
bd sql --write "UPDATE evaluation SET registration = 'retroactive' WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "the registration"
expect_eq "$(col registration)" "retroactive (rule 1) -> pre-registered (rule 1)" "named"
restore
bd sql --write "UPDATE evaluation SET registration = 'pre-registered', rule_id = 1 WHERE id = 4" >/dev/null
run bd history --verify 4 --queries q --format csv
expect_rc 1 "a registration claimed for a query that judges no plan"
expect_eq "$(col registration)" "pre-registered (rule 1) -> none" "named"
restore
bd sql --write "UPDATE evaluation SET judged_plan = 'nightly' WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "the judged plan"
expect_eq "$(col registration)" "judged plan nightly -> calibration-sim" "named"
restore
bd sql --write "UPDATE evaluation SET archive_count = 11 WHERE id = 1" >/dev/null
run bd history --verify 1 --format csv
expect_rc 1 "the archive count"
expect_eq "$(col data)" "archive_count 11, but the fingerprint is that of the 20 archives now" "the data"
restore

# --- A rule registered after an evaluation changes nothing of it: judged
# as of then, it was unregistered; its next evaluation is pre-registered.
printf -- '-- name: judge\n-- param: plan  the plan\n-- judges: plan\n-- outcome: ok\nSELECT count(*) > 0 AS ok FROM plan_run WHERE plan = :plan;\n' >q/judge.sql
bd query --record judge --queries q -p plan=calibration-sim >/dev/null 2>&1 || fail "evaluation 5"
sleep 1
bd rule register q/judge.sql --published-at 2020-01-01T00:00:00Z >/dev/null 2>&1 || fail "register it later"
bd query --record judge --queries q -p plan=calibration-sim >/dev/null 2>&1 || fail "evaluation 6"
run bd history --verify 5 6 --queries q --format csv
expect_rc 0 "a rule registered since"
expect_eq "$(bd sql "SELECT group_concat(registration, ' ') FROM evaluation WHERE id IN (5, 6)" --format csv | tail -n 1 | tr -d '\r')" \
    "unregistered pre-registered" "recorded before and after"
bd sql --write "UPDATE evaluation SET registration = 'pre-registered', rule_id = 2 WHERE id = 5" >/dev/null
run bd history --verify 5 --queries q --format csv
expect_rc 1 "pre-registration claimed before the rule was registered"
expect_eq "$(col registration)" "pre-registered (rule 2) -> unregistered" "named"

finish
