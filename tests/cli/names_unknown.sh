# Nothing fails silently (docs/queries.md, "Typed parameters"): a value
# given for a metric, benchmark, a cell's params, host, run, plan, source or variant that
# the store does not hold is a usage error (exit 2) naming the nearest
# values that exist, for every parameter type and every option that names
# one; nothing is printed on stdout or recorded. A saved query that
# returns no rows says why when its parameters say.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd init >/dev/null
bd ingest -q "$BENCHDB_SRC/examples/calibration" "$BENCHDB_SRC/examples/git-perf"
G=$BENCHDB_SRC/examples/go-bench
bd ingest -q --format go-bench --plan crc32 --run base --host laptop --source abc1234 "$G/crc-old.txt"
bd ingest -q --format go-bench --plan crc32 --run head --host laptop --source def5678 "$G/crc-new.txt"
# refused WHAT TEXT CMD...: exit 2, TEXT in the message, nothing else.
refused() {
    what=$1 text=$2
    shift 2
    before=$(evaluations)
    run "$@"
    expect_rc 2 "$what"
    expect_err_has "$text" "$what: the message names the nearest"
    expect_eq "$(wc -c <"$T/out")" 0 "$what: nothing on stdout"
    expect_eq "$(evaluations)" "$before" "$what: nothing recorded"
}

# ---- every parameter type: a query naming one of each ----
mkdir q
cat >q/names.sql <<'SQL'
-- name: names
-- param: plan = null  a plan
-- param: run = null  a run
-- param: host = null  a host
-- param: attr = null  an attribute
-- param: metric = null  a metric
-- param: benchmark = null  a benchmark
-- param: source = null  a source
-- param: variant = null  a variant
-- type: plan = text naming a plan
-- type: run = text naming a run
-- type: host = text naming a host
-- type: attr = text naming an attribute
-- type: metric = text naming a metric
-- type: benchmark = text naming a benchmark
-- type: source = text naming a source
-- type: variant = text naming a variant
SELECT count(*) AS series FROM series se JOIN run r ON r.id = se.run_id JOIN plan p ON p.id = r.plan_id
JOIN host h ON h.id = r.host_id JOIN benchmark b ON b.id = se.benchmark_id JOIN variant v ON v.id = se.variant_id
WHERE (:plan IS NULL OR p.name = :plan) AND (:run IS NULL OR r.name = :run) AND (:host IS NULL OR h.name = :host)
  AND (:metric IS NULL OR se.metric = :metric) AND (:benchmark IS NULL OR b.name = :benchmark)
  AND (:source IS NULL OR r.source = :source) AND (:variant IS NULL OR v.name = :variant)
HAVING count(*) > 0;
SQL
see="(see 'benchdb queries names')"
refused "a plan" "error: query names: plan 'crc23' does not exist; did you mean 'crc32'? (plans: calibration-sim, crc32, git-perf-p0001) $see" \
    bd query names --queries q --param plan=crc23
refused "a run" "error: query names: run 'hed' is not a run of plan crc32; did you mean 'head'? (runs: base, head)" \
    bd query names --queries q --param plan=crc32 --param run=hed
refused "a host" "error: query names: host 'laptp' ran no run of plan crc32; did you mean 'laptop'? (hosts: laptop)" \
    bd query names --queries q --param plan=crc32 --param host=laptp
refused "an attribute" "error: query names: attr 'gooss' is not an attribute of any run of plan crc32; did you mean 'goos'?" \
    bd query names --queries q --param plan=crc32 --param attr=gooss
refused "a metric" "error: query names: metric 'MB/sec' has no values in plan crc32; did you mean 'MB/s'? (metrics: MB/s, primary; or a unit of one: B/s, MB/s, ns/op, sec/op)" \
    bd query names --queries q --param plan=crc32 --param metric=MB/sec
refused "a benchmark" "error: query names: benchmark 'BenchmarkCRC32/poly=IEEE/size=16/align=0' does not exist; did you mean 'BenchmarkCRC32/poly=IEEE/size=15/align=0'?" \
    bd query names --queries q --param benchmark=BenchmarkCRC32/poly=IEEE/size=16/align=0
refused "a benchmark nothing is near" "error: query names: benchmark 'BM_Sort' does not exist; the nearest of " \
    bd query names --queries q --param benchmark=BM_Sort
refused "a source" "error: query names: source 'abc1235' is the source of no run of plan crc32; did you mean 'abc1234'? (sources: abc1234, def5678)" \
    bd query names --queries q --param plan=crc32 --param source=abc1235
