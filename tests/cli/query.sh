# Saved queries: pairing of comparisons, the placement rule on an exact tie,
# parameters, verdict history and its diff, untrusted query files, rule
# pre-registration.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
plans="$BENCHDB_SRC/tests/data/plans"

bd init >/dev/null

# --- queries lists every built-in query with its parameters.
run bd queries --format csv
expect_rc 0 "queries"
for q in aggregations cell-spread comparisons placement-rule verdicts widest; do
    grep -q "^$q," "$T/out" || fail "queries lists $q"
done
expect_out_has 'placement-rule,"The placement-calibration rule' "queries shows summaries"
expect_out_has 'plan (required), level = 0.95, band_lo = 0.95, band_hi = 1.05, direction = forward' "queries shows parameters"
expect_eq "$(cat "$T/err")" "" "queries --format csv: nothing on stderr"
# The answer first (it was the bare table): how many, from where, how many
# decide; counted from the shipped files.
nq=$(ls "$BENCHDB_SRC"/queries/*.sql | wc -l)
nd=$(grep -l '^-- outcome:' "$BENCHDB_SRC"/queries/*.sql | wc -l)
run bd queries
expect_eq "$(cat "$T/err")" "$nq saved queries: $nq built-in, 0 from files; $nd decisions (an -- outcome: column, --gate), $((nq - nd)) lookups" \
    "queries: the first line says what there is"
mkdir -p own && printf -- '-- name: own\n-- summary: mine\nSELECT 1 AS x;\n' >own/own.sql
run bd queries --queries own --format markdown
expect_eq "$(head -n 1 "$T/out")" "**$((nq + 1)) saved queries: $nq built-in, 1 from files; $nd decisions (an -- outcome: column, --gate), $((nq - nd + 1)) lookups**" \
    "queries as Markdown: the line in bold first"

# --- aggregations counts a value of count k as k equal values, warmups
# left out: 1.0 x3, 2.0 x1, 10.0 x2 (and a warmup 50.0 x5) give n 6, min 1,
# max 10, mean 25/6, median 1.5, trimmed mean (1 + 1 + 2 + 10) / 4 = 3.5,
# spread 10.
bd sql --write --file - >/dev/null <<'SQL'
BEGIN;
INSERT INTO archive(id, sha256, name, size, format, content_encoding, stored_size, ingested_at, tool_version)
  VALUES (9000, printf('%064d', 9000), 'counts', 0, 'benchdb-run/1', 'identity', 0, '2026-10-21T00:00:00Z', 'fixture');
INSERT INTO plan(id, name) VALUES (9000, 'counts');
INSERT INTO variant(id, name) VALUES (9000, 'v');
INSERT INTO host(id, name) VALUES (9000, 'h');
INSERT INTO benchmark(id, name, params) VALUES (9000, 'hist', '{}');
INSERT INTO run(id, plan_id, name, host_id, position, started_at, attributes, archive_id)
  VALUES (9000, 9000, 'r', 9000, 1, '2026-10-21T04:00:00Z', '{}', 9000);
INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total)
  VALUES (9000, 9000, 9000, 1, 9000, 0, 'ns/op', 6, 25.0);
INSERT INTO sample(series_id, warmup, iteration, value, count)
  VALUES (9000, 1, 1, 50.0, 5), (9000, 0, 1, 1.0, 3), (9000, 0, 2, 2.0, 1), (9000, 0, 3, 10.0, 2);
COMMIT;
SQL
run bd query aggregations -p plan=counts --no-record --format csv
expect_rc 0 "aggregations of values with counts"
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" "r,hist,{},v,ns/op,6,1.0,10.0,4.166666666666667,1.5,3.5,10.0" \
    "aggregations expands counts, warmups left out"

# --- Pairing: three hosts x three positions, one cell. Offsets make each
# estimate exp(0.2 * (3 hA + pA - 3 hB - pB)), so pairs and order show.
{ echo "BEGIN;"; cat "$plans/pairing.sql"; echo "COMMIT;"; } | bd sql --write --file - >/dev/null
run bd query comparisons -p plan=pairing --no-record --format csv
expect_rc 0 "comparisons on the pairing plan"
cut -d, -f2,5,6 "$T/out" | tr -d '\r' >"$T/pairs"
expect_eq "$(cat "$T/pairs")" "kind,run_a,run_b
within,h-a-1,h-a-2
within,h-a-1,h-a-3
within,h-a-2,h-a-3
within,h-b-1,h-b-2
within,h-b-1,h-b-3
within,h-b-2,h-b-3
within,h-c-1,h-c-2
within,h-c-1,h-c-3
within,h-c-2,h-c-3
between,h-a-1,h-b-1
between,h-a-1,h-c-1
between,h-a-2,h-b-2
between,h-a-2,h-c-2
between,h-a-3,h-b-3
between,h-a-3,h-c-3
between,h-b-1,h-c-1
between,h-b-2,h-c-2
between,h-b-3,h-c-3" "within: every pair on a host, earlier over later; between: per position, host pairs by name"
# h-a-1 over h-c-1: exp(0.2 * (1 - 7)) = exp(-1.2) = 0.30119421191220214
run bd sql "SELECT 1" >/dev/null
bd query comparisons -p plan=pairing --no-record --format json >"$T/cmp.json" 2>/dev/null
python3 - "$T/cmp.json" <<'PY' || fail "comparison estimates and intervals"
import json, math, sys
rows = json.load(open(sys.argv[1]))
off = lambda r: 0.2 * (3 * "abc".index(r[2]) + int(r[-1]))
for r in rows:
    want = math.exp(off(r["run_a"]) - off(r["run_b"]))
    assert abs(r["estimate"] - want) <= 1e-12 * want, (r, want)
    assert r["lo"] < r["estimate"] < r["hi"] and r["excludes_one"] == 1 and r["in_band"] == 0, r
# Reversed, the same pairs read the other way round.
PY
bd query comparisons -p plan=pairing -p direction=reverse --no-record --format json >"$T/rev.json" 2>/dev/null
python3 - "$T/cmp.json" "$T/rev.json" <<'PY' || fail "direction=reverse inverts estimates and swaps the interval"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert len(a) == len(b) == 18
for x, y in zip(a, b):
    assert (x["run_a"], x["run_b"]) == (y["run_a"], y["run_b"])
    assert abs(y["estimate"] * x["estimate"] - 1) < 1e-12
    assert abs(y["lo"] * x["hi"] - 1) < 1e-12 and abs(y["hi"] * x["lo"] - 1) < 1e-12
PY

# --- The rule on an exact tie: 32/40 between-host exclusions against 28/40
# within plus a margin of 0.1 (0.7 + 0.1 is 0.7999999999999999 in floating
# point), and 8/40 estimates in band against min_band_share 0.2.
bd --db tie.db init >/dev/null
run bd --db tie.db rule list
expect_rc 0 "rule list on a store with none"
run bd --db tie.db rule list --ref https://example.org/pr/1
expect_rc 2 "rule list --ref: register's option, ignored before"
expect_err_has "error: rule list: --ref goes with 'rule register'" "says so"
run bd --db tie.db rule list
expect_eq "$(cat "$T/err")" "no rule is registered ('benchdb rule register NAME' fixes one before its data)" \
    "rule list: none, said in words"
bd --db tie.db rule list >"$T/merged" 2>&1
expect_eq "$(head -n 1 "$T/merged")" "no rule is registered ('benchdb rule register NAME' fixes one before its data)" \
    "rule list: none, said before the bare header"
bd --db rl.db init >/dev/null
bd --db rl.db rule register gate-percent >/dev/null 2>&1 &&
    bd --db rl.db rule register gate-zscore >/dev/null 2>&1 &&
    bd --db rl.db rule register compare --published-at 2026-12-01T00:00:00Z >/dev/null 2>&1 || fail "three rules"
day=$(bd --db rl.db sql "SELECT substr(registered_at, 1, 10) FROM rule WHERE id = 3" --format csv | tail -n 1 | tr -d '\r')
run bd --db rl.db rule list
expect_eq "$(cat "$T/err")" "3 rules registered, of 3 queries, 1 published; the latest: compare (id 3), $day" \
    "rule list: the first line counts the rules"
run bd --db rl.db rule list --format csv
expect_eq "$(cat "$T/err")" "" "rule list --format csv: the rows alone"
{ echo "BEGIN;"; cat "$plans/tie.sql"; echo "COMMIT;"; } | bd --db tie.db sql --write --file - >/dev/null
run bd --db tie.db query placement-rule -p plan=tie -p margin=0.1 -p min_band_share=0.2 --format csv
expect_rc 0 "placement-rule on the tie plan"
expect_out "$(printf '%s\r\n%s\r' \
 'run_group,within_n,between_n,within_in_band,between_in_band,within_excludes,between_excludes,between_band_share,within_exclude_share,between_exclude_share,band_pass,interval_pass,pass,adopt,verdict' \
 'g,40,40,12,8,28,32,0.2,0.7,0.8,1,1,1,1,separate-host placement adopted: every group passes both conditions')" \
 "an exact tie on both conditions passes"
run bd --db tie.db query placement-rule -p plan=tie -p margin=0.0999 -p min_band_share=0.2001 --format csv
expect_out_has 'g,40,40,12,8,28,32,0.2,0.7,0.8,0,0,0,0,separate-host placement not adopted: g fails the band and interval conditions' \
 "just past the tie both conditions fail"
run bd --db tie.db query placement-rule -p plan=tie -p min_band_share=0.2 --format table
expect_rc 0 "table output"
expect_out "run_group  between_band_share  within_exclude_share  between_exclude_share  pass
---------  ------------------  --------------------  ---------------------  ----
g                         0.2                   0.7                    0.8     0" "the table shows the -- show: columns"
expect_err_has "separate-host placement not adopted: g fails the interval condition" "the verdict in words, on stderr"
expect_eq "$(grep -c 'separate-host placement' "$T/err")" 1 "the verdict is said once"
expect_err_has "recorded as evaluation 3 (see 'benchdb history placement-rule')" "the evaluation is recorded"
# The answer first: stdout and stderr merged, as on a terminal, the
# verdict is the first line and the rows follow (table and CSV alike).
for f in table csv; do
  bd --db tie.db query placement-rule -p plan=tie -p min_band_share=0.2 --no-record --format $f >"$T/merged" 2>&1
  expect_eq "$(head -1 "$T/merged")" "separate-host placement not adopted: g fails the interval condition" \
    "the verdict leads the rows ($f)"
  expect_eq "$(sed -n 2p "$T/merged" | cut -c1-9)" "run_group" "the rows follow the verdict ($f)"
done

# --- History: every evaluation, and what changed between two.
run bd --db tie.db history --format csv
expect_rc 0 "history"
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 3 "history lists the three evaluations"
expect_out_has ',placement-rule,' "history names the query"
run bd --db tie.db history placement-rule --limit 1 --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f1)" 3 "history --limit 1 shows the last"
run bd --db tie.db history --diff 1 2
expect_rc 0 "history --diff"
# What each found, second (after which two): the recorded outcomes.
o1=$(bd --db tie.db sql "SELECT outcome FROM evaluation WHERE id = 1" --format csv | tail -n 1 | tr -d '\r')
o2=$(bd --db tie.db sql "SELECT outcome FROM evaluation WHERE id = 2" --format csv | tail -n 1 | tr -d '\r')
[ "$o1" != "$o2" ] || fail "the two evaluations' outcomes differ: $o1"
expect_eq "$(sed -n 2p "$T/err")" "outcome:    $o1 -> $o2" "diff: the outcome that changed, second"
expect_err_has "rule text:  same" "diff: same text"
expect_err_has "parameters: min_band_share: 0.2 -> 0.2001, margin: 0.1 -> 0.0999" "diff: the parameters that changed"
expect_err_has "data:       same (1 archives" "diff: same data"
expect_err_has "rows:       1 of 1 differ" "diff: rows that differ"
expect_out_has "g          band_pass      1" "diff: the changed rows on stdout"
run bd --db tie.db history --diff 1 2 --format csv
expect_out "$(printf '%s\r\n' 'run_group,column,1,2' 'g,band_pass,1,0' 'g,interval_pass,1,0' 'g,pass,1,0' 'g,adopt,1,0' \
  'g,verdict,separate-host placement adopted: every group passes both conditions,separate-host placement not adopted: g fails the band and interval conditions')" \
  "diff rows: the changed columns of the changed group"
run bd --db tie.db history --diff 1 99
expect_rc 1 "diff with a missing evaluation"
expect_err_has "error: history: no evaluation 99 in the store (its " "missing evaluation message"
expect_err_has "evaluations are 1 to " "with the ids there are"
run bd --db tie.db history --diff 1
expect_rc 2 "diff with one id"
# New data changes the fingerprint, and the diff says so.
bd --db tie.db sql --write "INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, ingested_at, tool_version) VALUES (printf('%064d', 2), 'more', 0, 'benchdb-run/1', 'identity', 0, 'now', 'x')" >/dev/null
bd --db tie.db query placement-rule -p plan=tie -p min_band_share=0.2 >/dev/null 2>&1
run bd --db tie.db history --diff 3 4
expect_err_has "data:       differs (1 -> 2 archives" "diff: the data changed"
expect_err_has "rows:       0 of 1 differ" "diff: no row changed"
expect_eq "$(wc -c <"$T/out")" 0 "diff: no changed rows, no table"
run bd --db tie.db query placement-rule -p plan=tie --no-record
run bd --db tie.db history --format csv
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 4 "--no-record records nothing"

# --- Parameters.
run bd query placement-rule
expect_rc 2 "a missing required parameter"
expect_err_has "error: query placement-rule: missing --param plan=VALUE: the calibration plan to judge (plan.name) (see 'benchdb queries placement-rule')" "missing parameter message"
run bd query placement-rule -p plan=x -p nosuch=1
expect_rc 2 "an unknown parameter"
expect_err_has "error: query placement-rule: no parameter named 'nosuch'; parameters: plan, level, band_lo, band_hi, direction, group_by, min_band_share, margin (see 'benchdb queries placement-rule')" "unknown parameter message"
run bd query placement-rule -p plan=x -p marign=1
expect_err_has "error: query placement-rule: no parameter named 'marign'; did you mean 'margin'?" "a mistyped parameter"
run bd query placement-rule -p plan=x -p direction=sideways
expect_rc 2 "a value outside the choices"
expect_err_has "error: query placement-rule: --param direction=sideways: expected one of forward, reverse" "choices message"
run bd query nosuch
expect_rc 2 "an unknown query"
expect_err_has "error: query: no saved query named 'nosuch'; saved queries: aggregations, cell-spread, compare, comparisons, gate-percent, gate-ttest, gate-zscore, injected-steps, placement-rule, regressions, trend, variability, ... (3 more) (see 'benchdb queries')" "unknown query message"
run bd query placment-rule
expect_err_has "error: query: no saved query named 'placment-rule'; did you mean 'placement-rule'? (see 'benchdb queries')" "a mistyped query"
run bd query
expect_rc 2 "no query name"

# --- Queries from --queries and $BENCHDB_QUERIES, and a path to a file.
mkdir mine
cat >mine/top-cells.sql <<'SQL'
-- name: top-cells
-- summary: The cells with the largest geometric-mean ratio in a plan
-- param: plan  the plan
-- param: n = 2  how many
-- type: n = integer in [1, )
SELECT b.name AS benchmark, max(rc.geomean_ratio) AS ratio
FROM plan p JOIN run r ON r.plan_id = p.id JOIN run_cell rc ON rc.run_id = r.id
JOIN benchmark b ON b.id = rc.benchmark_id
WHERE p.name = :plan GROUP BY b.id ORDER BY ratio DESC, b.name LIMIT :n;
SQL
run bd --db tie.db query top-cells --queries mine -p plan=tie --format csv --no-record
expect_rc 0 "a query from --queries"
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')" "cell00 cell01 " "the custom query's rows"
BENCHDB_QUERIES="$T/mine" run bd --db tie.db query top-cells -p plan=tie -p n=1 --format csv --no-record
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 1 "a query from \$BENCHDB_QUERIES, n bound as a number"
run bd --db tie.db query mine/top-cells.sql -p plan=tie --no-record
expect_rc 0 "a query given as a path"
run bd queries --queries mine --format csv
expect_out_has "top-cells,The cells with the largest geometric-mean ratio in a plan,\"plan (required), n = 2\",mine/top-cells.sql" "queries lists a query from --queries"

# Untrusted query files cannot write, and must be one declared statement.
printf -- '-- name: evil\nDELETE FROM run;\n' >mine/evil.sql
run bd --db tie.db query evil --queries mine
expect_rc 1 "a query that writes"
expect_err_has "error: query evil (mine/evil.sql): is not read-only; a saved query may only read the store" "write refused"
run bd --db tie.db sql "SELECT count(*) FROM run" --format csv
expect_out "$(printf 'count(*)\r\n4\r')" "nothing was deleted"
printf -- '-- name: two\nSELECT 1; SELECT 2;\n' >mine/two.sql
run bd --db tie.db query two --queries mine
expect_rc 1 "two statements"
expect_err_has "holds more than one statement" "two statements refused"
printf -- '-- name: undeclared\nSELECT :x;\n' >mine/undeclared.sql
run bd --db tie.db query undeclared --queries mine
expect_rc 1 "an undeclared parameter"
expect_err_has "error: query undeclared (mine/undeclared.sql): the query uses :x, which its header does not declare (-- param: x ...)" "undeclared parameter message"
printf -- '-- summary: no name\nSELECT 1;\n' >mine/noname.sql
# (docs/reliability.md: skipped with a warning, the others still listed; named
# explicitly, an error)
run bd queries --queries mine
expect_rc 0 "a query file without a name"
expect_err_has "warning: mine/noname.sql: the header has no '-- name:' line; skipped" "no name message"
run bd queries mine/noname.sql
expect_rc 1 "a query file without a name, named"
expect_err_has "error: queries: mine/noname.sql: the header has no '-- name:' line" "no name message, named"
rm mine/noname.sql mine/evil.sql mine/two.sql mine/undeclared.sql

# --- Pre-registration. The tie plan's earliest run started 2026-10-21T04:00:00Z.
run bd --db tie.db rule register placement-rule --published-at 2026-10-20T16:00:00Z --ref https://example.org/pull/111
expect_rc 0 "rule register"
expect_err_has "registered rule placement-rule (sha256 " "register message"
expect_eq "$(wc -c <"$T/out")" 0 "rule register prints nothing on stdout"
run bd --db tie.db rule register placement-rule
expect_err_has "is already registered as rule 1" "registering twice"
run bd --db tie.db rule register nosuch
expect_rc 2 "registering an unknown query"
expect_err_has "error: rule register: no saved query named 'nosuch'; saved queries: aggregations, cell-spread, compare, comparisons, gate-percent, gate-ttest, gate-zscore, injected-steps, placement-rule, regressions, trend, variability, ... (3 more) (see 'benchdb queries')" "rule refuses an unknown name as query does"
run bd --db tie.db query placement-rule -p plan=tie
expect_err_has "was fixed at 2026-10-20T16:00:00Z (https://example.org/pull/111), before plan tie began (2026-10-21T04:00:00Z): pre-registered" \
  "a registered rule with its defaults is pre-registered"
run bd --db tie.db query placement-rule -p plan=tie -p margin=0.050
expect_err_has "before plan tie began (2026-10-21T04:00:00Z): pre-registered" "a default written otherwise is still the default"
run bd --db tie.db query placement-rule -p plan=tie -p direction=reverse
expect_err_has "but with other parameters (direction=reverse): applied retroactively" "other parameters make it retroactive"
reverse=$(sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p' "$T/err")
run bd --db tie.db history placement-rule --format csv
expect_eq "$(tail -n 2 "$T/out" | cut -d, -f1 --complement | grep -o 'pre-registered\|retroactive' | tr '\n' ' ')" "pre-registered retroactive " \
  "the history records registration"
# A rule published after the plan began is retroactive.
cp "$BENCHDB_SRC/queries/verdicts.sql" late.sql
run bd --db tie.db rule register late.sql --published-at 2026-10-22T00:00:00Z
run bd --db tie.db query late.sql -p plan=tie
expect_err_has "after plan tie began (2026-10-21T04:00:00Z): applied retroactively" "published after the plan: retroactive"
late=$(bd --db tie.db query late.sql -p plan=tie --record 2>&1 >/dev/null | sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p')
# Their pages say which of the two made them retroactive, as the terminal
# did ("fixed after the plan began, or run with other parameters" said
# both of either).
bd --db tie.db report --evaluation "$reverse" -o reverse.html 2>/dev/null || fail "report of the reversed evaluation"
grep -q "plan tie began 2026-10-21T04:00:00Z: applied retroactively: fixed before the plan began, but run with other parameters than its defaults (direction=reverse)</dd>" \
    reverse.html || fail "the page: retroactive for its parameters, named: $(grep -o 'retroactive</strong>[^<]*' reverse.html)"
bd --db tie.db report --evaluation "$late" -o late.html 2>late.err || fail "report of the late rule's evaluation: $(cat late.err)"
grep -q "plan tie began 2026-10-21T04:00:00Z: applied retroactively: fixed after the plan began</dd>" late.html ||
    fail "the page: retroactive for its time: $(grep -o 'retroactive</strong>[^<]*' late.html)"
run bd --db tie.db rule register placement-rule --published-at yesterday
expect_rc 2 "a bad --published-at"
expect_err_has "expected an RFC 3339 time" "bad time message"
# A rule without a judges line, a bad time: the usage error alone (before,
# a warning about the rule's header came first).
run bd --db tie.db rule register gate-zscore --published-at yesterday
expect_rc 2 "a bad --published-at, a rule without -- judges:"
expect_eq "$(cat "$T/err")" "error: rule register: --published-at 'yesterday': expected an RFC 3339 time such as 2026-10-20T16:00:00Z (see 'benchdb rule --help')" \
    "the usage error alone"
run bd --db tie.db rule list --format csv
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 2 "rule list"
# The registered text after the file changed (an edit, or a newer benchdb's
# shipped query): the note names the rule registered under the name, and
# 'rule show' gives its exact bytes, which judge as registered.
sed 's/^-- summary: /-- summary: (edited) /' "$BENCHDB_SRC/queries/placement-rule.sql" >placement-rule.sql
run bd --db tie.db query placement-rule.sql -p plan=tie
expect_err_has "is not registered: this text differs from the one registered under its name, rule 1 (sha256 "     "an edited rule names the registered one"
expect_err_has "fixed at 2026-10-20T16:00:00Z); 'benchdb rule show 1 > FILE.sql' writes that text" "and how to run it"
run bd --db tie.db rule show placement-rule
expect_rc 0 "rule show by name"
cmp -s "$T/out" "$BENCHDB_SRC/queries/placement-rule.sql" || fail "rule show: the registered bytes"
bd --db tie.db rule show 1 >registered.sql || fail "rule show by id"
cmp -s registered.sql "$BENCHDB_SRC/queries/placement-rule.sql" || fail "rule show 1: the registered bytes"
run bd --db tie.db query registered.sql -p plan=tie
expect_err_has "before plan tie began (2026-10-21T04:00:00Z): pre-registered" "the shown text judges as registered"
run bd --db tie.db rule show placemnt-rule
expect_rc 2 "rule show: an unknown name"
expect_err_has "no registered rule is 'placemnt-rule' (did you mean 'placement-rule'?); the rules are 1 (placement-rule), 2 (verdicts)" \
    "rule show: the nearest name and the rules there are"
run bd --db tie.db rule show 9
expect_rc 2 "rule show: an unknown id"
expect_eq "$(wc -c <"$T/out")" 0 "rule show: nothing on stdout for an unknown rule"
run bd --db tie.db rule show
expect_rc 2 "rule show without a rule"

# --- A lookup with a headline says what it found first (stderr, before the
# rows), as its page opens; the numbers are the rows'. regressions' page
# headline counts the histories of its chart (another query, which only a
# page runs): the terminal's counts its own rows instead.
bd simulate --quiet --history 30 --cells 2 --steps 1 --seed 5 --plan nightly hist >/dev/null || fail "simulate"
bd --db hist.db init >/dev/null && bd --db hist.db ingest --quiet hist || fail "ingest the history"
run bd --db hist.db query injected-steps --format csv
expect_rc 0 "injected-steps"
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 1 "one injected step"
want=$(python3 -c 'import csv,sys; r=next(csv.DictReader(open(sys.argv[1])))
print("1 step injected in 1 history; the largest, %+.0f%% (%s), in %s/format=binary/workload=small on %s at run %s"
      % (float(r["change_percent"]), r["kind"], r["benchmark"], r["host"], r["run"]))' "$T/out")
expect_eq "$(head -n 1 "$T/err")" "$want" "injected-steps: the answer first, from its rows"
run bd --db hist.db query trend --format csv
n=$(python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["change_percent"]))' "$T/out")
h=$(python3 -c 'import csv,sys; print(len({(r["host"],r["benchmark"],r["params"],r["metric"],r["variant"]) for r in csv.DictReader(open(sys.argv[1]))}))' "$T/out")
# with the p-value and magnitude its change points were kept at, as
# regressions says them
kept="(p ≤ 0.001)"
expect_eq "$(head -n 1 "$T/err" | cut -d';' -f1)" "$n change point$([ "$n" = 1 ] || echo s) in $h histories $kept" "trend: the counts of its rows"
run bd --db hist.db query trend --format markdown
expect_eq "$(head -n 1 "$T/out" | cut -d';' -f1)" "**$n change point$([ "$n" = 1 ] || echo s) in $h histories $kept" "Markdown leads with it, bold"
run bd --db hist.db query trend -p max_pvalue=1e-300
expect_eq "$(head -n 1 "$T/err")" "no change point in $h histories of up to 30 runs with p ≤ 1e-300" \
    "trend without a change point: the thresholds that left none"
# regressions' first line from its rows: how many regressions, in how many
# histories (and improvements), with which p and magnitude (the defaults
# here), the largest; the counts are the rows'.
regressions_said() { # CSV [MAX_PVALUE]: the sentence its rows make
    python3 - "$1" "${2:-0.001}" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def n(k, one, many): return "%d %s" % (k, one if k == 1 else many)
said = " (p ≤ %s)" % sys.argv[2]  # the parameters it was run with
def hist(rs): return len({(r["host"], r["benchmark"], r["params"], r["metric"], r["variant"]) for r in rs})
def cell(r): return r["benchmark"] + "".join("/%s=%s" % kv for kv in json.loads(r["params"]).items())
reg = [r for r in rows if r["kind"] == "regression"]
imp = [r for r in rows if r["kind"] == "improvement"]
if reg:
    top = max(reg, key=lambda r: abs(float(r["change_percent"])))
    print("%s in %s%s%s; the largest: %s regressed by " % (n(len(reg), "regression", "regressions"),
          n(hist(reg), "history", "histories"), " and " + n(len(imp), "improvement", "improvements") if imp else "",
          said, cell(top)), end="")
    print("@ on %s from run %s (%s), last good %s" % (top["host"], top["run"], top["revision"][:12],
          top["last_good_run"]))
elif imp:
    top = max(imp, key=lambda r: abs(float(r["change_percent"])))
    print("no regression; %s in %s%s; the largest: %s improved by @ on %s from run %s (%s)" % (
          n(len(imp), "improvement", "improvements"), n(hist(imp), "history", "histories"), said, cell(top),
          top["host"], top["run"], top["revision"][:12]))
PY
}
for p in 0.001 0.05 0.5; do
    run bd --db hist.db query regressions -p max_pvalue=$p --format csv
    expect_rc 0 "regressions, max_pvalue $p"
    want=$(regressions_said "$T/out" $p)
    case $want in *regressed*) ;; *) fail "regressions, max_pvalue $p: the rows hold a regression" ;; esac
    # (the change as the page formats it: the rows' number, 3 digits)
    expect_eq "$(head -n 1 "$T/err" | sed 's/ by [-+][0-9.]*% / by @ /')" "$want" \
        "regressions, max_pvalue $p: the first line counts its rows"
done
# A parameter the line names reads as given, the same double (it was
# rounded as a row's value is, to 4 digits: p ≤ 0.001235, a looser bound
# than the one applied).
run bd --db hist.db query regressions -p max_pvalue=0.0012345678
expect_err_has " (p ≤ 0.0012345678)" "regressions: max_pvalue as given"
expect_eq "$(bd --db hist.db query regressions -p max_pvalue=0.5 --format csv 2>/dev/null | tail -n +2 | wc -l)" 29 \
    "regressions, max_pvalue 0.5: 29 rows (16 regressions, 13 improvements), counted above"
# The rows in the order of the answer: the regressions, the largest change
# first (the one the first line names on the first row), then the
# improvements, largest first (they were in host order: the worst
# regression anywhere in the table).
bd --db hist.db query regressions -p max_pvalue=0.5 --format csv >order.csv 2>/dev/null
python3 - order.csv <<'PY' || fail "regressions: the regressions first, the largest change first, then the improvements"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kinds = [r["kind"] for r in rows]
assert kinds == sorted(kinds, key=lambda k: ["regression", "improvement", "none"].index(k)), kinds
for kind in ("regression", "improvement"):
    size = [abs(float(r["change_percent"])) for r in rows if r["kind"] == kind]
    assert size == sorted(size, reverse=True), (kind, size)
PY
run bd --db hist.db query regressions -p max_pvalue=0.5 --format markdown
expect_eq "$(head -n 1 "$T/out" | sed 's/ by [-+][0-9.]*% / by @ /')" "**$want**" \
    "regressions: Markdown leads with the same sentence, bold"
# Only an improvement: a history of 30 nights made 12% faster from night 15.
bd simulate --quiet --history 30 --cells 2 --step 15:small/serialize:-12 --seed 5 --plan nightly faster >/dev/null &&
    bd --db faster.db init >/dev/null && bd --db faster.db ingest --quiet faster || fail "the faster history"
run bd --db faster.db query regressions --format csv
want=$(regressions_said "$T/out")
expect_eq "$(head -n 1 "$T/err" | sed 's/ by [-+][0-9.]*% / by @ /')" "$want" "regressions, improvements only"
expect_eq "$(head -n 1 "$T/err" | cut -d';' -f1,2)" "no regression; 3 improvements in 3 histories (p ≤ 0.001)" \
    "regressions, improvements only: the counts"
# Without a row the terminal still says the answer first, in its own words
# (a [without chart] line: the histories looked at are the page's to count),
# with the thresholds that left every change out.
run bd --db hist.db query regressions -p min_magnitude=5 -p max_pvalue=0.01
expect_eq "$(head -n 1 "$T/err")" "no regression: no change point with p ≤ 0.01 and a change of at least 500%" \
    "regressions without a row: the answer first, with its thresholds"
expect_eq "$(sed -n 2p "$T/err")" "result: 0 rows" "regressions without a row: then the outcome"
run bd --db hist.db query regressions -p min_magnitude=5 -p plan=nightly --format markdown
expect_eq "$(head -n 1 "$T/out")" "**no regression: no change point in plan nightly with p ≤ 0.001 and a change of at least 500%**" \
    "regressions without a row, in Markdown: the same words, bold, the plan named"
# A store without a measured value has no history to judge: not "no
# regression", but why nothing was looked at.
bd --db bare.db init >/dev/null
run bd --db bare.db query regressions
expect_eq "$(cat "$T/err")" "result: 0 rows: no measured value has metric 'primary'" \
    "regressions of a store without a value: why, not 'no regression'"
run bd --db hist.db report regressions -p min_magnitude=5 -o empty-regressions.html
expect_rc 0 "regressions' page without a row"
expect_eq "$(sed -n 's/.*<h1 class="headline empty">\(.*\)<\/h1>.*/\1/p' empty-regressions.html)" \
    "no change point in 6 histories of up to 30 runs" \
    "regressions' page without a row: the chart's count (trend's: 2 cells on 3 hosts), not the terminal's line"
