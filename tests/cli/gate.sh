# Exit codes that follow the verdict (--gate), results that explain why
# they are empty (-- needs:), and the placement rule's output on the example
# plan: within 100 columns, four significant digits, and stdout that parses
# as CSV, JSON and a Markdown table with nothing else on it.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd ingest -q "$BENCHDB_SRC/examples/"
evaluations() { bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }

# --- The example plan does not adopt: --gate exits 3.
run bd query placement-rule --param plan=calibration-sim --gate
expect_rc 3 "--gate on the example plan"
expect_out "run_group   between_band_share  within_exclude_share  between_exclude_share  pass
----------  ------------------  --------------------  ---------------------  ----
protobuf-3              0.8917               0.04167                0.09583     0
protobuf-4              0.9167                  0.05                0.07917     0" "the table: its -- show: columns, 4 digits"
expect_eq "$(grep -c 'separate-host placement' "$T/err")" 1 "the verdict is said once"
expect_err_has "gate: adopt does not hold in every row (exit 3)" "the gate says why it exits 3"
for cols in 100 80 40; do
    COLUMNS=$cols run bd query placement-rule --param plan=calibration-sim --no-record --all-columns
    expect_eq "$(awk -v c=$cols 'length($0) > c' "$T/out" | wc -l)" 0 "every column fits COLUMNS=$cols (as records)"
done
COLUMNS=100 run bd query placement-rule --param plan=calibration-sim --no-record --all-columns
expect_out_has "between_band_share = 0.8917" "all columns in 100: one record per block, 4 digits"
# Nothing but the result on stdout, in each format.
for f in csv json markdown; do
    run bd query placement-rule --param plan=calibration-sim --no-record --format $f
    cp "$T/out" "out.$f"
done
python3 - out.csv out.json out.markdown <<'PY' || fail "stdout parses as CSV, JSON and Markdown"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["run_group"] for r in rows] == ["protobuf-3", "protobuf-4"], rows
assert rows[0]["between_band_share"] == "0.8916666666666667" and rows[0]["adopt"] == "0", rows[0]
doc = json.load(open(sys.argv[2]))
assert [r["adopt"] for r in doc] == [0, 0] and doc[1]["within_exclude_share"] == 0.05, doc
md = open(sys.argv[3]).read().splitlines()
# The answer first: the verdict in bold, a blank line, then the table.
assert md[0] == "**separate-host placement not adopted: protobuf-3 fails the band and interval conditions; " \
                "protobuf-4 fails the band condition**", md[0]
assert md[1] == "", md
md = md[2:]
assert len(md) == 4 and all(l.startswith("| ") and l.endswith(" |") for l in md), md
assert md[1].replace("|", "").replace("-", "").replace(":", "").strip() == "", md[1]
cells = [c.strip() for c in md[2].strip("|").split("|")]
assert cells == ["protobuf-3", "0.8917", "0.04167", "0.09583", "0"], cells
PY
run bd query placement-rule --param plan=calibration-sim --no-record --format json --envelope --gate
expect_rc 3 "--envelope --gate"
expect_eq "$(wc -c <"$T/err")" 0 "with --envelope, stderr stays empty"
python3 - "$T/out" <<'PY' || fail "the envelope holds rows, verdict, outcome, registration and notes"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["rows"]) == 2 and d["query"] == "placement-rule", d
assert d["verdict"].startswith("separate-host placement not adopted: protobuf-3 fails"), d["verdict"]
assert d["holds"] is False and d["exit"] == 3 and d["evaluation"] is None and d["registration"] == "unregistered", d
assert d["params"]["level"] == 0.95 and d["params"]["plan"] == "calibration-sim", d["params"]
assert d["notes"][0] == d["verdict"] and any("not registered" in n for n in d["notes"]), d["notes"]
PY

# --- A plan simulated with little noise between hosts adopts: exit 0.
bd simulate -q --plan quiet --seed 3 --cells 10 --blocks 5 --forks 1 --iterations 2 --warmups 0 \
    --spread 0.003 --wide 0 --drift 0.0005 --host-offset 0.001 quiet