refused "a variant" "error: query names: variant 'chil' does not exist; did you mean 'chill'?" \
    bd query names --queries q --param variant=chil
# What does exist runs; * stands for every metric.
run bd query names --queries q --param plan=crc32 --param run=head --param host=laptop --param attr=goos \
    --param metric=MB/s --param source=def5678 --param variant=default --format csv
expect_rc 0 "names that exist"
run bd query names --queries q --param metric='*' --format csv
expect_rc 0 "metric=* is every metric"

# The shipped queries declare theirs.
refused "trend's benchmark" "error: query trend: benchmark 'BM_Sort' does not exist" bd query trend --param benchmark=BM_Sort
refused "trend's metric" "error: query trend: metric 'cpu' does not exist; metrics: MB/s, primary" \
    bd query trend --param metric=cpu
refused "trend's variant" "error: query trend: variant 'nativ' does not exist; did you mean 'native'?" \
    bd query trend --param variant=nativ
# A cell's parameters (trend's params): a value no benchmark has, or the
# same object written otherwise, was an empty success (result: 0 rows).
refused "trend's params" "error: query trend: params '{\"workload\":\"smal\"}' are the parameters of no benchmark; params: {\"format\":\"binary\",\"workload\":\"collections\"}, " \
    bd query trend --param 'params={"workload":"smal"}'
refused "trend's params, written otherwise" \
    "error: query trend: params '{\"workload\": \"small\", \"format\": \"binary\"}': the store writes these parameters '{\"format\":\"binary\",\"workload\":\"small\"}' (keys sorted, no spaces); give them so" \
    bd query trend --param 'params={"workload": "small", "format": "binary"}'
refused "aggregations' benchmark" "error: query aggregations: benchmark 'serialise' does not exist; did you mean 'serialize'?" \
    bd query aggregations --param plan=calibration-sim --param benchmark=serialise
refused "regressions' host" "error: query regressions: host 'sim-p3-vm-z' does not exist; did you mean 'sim-p3-vm-a'?" \
    bd query regressions --param host=sim-p3-vm-z
refused "gate-zscore's metric" "error: query gate-zscore: metric 'MB' does not exist" \
    bd query gate-zscore --param metric=MB
# Sides (text naming a side, text naming sides): what the query's by says.
refused "compare's side, a run" "error: query compare: b: run 'hed' is not a run of plan crc32; did you mean 'head'? (runs: base, head)" \
    bd query compare --param plan=crc32 --param a=base --param b=hed
refused "compare's side, a source" "error: query compare: a: source 'abc1235' is the source of no run of plan crc32; did you mean 'abc1234'?" \
    bd query compare --param plan=crc32 --param by=source --param a=abc1235 --param b=def5678
refused "compare's side, a variant" "error: query compare: b: variant 'chil' does not exist; did you mean 'chill'?" \
    bd query compare --param plan=calibration-sim --param by=variant --param a=native --param b=chil
refused "compare's side, an attribute value" \
    "error: query compare: b: 'hw acceleration enabeld' is not a value of attribute note of any run of plan crc32; did you mean 'hw acceleration enabled'? (values: hw acceleration disabled, hw acceleration enabled)" \
    bd query compare --param plan=crc32 --param by=attr --param key=note --param a='hw acceleration disabled' --param b='hw acceleration enabeld'
refused "versions' list of sides" "error: query versions: versions: source 'def5679' is the source of no run of plan crc32; did you mean 'def5678'?" \
    bd query versions --param plan=crc32 --param by=source --param versions=abc1234,def5679
# A list naming a side twice, or holding an empty name (a,,b; a trailing
# comma), showed it as one more version: the same twice (0%), or a version
# named '' without values. by=attr without key compared nothing: 0 rows.
refused "versions' list naming one twice" "error: query versions: versions: 'abc1234' is given twice in 'abc1234,def5678,abc1234'" \
    bd query versions --param plan=crc32 --param by=source --param versions=abc1234,def5678,abc1234
refused "versions' list with an empty name" "error: query versions: versions: 'abc1234,,def5678' holds an empty name" \
    bd query versions --param plan=crc32 --param by=source --param versions=abc1234,,def5678
refused "versions' list with a trailing comma" "error: query versions: versions: 'abc1234,' holds an empty name" \
    bd query versions --param plan=crc32 --param by=source --param versions=abc1234,
