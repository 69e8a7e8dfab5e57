# Typed parameters of saved queries: every value is checked before the
# query runs (a usage error, exit 2, naming the parameter and what was
# expected, and nothing recorded); untyped parameters bind as text; values
# that name a plan, run, host or attribute must exist; a repeated --param
# is refused; history, rule and query refuse unknown names alike.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
plans="$BENCHDB_SRC/tests/data/plans"

bd init >/dev/null
bd ingest -q "$BENCHDB_SRC/examples/"
bd --db tie.db init >/dev/null
{ echo "BEGIN;"; cat "$plans/tie.sql"; echo "COMMIT;"; } | bd --db tie.db sql --write --file - >/dev/null

# usage_error TEXT CMD...: exits 2 with the one-line message TEXT, records nothing.
usage_error() {
    text=$1
    shift
    before=$(evaluations)
    run "$@"
    expect_rc 2 "$*"
    expect_eq "$(cat "$T/err")" "$text" "$* says what was expected"
    expect_eq "$(wc -c <"$T/out")" 0 "$* prints nothing on stdout"
    expect_eq "$(evaluations)" "$before" "$* records nothing"
}

see="(see 'benchdb queries placement-rule')"
usage_error "error: query placement-rule: plan 'nope' does not exist; plans: calibration-sim, git-perf-p0001 $see" \
    bd query placement-rule --param plan=nope
usage_error "error: query placement-rule: group_by 'proflie' is not an attribute of any run of plan tie; did you mean 'profile'? (attributes: profile) $see" \
    bd --db tie.db query placement-rule --param plan=tie --param group_by=proflie
usage_error "error: query placement-rule: --param band_lo=abc: expected a number $see" \
    bd query placement-rule --param plan=calibration-sim --param band_lo=abc
usage_error "error: query placement-rule: --param level=1.5: expected a number in (0, 1) $see" \
    bd query placement-rule --param plan=calibration-sim --param level=1.5
usage_error "error: query placement-rule: --param min_band_share=0x1: expected a number in [0, 1] $see" \
    bd query placement-rule --param plan=calibration-sim --param min_band_share=0x1
usage_error "error: query placement-rule: --param margin=nan: expected a number $see" \
    bd query placement-rule --param plan=calibration-sim --param margin=nan
usage_error "error: query widest: --param limit=0: expected an integer in [1, ) (see 'benchdb queries widest')" \
    bd query widest --param plan=calibration-sim --param kind=all --param limit=0
usage_error "error: query widest: --param limit=2.5: expected an integer in [1, ) (see 'benchdb queries widest')" \
    bd query widest --param plan=calibration-sim --param kind=all --param limit=2.5
usage_error "error: query: --param 'plan=b': plan is given twice (give each parameter once) (see 'benchdb query --help')" \
    bd query placement-rule --param plan=a --param plan=b
usage_error "error: query placement-rule: missing --param plan=VALUE: the calibration plan to judge (plan.name) $see" \
    bd query placement-rule
# A value that reads as a number but is of another type.
usage_error "error: query placement-rule: plan '42' does not exist; plans: calibration-sim, git-perf-p0001 $see" \
    bd query placement-rule --param plan=42

# A value within its type runs; the typed values are recorded as bound.
run bd --db tie.db query placement-rule --param plan=tie --param level=0.9 --param margin=-0.5 --format csv
expect_rc 0 "typed values in range"
run bd --db tie.db history --format json
python3 - "$T/out" <<'PY' || fail "recorded parameters keep their types"
import json, sys
p = json.load(open(sys.argv[1]))[-1]["params"]
assert p == {"plan": "tie", "level": 0.9, "band_lo": 0.95, "band_hi": 1.05, "direction": "forward",
             "group_by": "profile", "min_band_share": 0.95, "margin": -0.5}, p
PY

# --- queries NAME lists the parameters with their types.
run bd queries placement-rule --format csv
expect_rc 0 "queries NAME"
expect_out_has "$(printf 'level,"real in (0, 1)",0.95,confidence level of each comparison%ss interval\r' "'")" "a typed parameter"
expect_out_has "$(printf 'plan,text naming a plan,(required),the calibration plan to judge (plan.name)\r')" "a parameter naming a plan"
expect_out_has "$(printf 'direction,"choice of forward, reverse",forward,')" "a choice"
expect_err_has "outcome: adopt (--gate exits 0 when it holds in every row)" "queries NAME tells the outcome"
# What the query is comes first (it followed the parameters' table), with
# how many parameters it takes, counted from its file.
np=$(grep -c '^-- param: ' "$BENCHDB_SRC/queries/placement-rule.sql")
nr=$(grep '^-- param: ' "$BENCHDB_SRC/queries/placement-rule.sql" | grep -vc ' = ')
summary=$(sed -n 's/^-- summary: //p' "$BENCHDB_SRC/queries/placement-rule.sql")
bd queries placement-rule >"$T/merged" 2>&1
expect_eq "$(head -n 1 "$T/merged")" "placement-rule: $summary (built-in); $np parameters, $nr required" \
    "queries NAME: what it is, first"