bd ingest -q quiet
run bd query placement-rule --param plan=quiet --gate --format csv
expect_rc 0 "--gate on a plan that adopts"
python3 - "$T/out" <<'PY' || fail "exit 0 goes with adopt = 1 in every row"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 2 and all(r["adopt"] == "1" and r["pass"] == "1" for r in rows), rows
PY
expect_err_has "separate-host placement adopted: every group passes both conditions" "the verdict"
expect_err_has "gate: adopt holds in every row (exit 0)" "the gate says so"
# The same plan judged strictly fails the band condition: exit 3.
run bd query placement-rule --param plan=quiet --param band_lo=0.9999 --param band_hi=1.0001 --gate --no-record
expect_rc 3 "a stricter band"

# --- Empty results explain themselves: a rule on base/head data (no
# treatment/baseline pairs) says why, exits 4, records nothing.
printf 'goos: linux\nBenchmarkFoo-8   \t 1000000\t      1043 ns/op\nBenchmarkBar-8   \t 1000000\t      2043 ns/op\n' >base.txt
printf 'goos: linux\nBenchmarkFoo-8   \t 1000000\t      1001 ns/op\nBenchmarkBar-8   \t 1000000\t      2101 ns/op\n' >head.txt
bd ingest -q --format go-bench --plan pr-42 --run base --host ci --variant base base.txt
bd ingest -q --format go-bench --plan pr-42 --run head --host ci --variant head head.txt
before=$(evaluations)
for q in comparisons verdicts cell-spread placement-rule widest; do
    extra=""
    [ "$q" = widest ] && extra="--param kind=all"
    # shellcheck disable=SC2086
    run bd query $q --param plan=pr-42 $extra
    expect_rc 4 "$q on base/head data"
    expect_eq "$(wc -c <"$T/out")" 0 "$q prints no empty table"
    expect_err_has "plan pr-42 has no runs with a treatment and a baseline variant; $q " "$q says why"
done
run bd query placement-rule --param plan=pr-42
expect_eq "$(cat "$T/err")" \
    "plan pr-42 has no runs with a treatment and a baseline variant; placement-rule compares treatment over baseline within runs" \
    "the exact message"
expect_eq "$(evaluations)" "$before" "an unmet need records nothing"
run bd query placement-rule --param plan=pr-42 --format json --envelope
expect_rc 4 "unmet, in an envelope"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["rows"] == [] and d["exit"] == 4 and d["unmet"].startswith("plan pr-42 has no runs"), d' "$T/out" ||
    fail "the envelope says what is unmet"
run bd query aggregations --param plan=pr-42 --param benchmark=BenchmarkBaz
expect_rc 2 "aggregations of a benchmark the store lacks: a usage error"
expect_err_has "error: query aggregations: benchmark 'BenchmarkBaz' does not exist; did you mean 'BenchmarkBar'?" \
    "it names the nearest"
run bd query aggregations --param plan=pr-42 --param benchmark=serialize
expect_rc 4 "aggregations of a benchmark the plan lacks"
expect_err_has "plan pr-42 has no benchmark named 'serialize'" "its reason"
run bd query aggregations --param plan=pr-42 --param benchmark=BenchmarkFoo --no-record --format csv
expect_rc 0 "aggregations of one the plan has"
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 2 "base and head"
# One run per group on one host: nothing to compare.
bd simulate -q --plan lonely --groups 1 --hosts 1 --positions 1 --cells 2 --blocks 2 --forks 1 --iterations 1 lonely
bd ingest -q lonely
run bd query placement-rule --param plan=lonely
expect_rc 4 "a plan with nothing to compare"
expect_err_has "plan lonely has no two runs of one profile to compare (one host at two positions, or one position on two hosts); placement-rule judges such comparisons" \
    "it says so"