before=$(evaluations)
run bd query versions --param plan=crc32 --param by=attr --param versions=x
expect_rc 4 "versions by=attr without key"
expect_err_has "by = attr: which run attribute's values are the versions? Give it with --param key=NAME" "says what is missing"
expect_eq "$(evaluations)" "$before" "nothing recorded"
run bd query versions --param plan=crc32 --param by=source --param versions=abc1234,def5678 --format csv
expect_rc 0 "versions' sides that exist"
expect_eq "$(python3 -c 'import csv,sys; print(sorted({r["version"] for r in csv.DictReader(open(sys.argv[1]))}))' "$T/out")" \
    "['abc1234', 'def5678']" "both versions shown"
refused "report's parameters too" "error: report: benchmark 'BM_Sort' does not exist" \
    bd report trend --param benchmark=BM_Sort -o t.html
[ -e t.html ] && fail "report of an unknown name wrote a page"

# ---- options ----
refused "compare --plan" "error: compare: there is no plan 'crc3'; did you mean 'crc32'?" bd compare --plan crc3 base head
refused "compare: a run" "error: compare: plan 'crc32' has no run 'hed'; did you mean 'head'?" bd compare --plan crc32 base hed
refused "compare: a run, no plan given" "error: compare: no plan has run 'bsae'; did you mean 'base'?" bd compare bsae head
refused "compare --by source" "error: compare: plan 'crc32' has no source 'def5679'; did you mean 'def5678'?" \
    bd compare --plan crc32 --by source abc1234 def5679
refused "compare --by variant" "error: compare: no plan has variant 'chil'; did you mean 'chill'?" \
    bd compare --by variant chil native
refused "compare --by attr:KEY" "error: compare: plan 'crc32' has no attribute note = 'hw acceleration enabeld'; did you mean 'hw acceleration enabled'?" \
    bd compare --plan crc32 --by attr:note 'hw acceleration disabled' 'hw acceleration enabeld'
refused "compare --metric on a store" "error: compare: metric 'MB/sec' has no values in plan crc32; did you mean 'MB/s'?" \
    bd compare --plan crc32 base head --metric MB/sec
refused "compare --metric on files" "error: compare: --metric: no metric or unit named 'MB/sec'; did you mean 'MB/s'?" \
    bd compare "$G/crc-old.txt" "$G/crc-new.txt" --metric MB/sec
# A metric may be named by its unit, as stored (ns/op) or as the tables
# show it (sec/op, B/s): the same table as its metric's name gives, on a
# store and on files; a name that is neither lists both kinds.
bd compare --plan crc32 base head --metric primary --no-record >by-metric.txt 2>&1
bd compare --ignore note "$G/crc-old.txt" "$G/crc-new.txt" --metric primary >by-metric-files.txt 2>&1
for m in sec/op ns/op; do
    run bd compare --plan crc32 base head --metric $m --no-record
    expect_rc 0 "compare --metric $m on a store"
    expect_eq "$(cat "$T/err" "$T/out")" "$(cat by-metric.txt)" "compare --metric $m on a store: the metric primary's table"
    run bd compare --ignore note "$G/crc-old.txt" "$G/crc-new.txt" --metric $m
    expect_rc 0 "compare --metric $m on files"
    expect_eq "$(cat "$T/err" "$T/out")" "$(cat by-metric-files.txt)" "compare --metric $m on files: the metric primary's table"
done
run bd compare --plan crc32 base head --metric B/s --no-record
expect_out_has " B/s " "--metric B/s on a store: the MB/s table"
grep -q "sec/op" "$T/out" && fail "--metric B/s on a store: the table of that unit alone"
run bd compare --ignore note "$G/crc-old.txt" "$G/crc-new.txt" --metric B/s
expect_out_has " B/s " "--metric B/s on files: the MB/s table"
grep -q "sec/op" "$T/out" && fail "--metric B/s on files: the table of that unit alone"
checks=$((checks + 2))
run bd query gate-zscore --param plan=crc32 --param metric=sec/op --no-record --format csv
expect_rc 0 "a query's metric named by its unit as compare shows it"
refused "compare --metric, neither a metric nor a unit, on a store" \
    "error: compare: metric 'secs' has no values in plan crc32; metrics: MB/s, primary; or a unit of one: B/s, MB/s, ns/op, sec/op" \
    bd compare --plan crc32 base head --metric secs
refused "compare --metric, neither a metric nor a unit, on files" \
    "error: compare: --metric: no metric or unit named 'secs'; metrics and units: B/s, MB/s, ns/op, primary, sec/op" \
    bd compare --ignore note "$G/crc-old.txt" "$G/crc-new.txt" --metric secs