# A recorded lookup's outcome is a row count ("1 row"): history's first
# line adds what the rows say, the headline `query` printed when it ran.
run bd --db hist.db query regressions --record
said=$(head -n 1 "$T/err")
id=$(bd --db hist.db sql "SELECT max(id) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')
outcome=$(bd --db hist.db sql "SELECT outcome FROM evaluation WHERE id = $id" --format csv | tail -n 1 | tr -d '\r')
case "$outcome" in *" row"|*" rows") ;; *) fail "regressions' outcome, a row count: $outcome" ;; esac
run bd --db hist.db history regressions
expect_eq "$(head -n 1 "$T/err" | sed 's/.*; the latest: //')" "regressions (id $id): $outcome, $said" \
    "history: the latest lookup's outcome says what it found"
# A list of sides naming one source twice, once abbreviated, is refused as
# the same name twice is.
src=$(bd --db hist.db sql "SELECT min(source) FROM run" --format csv | tail -n 1 | tr -d '\r')
run bd --db hist.db query versions -p plan=nightly -p by=source -p "versions=$(printf %.8s "$src"),$src"
expect_rc 2 "a source twice, once abbreviated"
expect_err_has "versions: '$src' is given twice in" "the whole source named"


# --- docs/queries.md's general claims about the shipped queries hold for
# queries/*.sql: the queries it calls the calibration queries are those
# that group runs (group_by) and read treatment over baseline, and the one
# parameter it says has no type is the only one ("all but aggregations"
# had named 14 queries as comparing treatment over baseline, where 5 do).
python3 - "$BENCHDB_SRC" <<'PY' || fail "docs/queries.md's claims about the shipped queries"
import glob, os, re, sys
src = sys.argv[1]
doc = open(os.path.join(src, "docs/queries.md"), encoding="utf-8").read()
grouping, untyped = set(), set()
for f in glob.glob(os.path.join(src, "queries/*.sql")):
    text = open(f, encoding="utf-8").read()
    name = re.search(r"^-- name: (\S+)", text, re.M).group(1)
    params = re.findall(r"^-- param: (\w+)", text, re.M)
    typed = set(re.findall(r"^-- (?:type|choices): (\w+) =", text, re.M))
    untyped |= {"%s's %s" % (name, p) for p in params if p not in typed}
    if "group_by" in params:
        grouping.add(name)