# --- --gate by the outcome column: 0 in every row, 3 not, 4 no rows.
mkdir mine
cat >mine/ok.sql <<'SQL'
-- name: ok
-- param: n = 2  how many rows
-- param: fail = 0  the row that fails (0: none)
-- type: n = integer
-- type: fail = integer
-- outcome: ok
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < :n)
SELECT i, CASE WHEN i = :fail THEN 0 ELSE 1 END AS ok FROM k WHERE :n > 0;
SQL
for case in "2 0 0 ok holds in every row" "3 2 3 ok does not hold in every row" "0 0 4 ok has no rows to hold in"; do
    set -- $case
    run bd query ok --queries mine --param n=$1 --param fail=$2 --gate --no-record
    expect_rc $3 "gate with n=$1 fail=$2"
    shift 3
    expect_err_has "gate: $* (exit" "gate note for exit $3"
done
run bd query ok --queries mine --param n=3 --param fail=2 --no-record
expect_rc 0 "without --gate the outcome does not set the exit status"
expect_err_has "result: ok holds in 2 of 3 rows" "the outcome line without a verdict column"
# A gate with -- headline lines says its answer in words first (as its
# page opens), then the outcome line; Markdown leads with it in bold.
cat >mine/hl.sql <<'SQL'
-- name: hl
-- param: fail = 0  the row that fails (0: none)
-- type: fail = integer
-- outcome: ok
-- headline[ok=0]: the gate fails: {count(ok=0)} of {count():row/rows} fail, the first at i = {i}
-- headline: the gate passes: {count():row/rows}, none fails
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 3)
SELECT i, CASE WHEN i = :fail THEN 0 ELSE 1 END AS ok FROM k;
SQL
bd query hl --queries mine --param fail=2 --gate --no-record >"$T/merged" 2>&1
expect_eq "$(sed -n 1,2p "$T/merged")" "the gate fails: 1 of 3 rows fail, the first at i = 2
result: ok holds in 2 of 3 rows" "a gate's headline, then its outcome line, before the rows"
expect_eq "$(sed -n 3p "$T/merged" | tr -s ' ')" "i ok" "the rows follow"
run bd query hl --queries mine --no-record
expect_eq "$(head -n 1 "$T/err")" "the gate passes: 3 rows, none fails" "the passing headline"
run bd query hl --queries mine --param fail=1 --gate --no-record --format markdown
expect_rc 3 "a headline does not change the gate"
expect_eq "$(head -n 1 "$T/out")" "**the gate fails: 1 of 3 rows fail, the first at i = 1** — gate: fails (exit 3)" \
    "Markdown: the headline, bold"
run bd query hl --queries mine --param fail=1 --no-record --format json --envelope
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["headline"])' "$T/out")" \
    "the gate fails: 1 of 3 rows fail, the first at i = 1" "the envelope carries it"
run bd query ok --queries mine --param n=3 --param fail=2 --no-record --format json --envelope
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["headline"])' "$T/out")" "None" \
    "no headline line: null"
run bd query aggregations --param plan=git-perf-p0001 --gate
expect_rc 2 "--gate without an outcome column"
expect_err_has "error: query aggregations: --gate: the query has no '-- outcome: COLUMN' header line (see 'benchdb queries aggregations')" "its message"
printf -- '-- name: text\n-- outcome: v\nSELECT %s AS v;\n' "'yes'" >mine/text.sql
run bd query text --queries mine --gate --no-record
expect_rc 1 "a text outcome cannot gate"
expect_err_has "error: query text: --gate: the outcome column v holds text; it must hold 1 (holds) or 0 (does not), or NULL" "its message"

# --- history --diff with a key column named like the diff's own column.
cat >mine/keyed.sql <<'SQL'
-- name: keyed
-- param: x = 1  a value
-- type: x = integer
-- key: column
SELECT 'c' AS column, :x AS value;
SQL
bd query keyed --queries mine --record >/dev/null 2>&1
bd query keyed --queries mine --param x=2 --record >/dev/null 2>&1
ids=$(bd history keyed --format csv | tail -n 2 | cut -d, -f1 | tr '\r\n' '  ')
# shellcheck disable=SC2086
set -- $ids
run bd history --diff "$1" "$2" --format csv
expect_rc 0 "diff of a query keyed by 'column'"
expect_out "$(printf '%s\r\n%s\r' "column,changed_column,$1,$2" 'c,value,1,2')" "the changed row, under a renamed column"
expect_err_has "rows:       1 of 1 differ" "the summary"