refused "list --plan" "error: list: --plan: plan 'crc3' does not exist; did you mean 'crc32'?" bd list runs --plan crc3
refused "delete --plan" "error: delete: plan 'crc3' does not exist; did you mean 'crc32'?" bd delete --plan crc3 --dry-run
refused "delete --run" "error: delete: run 'hed' is not a run of plan crc32; did you mean 'head'?" bd delete --run crc32/hed
refused "backtest --plan" "error: backtest gate-zscore: plan 'crc3' does not exist; did you mean 'crc32'?" \
    bd backtest gate-zscore --plan crc3
refused "backtest: the gate" "error: backtest: no saved query named 'gate-zscor'; did you mean 'gate-zscore'? (see 'benchdb queries')" \
    bd backtest gate-zscor
refused "backtest --reference" "error: backtest: no saved query named 'regresions'; did you mean 'regressions'?" \
    bd backtest gate-zscore --reference regresions
refused "backtest --host" "error: backtest gate-zscore: host 'laptp' does not exist; did you mean 'laptop'?" \
    bd backtest gate-zscore --host laptp

# ---- no rows: why, when the parameters say ----
run bd query trend --param plan=crc32 --param benchmark=serialize
expect_rc 0 "a query without rows"
expect_err_has "result: 0 rows: no measured value has plan 'crc32' and benchmark 'serialize' together" \
    "why: the names exist, not together"
run bd query trend --param benchmark=serialize --param 'params={"repo":"git/git"}'
expect_err_has "result: 0 rows: no measured value has benchmark 'serialize' and params '{\"repo\":\"git/git\"}' together" \
    "why: a benchmark and parameters that exist, not together"
run bd query names --queries q --param plan=crc32 --param host=laptop --param variant=chill
expect_err_has "result: 0 rows: no measured value has plan 'crc32', host 'laptop' and variant 'chill' together" \
    "why, with three names"
run bd query names --queries q --param plan=crc32 --param metric=MB/s --format json --envelope
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["rows"] == [] and d["empty_because"] is None, d' \
    "$T/out" 2>/dev/null || true
# Two runs without a cell in common: compare says nothing was compared.
bd ingest -q --format go-bench --plan other --run a --host h "$BENCHDB_SRC/tests/data/harness/go-bench/$(ls "$BENCHDB_SRC/tests/data/harness/go-bench" | head -n 1)"
printf 'BenchmarkNothingInCommon 1 5 ns/op\nBenchmarkNothingInCommon 1 6 ns/op\n' >b.txt
bd ingest -q --format go-bench --plan other --run b --host h b.txt
run bd compare --plan other a b --gate --no-record
expect_rc 4 "nothing compared: the gate exits 4"
expect_err_has "compare: nothing compared (0 slower, 0 faster, 3 removed, 1 added, 0 unchanged): no cell has values both in a and in another side" "the first line says nothing was compared, and why"
# The saved query itself: the same answer, and its gate agrees with compare's.
why="nothing compared (0 slower, 0 faster, 3 removed, 1 added, 0 unchanged): no cell has values both in a and in another side"
run bd query compare -p plan=other -p a=a -p b=b --gate --no-record
expect_rc 4 "query compare --gate, nothing compared: exit 4, as compare --gate"
expect_eq "$(head -n 1 "$T/err")" "$why" "query compare: the first line says nothing was compared, and why"
expect_err_has "gate: nothing compared (exit 4)" "the gate's line says why it exits 4"
run bd query compare -p plan=other -p a=a -p b=b --no-record --format json --envelope
expect_rc 0 "query compare without --gate, nothing compared"
python3 - "$T/out" "$why" <<'PY' || fail "query compare --envelope, nothing compared: verdict and unmet"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "nothing compared" and d["unmet"] == sys.argv[2] and d["holds"] is None, d
assert d["rows"] and not [r for r in d["rows"] if r["kind"] == "cell" and r["n_a"] and r["n_b"]], d["rows"]
PY
run bd query compare -p plan=other -p a=a -p b=b --gate --no-record --format markdown
expect_rc 4 "query compare --gate --format markdown, nothing compared"
expect_eq "$(head -n 1 "$T/out")" "**$why** — gate: nothing compared (exit 4)" "the comment's first line"
run bd compare --plan other a b --no-record --format json --envelope
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "nothing compared", d["verdict"]' \
    "$T/out" || fail "compare on a store, nothing compared: the verdict says so, as on files"

finish