expect_eq "$(sed -n 2p "$T/merged" | cut -c1-9)" "parameter" "then its parameters"
run bd queries placement-rule --format markdown
expect_eq "$(head -n 1 "$T/out")" "**placement-rule: $summary (built-in); $np parameters, $nr required**" \
    "queries NAME as Markdown: the line in bold first"

# --- Untyped parameters bind as text: 1.10 stays 1.10, 007 stays 007.
mkdir mine
cat >mine/echo.sql <<'SQL'
-- name: echo
-- param: v  any value
-- param: run  a run's name
-- param: flag = false  a boolean
-- type: flag = boolean
SELECT :v AS v, (SELECT count(*) FROM (SELECT '1.10' AS name) WHERE name = :run) AS matches, :flag AS flag;
SQL
run bd query echo --queries mine --param v=007 --param run=1.10 --param flag=yes --no-record --format csv
expect_rc 0 "untyped parameters"
expect_out "$(printf 'v,matches,flag\r\n007,1,1\r')" "007 stays text, run=1.10 matches a run named 1.10, yes binds 1"
run bd query echo --queries mine --param v=x --param run=y --param flag=maybe --no-record
expect_rc 2 "a bad boolean"
expect_err_has "error: query echo: --param flag=maybe: expected true or false (yes/no, on/off, 1/0)" "boolean message"

# --- Values naming a run or a host are looked for in the judged plan.
cat >mine/runs.sql <<'SQL'
-- name: runs
-- param: plan  the plan
-- param: run = a-1  a run
-- param: host = a  a host
-- type: plan = text naming a plan
-- type: run = text naming a run
-- type: host = text naming a host
-- judges: plan
SELECT r.name FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id
WHERE p.name = :plan AND (r.name = :run OR h.name = :host) ORDER BY 1;
SQL
run bd --db tie.db query runs --queries mine --param plan=tie --param run=b-2 --no-record --format csv
expect_out "$(printf 'name\r\na-1\r\na-2\r\nb-2\r')" "a run and a host that exist"
run bd --db tie.db query runs --queries mine --param plan=tie --param run=c-1 --no-record
expect_err_has "error: query runs: run 'c-1' is not a run of plan tie; did you mean 'a-1'? (runs: a-1, a-2, b-1, b-2) (see 'benchdb queries runs')" \
    "a run not in the plan"
run bd --db tie.db query runs --queries mine --param plan=tie --param host=c --no-record
expect_err_has "error: query runs: host 'c' ran no run of plan tie; did you mean 'a'? (hosts: a, b)" "a host not in the plan"

# --- The header is checked when the query is read.
bad() {
    printf '%s\n' "$@" >mine/bad.sql
    run bd query mine/bad.sql --no-record
}
bad "-- name: bad" "-- param: n = abc  a number" "-- type: n = integer" "SELECT :n;"
expect_rc 1 "a default not of its type"
expect_err_has "error: query: mine/bad.sql:2: param: the default of n, 'abc': expected an integer" "default message"
bad "-- name: bad" "-- type: n = real" "SELECT 1;"
expect_err_has "error: query: mine/bad.sql:2: type: expected 'NAME = ...' naming a parameter declared above, got 'n = real'" \
    "a type for no parameter"
bad "-- name: bad" "-- param: n = 1  a number" "-- type: n = number" "SELECT :n;"
expect_err_has "error: query: mine/bad.sql:3: type: expected text, integer, real, boolean, time or 'choice of A, B, ...', got 'number'" \
    "an unknown type"
bad "-- name: bad" "-- param: n = 1  a number" "-- type: n = integer in [5, 1]" "SELECT :n;"
expect_err_has "mine/bad.sql:3: type: expected 'integer' or 'integer in RANGE' with RANGE such as [1, 100], (0, 1) or [0, ), got 'integer in [5, 1]'" \
    "an empty range"
bad "-- name: bad" "-- needs: 1" "SELECT 1;"
expect_err_has "error: query: mine/bad.sql:2: needs: no '-- unmet: MESSAGE' line follows" "needs without unmet"
bad "-- name: bad" "-- show: a, nope" "SELECT 1 AS a;"
expect_rc 1 "show names a column the query lacks"
expect_err_has "error: query bad (mine/bad.sql): show: the query has no column 'nope'; columns: a" "show message"
rm mine/bad.sql

# --- Unknown names: query, rule and history refuse them alike.
list="saved queries: aggregations, cell-spread, compare, comparisons, echo, gate-percent, gate-ttest, gate-zscore, injected-steps, placement-rule, regressions, runs, ... (5 more) (see 'benchdb queries')"
for cmd in "query" "rule register" "history"; do
    # shellcheck disable=SC2086
    run bd $cmd nope --queries mine
    expect_rc 2 "$cmd of an unknown name"
    expect_eq "$(cat "$T/err")" "error: $cmd: no saved query named 'nope'; $list" "$cmd refuses an unknown name"