# --- The shipped gates count the runs they could not judge apart: a run
# with no limits (too few runs before it, or no spread) passes without
# having been compared with anything, and the headline said "all within"
# of it. One night per host: nothing judged. A second plan's ten nights on
# the same host and first cell: that history's latest run judged, the
# other cell's run not, and said to be older than the host's latest run (a
# benchmark no longer run is judged on its last run, night after night).
export BENCHDB="$PWD/gates.db"
bd init >/dev/null
bd simulate -q --history 1 --hosts 1 --cells 2 --seed 2 --plan first g1 || fail "simulate one night"
bd ingest -q g1 || fail "ingest one night"
for g in "gate-zscore:a distribution of 8 runs and a spread" "gate-ttest:2 runs before it and a spread" \
    "gate-percent:1 run before it"; do
    run bd query "${g%%:*}" --gate --no-record
    expect_rc 0 "${g%%:*} on one night: passes (exit 0)"
    expect_eq "$(head -n 1 "$T/err")" \
        "the gate passes without judging a run: 2 runs in 2 histories, none with ${g#*:} to judge it against" \
        "${g%%:*} on one night: says nothing was judged"
done
bd simulate -q --history 10 --hosts 1 --cells 1 --seed 2 --plan ten g10 || fail "simulate ten nights"
bd ingest -q g10 || fail "ingest ten nights"
run bd query gate-zscore --gate --no-record
expect_rc 0 "gate-zscore: one run judged, one not"
expect_eq "$(head -n 1 "$T/err")" "the gate passes: 1 run judged in 1 history, all within |z| <= 5; 1 run not judged (a distribution of under 8 runs, or no spread); 1 run from before the host's latest run, which lacks the cell (no longer measured?)" \
    "gate-zscore: the judged and the unjudged run apart; the large cell's only run is night 1's, not the host's latest"
run bd query gate-percent --param percent=0 --gate --no-record
expect_rc 3 "gate-percent at 0%: the judged run fails"
expect_err_has "the gate fails: 1 of 1 run judged regressed, in 1 history; " "gate-percent: of the judged runs"
expect_err_has "; 1 run not judged (under 1 run before it)" "gate-percent: and the unjudged one"
expect_err_has "; 1 run from before the host's latest run, which lacks the cell (no longer measured?)" \
    "gate-percent: the run of a cell the host's latest run lacks"
run bd query gate-percent --param scope=latest --format csv --no-record
expect_eq "$(python3 -c 'import csv, json, sys
print(sorted((json.loads(r["params"])["workload"], r["run"], r["stale"]) for r in csv.DictReader(open(sys.argv[1]))))' "$T/out")" \
    "[('large', 'ci-a-0001', '1'), ('small', 'ci-a-0010', '0')]" \
    "gate-percent: stale = 1 on the large cell's night-1 run, 0 on the host's latest"
run bd query gate-zscore --param scope=every --format csv --no-record
python3 - "$T/out" <<'PY' || fail "gate-zscore: limits only where an alert can fire"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 12, len(rows)
for r in rows:
    judged = int(r["baseline_n"] or 0) >= 8 and r["z"] != ""
    assert (r["lower"] != "" and r["upper"] != "") == judged, r
assert sum(r["lower"] != "" for r in rows) == 3, rows  # baseline_n 8, 9, 10
PY
unset BENCHDB