m = re.search(r"The calibration queries \(([^)]*)\) group runs by a run attribute", doc)
assert m, "the sentence naming the calibration queries"
named = set(re.findall(r"`([\w-]+)`", m.group(1)))
assert named == grouping, (named, grouping)
m = re.search(r"Every parameter of a shipped query declares its type \(`-- type:` or\s+`-- choices:`\) but one, "
              r"`(\w+)`'s `(\w+)`", doc)
assert m and {"%s's %s" % m.groups()} == untyped, (m and m.groups(), untyped)
assert "all but `aggregations`" not in doc
PY

# --- A headline line that does not parse: it was dropped without a word
# (report refuses the query, query printed only its row count); it is left
# out with a warning naming the file and line.
mkdir -p badhead
printf -- '-- name: hq\n-- summary: a headline with an unknown format\n-- headline: {x:pc}\nSELECT 1 AS x;\n' >badhead/hq.sql
run bd query --queries badhead hq
expect_rc 0 "a malformed headline: the query runs"
expect_out "x
-
1" "a malformed headline: the rows"
expect_err_has "warning: badhead/hq.sql:3: headline: {x:pc}: unknown format 'pc' (pct, %, share, abs, sha, cell, variant, date, time, DIGITS or WORD/WORDS) (no headline; 'benchdb report' refuses the query until it is fixed)" \
    "a malformed headline: a warning names its file and line"
# history's first line reads the latest lookup's headline back: it warned
# of nothing and said only the row count; it warns as query does, naming
# the evaluation and the line of its recorded text, before the rows.
run bd query --queries badhead hq --record
expect_err_has "recorded as evaluation " "the malformed headline's query recorded"
hq=$(sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p' "$T/err")
run bd history --all
expect_rc 0 "history with a malformed headline"
case "$(head -n 1 "$T/err")" in *"; the latest: hq (id $hq): 1 row") ;; *) fail "history's first line: $(head -n 1 "$T/err")" ;; esac
expect_eq "$(sed -n 2p "$T/err")" "warning: evaluation $hq (hq):3: headline: {x:pc}: unknown format 'pc' (pct, %, share, abs, sha, cell, variant, date, time, DIGITS or WORD/WORDS) (no headline; 'benchdb report' refuses the query until it is fixed)" \
    "history: the malformed headline warned of, after the line it is missing from"

finish