done
run bd history placment-rule
expect_err_has "error: history: no saved query named 'placment-rule'; did you mean 'placement-rule'?" "history suggests"
run bd history widest
expect_rc 0 "history of a known query without evaluations"
expect_err_has "no evaluation of widest is recorded" "history says there is none"
# A query with recorded evaluations is known to history after its file is gone.
bd query echo --queries mine --param v=1 --param run=x --record >/dev/null 2>&1
run bd history echo --format csv
expect_rc 0 "history of a recorded query no longer on the path"
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 1 "its evaluation is listed"

# A time (the gates' since) is compared as text with history_point.started:
# written otherwise (no milliseconds, an offset, 2025-11-5) it selected the
# wrong runs, or none, without a word. Refused, with the text to give.
see="(see 'benchdb queries gate-percent')"
usage_error "error: query gate-percent: --param since=2026-10-21T06:00:00+02:00: expected a UTC time as the store writes it (it is compared as text): 2026-10-21T04:00:00.000Z, or a leading part of it such as 2026-10-21 $see" \
    bd query gate-percent --param since=2026-10-21T06:00:00+02:00
usage_error "error: query gate-percent: --param since=2026-10-21T04:00:00Z: expected a UTC time as the store writes it (it is compared as text): 2026-10-21T04:00:00.000Z, or a leading part of it such as 2026-10-21 $see" \
    bd query gate-percent --param since=2026-10-21T04:00:00Z
usage_error "error: query gate-percent: --param since=2026-10-5: expected a date (2026-01-31) or a UTC time as the store writes it (2026-01-31T00:00:00.000Z) $see" \
    bd query gate-percent --param since=2026-10-5
for v in 2026-10-21 2026-10-21T04:00 2026-10-21T04:00:00 2026-10-21T04:00:00.000Z; do
    run bd query gate-percent --param since=$v --no-record
    expect_rc 0 "since=$v: the store's way of writing a time, or a leading part of it"
done

# A band whose edges are swapped holds no estimate: the rule ran and said
# "not adopted" (as the band condition failed), the chart drew an empty band.
for q in placement-rule comparisons widest; do
    before=$(evaluations)
    kind=
    [ $q = widest ] && kind=--param=kind=all
    run bd query $q --param plan=calibration-sim $kind --param band_lo=1.05 --param band_hi=0.95
    expect_rc 4 "$q: band_lo above band_hi"
    expect_eq "$(cat "$T/err")" "band_lo (1.05) must be below band_hi (0.95): no estimate lies in the band between them" \
        "$q: says so"
    expect_eq "$(evaluations)" "$before" "$q: records nothing"
done


# docs/queries.md, "Typed parameters": the messages it quotes are what these
# commands print on the example store, line for line ("(...)" stands for the
# query's "(see 'benchdb queries NAME')"), so that the doc cannot go stale.
awk '/^### Typed parameters/ { on = 1 } on && /^    error: / { sub(/^    /, ""); print } on && /^### Needs/ { exit }' \
    "$BENCHDB_SRC/docs/queries.md" >doc-errors
expect_eq "$(wc -l <doc-errors)" 6 "docs/queries.md quotes six refused values"
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    want=$(sed -n "${n}p" doc-errors)
    q=$(printf '%s\n' "$want" | sed 's/^error: query \([^:]*\):.*/\1/')
    want=$(printf '%s\n' "$want" | sed "s/ (\.\.\.)\$/ (see 'benchdb queries $q')/")
    usage_error "$want" $cmd
done <<'EOF_CMDS'
bd query placement-rule --param plan=calibration-sim --param band_lo=abc
bd query placement-rule --param plan=calibration-sim --param level=1.5
bd query placement-rule --param plan=nope
bd query placement-rule --param plan=calibration-sim --param group_by=proflie
bd query trend --param benchmark=serialise
bd query trend --param metric=cpu
EOF_CMDS


# docs/queries.md, "Needs": the command it shows exits 4 with the line it shows.
cmd=$(awk '/^### Needs/ { on = 1 } on && /^    \$ benchdb / { sub(/^    \$ benchdb /, ""); print; exit }' "$BENCHDB_SRC/docs/queries.md")
want=$(awk '/^### Needs/ { on = 1 } on && /^    \$ benchdb / { getline; sub(/^    /, ""); print; exit }' "$BENCHDB_SRC/docs/queries.md")
[ -n "$cmd" ] && [ -n "$want" ] || fail "docs/queries.md shows a query whose needs are unmet"
run bd $cmd
expect_rc 4 "docs/queries.md's unmet needs: $cmd"
expect_eq "$(cat "$T/err")" "$want" "docs/queries.md's unmet needs: the line it shows"

# docs/queries.md, "Outcome, verdict and --gate": a gate's headline, then the outcome line, as shown.
awk '/^    the gate fails: / { sub(/^    /, ""); print; getline; sub(/^    /, ""); print; exit }' \
    "$BENCHDB_SRC/docs/queries.md" >doc-gate
run bd query gate-percent --no-record
expect_rc 0 "gate-percent on the example store"
expect_eq "$(head -n 2 "$T/err")" "$(cat doc-gate)" "docs/queries.md's gate headline and outcome line"

finish