# --- A decision's rows as a person reads them: those its outcome fails in
# first (a gate's regressed runs), as its page lists them, then the rest in
# the query's order; CSV keeps the query's order (they were in host order
# on a terminal too, the regressed run anywhere among the passing ones).
bd --db hp.db init >/dev/null && bd --db hp.db ingest -q "$BENCHDB_SRC/examples/calibration" || fail "the gate's store"
run bd --db hp.db query gate-percent --param percent=0 --no-record --format csv
cp "$T/out" gate.csv
run bd --db hp.db query gate-percent --param percent=0 --no-record --format markdown
python3 - gate.csv "$T/out" <<'PY' || fail "gate-percent: the regressed runs first on a terminal, CSV in the query's order"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
md = [l for l in open(sys.argv[2]) if l.startswith("| ")]
head = [c.strip() for c in md[0].strip().strip("|").split("|")]
shown = [dict(zip(head, (c.strip() for c in l.strip().strip("|").split("|")))) for l in md[2:]]  # past the rule
fails = [r for r in rows if r["pass"] == "0"]
assert 0 < len(fails) < len(rows), (len(fails), len(rows))
assert [r["pass"] for r in shown] == ["0"] * len(fails) + ["1"] * (len(rows) - len(fails)), [r["pass"] for r in shown]
order = lambda rs: [(r["host"], r["run"], r["benchmark"]) for r in rs]
assert order(shown[:len(fails)]) == order(fails), "the failing rows in the query's order"
assert order(shown[len(fails):]) == order([r for r in rows if r["pass"] != "0"]), "then the rest"
assert order(rows) != order(shown), "CSV keeps the query's order"
PY

# --- history's list opens with what it holds, in words (it was a bare
# table): on stderr in a terminal, bold in Markdown, nothing in CSV.
bd --db hh.db init >/dev/null && bd --db hh.db ingest -q "$BENCHDB_SRC/examples/" || fail "the history's store"
hsql() { bd --db hh.db sql "$1" --format csv | tail -n 1 | tr -d '\r'; }
bd --db hh.db query placement-rule --param plan=calibration-sim >/dev/null 2>&1
bd --db hh.db query gate-percent >/dev/null 2>&1
bd --db hh.db query regressions --record >/dev/null 2>&1
expect_eq "$(hsql "SELECT group_concat(query_name, ' ') FROM (SELECT query_name FROM evaluation ORDER BY id)")" \
    "placement-rule gate-percent regressions" "three evaluations recorded"
# What fails, counted from each record's rows (0 in its outcome column).
failing() { hsql "SELECT count(*) FROM evaluation e, json_each(e.rows) j WHERE e.id = $1 AND json_extract(j.value, '\$.$2') = 0"; }
rows_of() { hsql "SELECT row_count FROM evaluation WHERE id = $1"; }
day=$(hsql "SELECT substr(min(evaluated_at), 1, 10) FROM evaluation")
f1=$(failing 1 adopt) n1=$(rows_of 1) f2=$(failing 2 pass)
j2=$(hsql "SELECT count(*) FROM evaluation e, json_each(e.rows) j WHERE e.id = 2 AND json_extract(j.value, '\$.lower') IS NOT NULL")
[ "$f1" -gt 0 ] && [ "$f2" -gt 0 ] || fail "both decisions fail on the examples: $f1 $f2"
run bd --db hh.db history
expect_rc 0 "history"
expect_eq "$(head -n 1 "$T/err")" "2 evaluations of 2 queries, on $day; the latest decision of each query: 2 of 2 fail (placement-rule (id 1) in $f1 of $n1 rows, gate-percent (id 2): $f2 of $j2 runs judged regressed); the latest: gate-percent (id 2): $(hsql "SELECT outcome FROM evaluation WHERE id = 2")" \
    "history's first line: the evaluations, what fails (a gate's runs judged, as its page counts them; rows where the headline has no count), the latest"
expect_eq "$(head -n 1 "$T/out" | cut -c1-4)" "id  " "the table follows on stdout"
run bd --db hh.db history --format markdown
case "$(head -n 1 "$T/out")" in "**2 evaluations of 2 queries, on $day; the latest decision of each query: 2 of 2 fail "*"**") ;;
*) fail "Markdown: the line in bold first: $(head -n 1 "$T/out")" ;; esac
expect_eq "$(sed -n 2p "$T/out")" "" "Markdown: a blank line after it"
run bd --db hh.db history --format csv
expect_eq "$(grep -c 'evaluations of' "$T/err")" 0 "CSV: no line in words"
expect_eq "$(head -n 1 "$T/out" | tr -d '\r')" "id,evaluated_at,query,sha256,params,outcome,registration" "CSV: the rows alone"
# A passing gate-percent is now its latest: only placement-rule fails.
bd --db hh.db query gate-percent --param percent=10000 >/dev/null 2>&1
expect_eq "$(failing 4 pass)" 0 "gate-percent at 10000% passes"
run bd --db hh.db history --all
expect_eq "$(head -n 1 "$T/err")" "4 evaluations of 3 queries, on $day; the latest decision of each query: 1 of 2 fails (placement-rule (id 1) in $f1 of $n1 rows); 1 of 1 changed from the query's decision before it: gate-percent (id 4) holds, after id 2 failed; the latest: gate-percent (id 4): $(hsql "SELECT outcome FROM evaluation WHERE id = 4")" \
    "history --all: the latest decision of each query, and which changed from its query's decision before it"
# Did it change? The morning's question, answered on the first line (it
# was the table's to read, row by row): one query's history, changed, then
# unchanged.
run bd --db hh.db history gate-percent
expect_eq "$(head -n 1 "$T/err")" "2 evaluations of 1 query, on $day; the latest decision holds: gate-percent (id 4): $(hsql "SELECT outcome FROM evaluation WHERE id = 4"); changed from the decision before it (id 2), which failed" \
    "history of one query: changed from the decision before it"
run bd --db hh.db history regressions
expect_eq "$(head -n 1 "$T/err")" "1 evaluation of 1 query, on $day; the latest: regressions (id 3): $(hsql "SELECT outcome FROM evaluation WHERE id = 3"), no regression: no change point with p ≤ 0.001" \
    "history NAME of a lookup: its outcome, then what the rows say (none: the terminal's line for an empty result)"
# One decision that is also the latest evaluation: named once, its outcome
# after its failing rows ("the latest: placement-rule (id 1)" said it again).
run bd --db hh.db history placement-rule
expect_eq "$(head -n 1 "$T/err")" "1 evaluation of 1 query, on $day; the latest decision fails: placement-rule (id 1) in $f1 of $n1 rows: $(hsql "SELECT outcome FROM evaluation WHERE id = 1")" \
    "history NAME of one failing decision: named once, with its outcome"
run bd --db hh.db history gate-percent -n 1
expect_eq "$(head -n 1 "$T/err")" "1 evaluation of 1 query (the last 1 of 2: 1 earlier not listed), on $day; the latest decision holds: gate-percent (id 4): $(hsql "SELECT outcome FROM evaluation WHERE id = 4")" \
    "history NAME of one holding decision: named once, with its outcome"
bd --db hh.db query gate-percent --param percent=20000 >/dev/null 2>&1
run bd --db hh.db history gate-percent
expect_eq "$(head -n 1 "$T/err" | sed 's/.*; //')" "unchanged from the decision before it" \
    "history of one query: unchanged from the decision before it"
run bd --db hh.db history
expect_eq "$(head -n 1 "$T/err" | cut -d';' -f3)" " none changed from the query's decision before it" \
    "history: none changed from the query's decision before it"
# A limit that leaves earlier decisions out says so: the line is of the
# listed ones alone (-n 1 said "the latest decision holds" of one query,
# placement-rule's failing decision, two earlier, left out without a word).
run bd --db hh.db history -n 1
expect_eq "$(head -n 1 "$T/err" | cut -d';' -f1)" "1 evaluation of 1 query (the last 1 of 4: 3 earlier not listed), on $day" \
    "history -n 1: how many earlier the limit left out"
run bd --db hh.db history -n 4
case "$(head -n 1 "$T/err")" in *"earlier not listed"*) fail "history -n 4 of 4: nothing left out, nothing said" ;; esac

finish
