# benchdb report on the command line: usage errors, the page's provenance,
# picture and verdict from the same rows, the companion evaluation (reused,
# run, or refused when the data changed), --format svg, the chart line's
# errors, atomic output, a decision's failing rows first.
# (tests/cli/report_browser.sh checks the pages in Chromium.)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

Q="$BENCHDB_SRC/tests/data/report"
db="$T/s.db"
b() { bd --db "$db" "$@"; }
b init >/dev/null
b ingest --quiet "$BENCHDB_SRC/examples"
b rule register placement-rule --published-at 2026-10-20T16:00:00Z --ref "pull request #111" >/dev/null
nevals() { b sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }

# ---- usage errors: exit 2, nothing recorded ----
run b report
expect_rc 2 "no query and no evaluation"
expect_err_has "missing --evaluation ID or the saved query's name" "names what is missing"
run b report placement-rule --evaluation 1
expect_rc 2 "both a query and an evaluation"
run b report --evaluation x
expect_rc 2 "a non-numeric evaluation id"
expect_err_has "--evaluation 'x': expected an integer >= 1" "says what an id is"
run b report placement-rule -p plan=calibration-sim --format pdf
expect_rc 2 "an unknown format"
expect_err_has "--format 'pdf': expected html or svg" "lists the formats"
run b report placement-rule -p nope=1
expect_rc 2 "an undeclared parameter"
expect_err_has "report placement-rule: no parameter named 'nope'" "names the parameter"
expect_eq "$(nevals)" 0 "usage errors record nothing"
run b report --evaluation 99
expect_rc 1 "an evaluation that does not exist"
expect_err_has "no evaluation 99 in the store" "says so"

# ---- the placement-rule page ----
run b report placement-rule -p plan=calibration-sim -o pr.html
expect_rc 0 "report placement-rule"
expect_err_has "report: wrote pr.html: evaluation 1 of placement-rule, forest chart of 720 marks from evaluation 2 of comparisons (recorded now)" "says what it wrote"
# What the page found first, as it opens (the line said only what was
# written): the page's <h1>, as text, then what was written.
python3 - pr.html "$T/err" <<'PY' || fail "report's first line: the page's headline"
import html, re, sys
h1 = re.search(r'<h1 class="headline[^"]*">(.*?)</h1>', open(sys.argv[1]).read()).group(1)
lines = open(sys.argv[2]).read().splitlines()
assert lines[0] == html.unescape(h1) and lines[1].startswith("report: wrote pr.html: "), (lines[:2], h1)
PY
expect_eq "$(nevals)" 2 "the rule and its companion are recorded"
sha=$(b sql "SELECT query_sha256 || ' ' || data_fingerprint FROM evaluation WHERE id = 1" --format csv | tail -n 1 | tr -d '\r')
for want in "placement-rule" "${sha% *}" "${sha#* }" "<strong>pre-registered</strong>" \
    "fixed at 2026-10-20T16:00:00Z (pull request #111); plan calibration-sim began 2026-10-21T03:57:49Z" \
    "benchdb query placement-rule --param plan=calibration-sim" "benchdb history --diff 1 NEW_ID" \
    "<code>margin</code></td><td>0.05</td><td>0.05</td>" "0.1.0 (evaluation)" \
    "parameters: <code>plan=calibration-sim</code> · evaluation 1</p>" \
    '<h1 class="headline">separate-host placement not adopted: protobuf-3 fails the band and interval conditions; protobuf-4 fails the band condition (0 of 2 groups pass)</h1>' \
    "<strong>Condition 1</strong>: at least this share of between-host estimates inside the band" \
    "separate-host placement not adopted: protobuf-3 fails the band and interval conditions; protobuf-4 fails the band condition"; do
    grep -qF -- "$want" pr.html || fail "the page carries '$want'"
done
# The verdict table has the table output's digits: 4 significant.
grep -qF '<td class="n">0.8917</td>' pr.html || fail "shares to 4 significant digits"
grep -qF '0.8916666' pr.html && fail "no share with all its digits"
# Self-contained: no script, no external reference, a policy that forbids fetching.
grep -qiE '<script|<link|<img|<iframe| src=| href=|@import|url\(' pr.html && fail "the page references nothing"
grep -qF "default-src 'none'" pr.html || fail "a content security policy that forbids fetching"
# One mark per comparison, and the picture agrees with the verdict: the
# counts the chart states per group and kind are the rule's.
expect_eq "$(grep -o 'class="mark"' pr.html | wc -l)" 720 "720 marks"
b sql "SELECT rows FROM evaluation WHERE id = 1" --format json >verdict.json
python3 - pr.html verdict.json <<'PY' || fail "the chart's counts are the verdict's"
import html, json, re, sys
page = html.unescape(open(sys.argv[1]).read())
rows = json.load(open(sys.argv[2]))[0]["rows"]
rows = json.loads(rows) if isinstance(rows, str) else rows
for r in rows:
    i = page.index(">%s \u2014 360 intervals<" % r["run_group"])
    for kind in ("within", "between"):
        m = re.search(r"kind = %s: (\d+) intervals \u00b7 (\d+) \([^)]*\) estimates in the band \[0\.95, 1\.05\] \u00b7 (\d+) \(" % kind, page[i:])
        got = tuple(int(x) for x in m.groups())
        want = (r[kind + "_n"], r[kind + "_in_band"], r[kind + "_excludes"])
        if got != want:
            sys.exit("%s %s: chart says %s, verdict %s" % (r["run_group"], kind, got, want))
PY

# From the record: the companion reused, nothing recorded.
run b report --evaluation 1 -o pr2.html
expect_rc 0 "report --evaluation 1"
expect_err_has "from evaluation 2 of comparisons" "reuses the recorded comparisons"
expect_eq "$(nevals)" 2 "nothing new recorded"
# Re-judged with other parameters: the companion follows them.
run b report placement-rule -p plan=calibration-sim -p direction=reverse -o rev.html
expect_rc 0 "reverse"
expect_err_has "from evaluation 4 of comparisons (recorded now)" "a companion with the same parameters"
expect_eq "$(b sql "SELECT params ->> '\$.direction' FROM evaluation WHERE id = 4" --format csv | tail -n 1 | tr -d '\r')" reverse "the companion ran reversed"
grep -qF "benchdb query placement-rule --param plan=calibration-sim --param direction=reverse" rev.html ||
    fail "the re-verifying command names the changed parameter"
grep -qF "<strong>retroactive</strong>" rev.html || fail "other parameters: retroactive"

# ---- --format svg: the chart alone ----
run b report --evaluation 1 --format svg -o pr.svg
expect_rc 0 "--format svg"
head -c 200 pr.svg | grep -qF '<?xml version="1.0" encoding="UTF-8"?>' || fail "an XML document"
grep -qF '<svg xmlns="http://www.w3.org/2000/svg"' pr.svg || fail "an SVG root"
expect_eq "$(grep -o 'class="mark"' pr.svg | wc -l)" 720 "the SVG has the 720 marks"
grep -qF "separate-host placement not adopted" pr.svg || fail "the SVG states the verdict"
python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" pr.svg || fail "the SVG is well-formed XML"
run b report versions-test --queries "$Q" -p plan=calibration-sim --format svg
expect_rc 1 "--format svg of a table view"
expect_err_has "query versions-test has no chart" "says why"

# ---- the table view ----
run b report versions-test --queries "$Q" -p plan=calibration-sim
expect_rc 0 "a query without a chart line, to standard output"
expect_out_has "<td class=\"s\">p3-vm-a-1</td>" "its table"
[ "$(grep -c '<tr><td' "$T/out")" -ge 12 ] || fail "a row per run"

# ---- the chart line's errors: file and line, before anything is recorded ----
mkdir bad
before=$(nevals)
for case in "forest label=benchmark|a forest chart needs estimate=COLUMN" \
    "pie label=x|expected a kind (forest, series, strip, bar or table), got 'pie'" \
    "bar label=x value=y bogus=1|'bogus' is not an option of a bar chart" \
    "bar label=x value=y log=1|log: expected no value, got '1'" \
    "strip label=x value=y title=\"open|title: the quoted value has no closing" \
    "bar label=x value=y sort=sideways|sort: expected none or value, got 'sideways'" \
    "forest label=a estimate=e lo=l hi=h band=lo|band: expected two values LO,HI"; do
    line=${case%%|*}
    printf -- '-- name: bad\n-- param: plan  the plan\n-- chart: %s\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' "$line" >bad/bad.sql
    run b report bad --queries bad -p plan=p
    expect_rc 1 "bad chart line: $line"
    expect_err_has "bad/bad.sql:3: chart: ${case#*|}" "bad chart line: $line"
done
expect_eq "$(nevals)" "$before" "a bad chart line records nothing"
# A column the rows lack is found once the rows exist.
printf -- '-- name: nocol\n-- param: plan  the plan\n-- chart: bar label=x value=y\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >bad/nocol.sql
run b report nocol --queries bad -p plan=p
expect_rc 1 "a chart naming a missing column"
expect_err_has "chart: value=y: no such column (its columns: x)" "names the column and lists the columns"
printf -- '-- name: nopar\n-- param: plan  the plan\n-- chart: bar label=x value=x band=lo,1\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >bad/nopar.sql
run b report nopar --queries bad -p plan=p
expect_rc 1 "a band naming no parameter"
expect_err_has "chart: band: 'lo' is neither a number nor a numeric parameter of the evaluation" "says so"

# ---- output: whole or not at all ----
run b report --evaluation 1 -o missing-dir/x.html
expect_rc 1 "an output file that cannot be written"
expect_err_has "report: cannot write missing-dir/x.html" "names it"
[ -e missing-dir ] && fail "nothing left behind"

# ---- a decision's table: the rows its outcome does not hold in first ----
# gate-percent over the example data fails in 16 of its 483 rows, which
# come as recorded among the passing ones; the verdict table (and its
# every-column copy) lists the 16 first, then the rest.
run b report gate-percent -o gate.html
expect_rc 0 "report gate-percent"
python3 - gate.html <<'PY' || fail "gate-percent's verdict table: the 16 failing rows first"
import re, sys
html = open(sys.argv[1]).read()
for cls in ("answer", "all"):
    t = re.search(r'<table class="%s">(.*?)</table>' % cls, html, re.S).group(1)
    head = [h.replace("<wbr>", "") for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", t)]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", t.split("<tbody>")[1], re.S)]
    got = [r[head.index("pass")] for r in rows]
    assert got == ["0"] * 16 + ["1"] * 467, (cls, len(got), "".join(got[:40]))
PY

# ---- the companion refused when the store no longer holds the data ----
b query placement-rule -p plan=calibration-sim -p level=0.9 >/dev/null
id=$(nevals)
bd simulate --quiet --plan other --groups 1 --hosts 1 --positions 1 --cells 2 other
b ingest --quiet other
run b report --evaluation "$id" -o stale.html
expect_rc 1 "the companion cannot be drawn from other data"
expect_err_has "the store now holds" "says the data changed"
[ -e stale.html ] && fail "no page for a stale companion"

# ---- every chart kind writes, on the example data ----
for q in compare-test variability-test trend-test; do
    run b report "$q" --queries "$Q" -p plan=calibration-sim -o "$q.html"
    expect_rc 0 "report $q"
done
expect_err_has "series chart of 480 marks" "trend: a mark per run and cell"
grep -qF 'class="chg"' trend-test.html || fail "trend: change points drawn"
# A query without a -- judges: line has no registration: said as not
# applicable, not "the query judges no plan" beside its plan=... parameter.
grep -qF '<dt>Registration</dt><dd>not applicable: a rule is registered for the plan its <code>-- judges:</code> line names, and this query has none</dd>' trend-test.html ||
    fail "trend: registration not applicable, in words"
grep -qF '>geometric mean</text>' compare-test.html || fail "compare: the geometric-mean row labelled"
grep -qF '<h3>Warnings</h3>' compare-test.html || fail "compare: its warnings listed"
grep -qF 'average of sim-p3-vm-a: ' variability-test.html || fail "variability: the host average"
run b report cell-spread -p plan=calibration-sim -o cs.html
expect_rc 0 "report cell-spread"
grep -qF 'group_median_spread = 1.03' cs.html || fail "cell-spread: the group median line"
# compare's headline counts the cells only one side has, as `compare` does
# ("1 added"): they were in "of 4 cells" without a word.
printf 'BenchmarkKept 1 %s ns/op\n' 10 11 10 12 10 >only-a.txt
{ printf 'BenchmarkKept 1 %s ns/op\n' 10 11 10 12 10; printf 'BenchmarkNew 1 %s ns/op\n' 5 6 5 6 5; } >only-b.txt
b ingest -q --format go-bench --plan sides --run a --host h only-a.txt &&
    b ingest -q --format go-bench --plan sides --run b --host h only-b.txt || fail "two runs, one cell more in b"
run b report compare -p plan=sides -p a=a -p b=b -o sides.html
expect_rc 0 "report compare with a cell only in b"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' sides.html)" \
    "no benchmark slower or worse: 0 of 2 benchmarks faster or better, 1 without a significant change (~), 1 benchmark only in b" \
    "compare's headline: the cell only in b"
# A ~ that too few samples give (3 + 3 values: no outcome of the U test
# reaches p <= 0.05) is counted as `compare` counts it ("4 inconclusive"),
# not hidden among the cells neither slower nor faster.
{ printf 'BenchmarkSlow 1 %s ns/op\n' 10 11 10 12 10 11 10 12
  for c in A B C D; do printf "Benchmark$c 1 %s ns/op\n" 10 11 12; done; } >few-a.txt
{ printf 'BenchmarkSlow 1 %s ns/op\n' 20 21 20 22 20 21 20 22
  for c in A B C D; do printf "Benchmark$c 1 %s ns/op\n" 13 14 15; done; } >few-b.txt
b ingest -q --format go-bench --plan few --run a --host h few-a.txt &&
    b ingest -q --format go-bench --plan few --run b --host h few-b.txt || fail "a plan of few samples"
run b compare --plan few a b --no-record
inc=$(sed -n 's/^compare: regressed (1 slower, 0 faster, \([0-9]*\) inconclusive, 0 unchanged)$/\1/p' "$T/err")
expect_eq "$inc" 4 "compare counts the four cells of 3 + 3 values inconclusive"
run b report compare -p plan=few -p a=a -p b=b -o few.html
expect_rc 0 "report compare of few samples"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' few.html | sed 's/, the largest.*//; s/; the largest.*//')" \
    "the gate fails: 1 of 5 benchmarks slower or worse, 0 faster or better, $inc benchmarks inconclusive (too few samples for p ≤ 0.05)" \
    "compare's headline: the inconclusive cells counted"
# Several metrics: the page counts benchmarks as `compare` does, each by its
# most telling metric (a benchmark faster in time but worse in memory is
# worse, not faster too), so the page and the terminal say the same
# numbers (the page said "2 of 9 cells slower or worse, 2 faster or better").
{ for v in 10 11 10 12 10; do for c in Mix Fast Same; do echo "Benchmark$c 1 $v ns/op 16 B/op 1 allocs/op"; done; done; } >mix-a.txt
{ for v in 5 6 5 6 5; do echo "BenchmarkMix 1 $v ns/op 32 B/op 2 allocs/op"; echo "BenchmarkFast 1 $v ns/op 16 B/op 1 allocs/op"; done
  for v in 10 11 10 12 10; do echo "BenchmarkSame 1 $v ns/op 16 B/op 1 allocs/op"; done; } >mix-b.txt
b ingest -q --format go-bench --plan mix --run a --host h mix-a.txt &&
    b ingest -q --format go-bench --plan mix --run b --host h mix-b.txt || fail "a plan of three metrics"
run b compare --plan mix a b --no-record
expect_err_has "compare: regressed (0 slower, 1 worse, 1 faster, 1 unchanged)" "compare counts the benchmarks"
run b report compare -p plan=mix -p a=a -p b=b -o mix.html
expect_rc 0 "report compare of three metrics"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' mix.html | sed 's/; the largest.*//')" \
    "the gate fails: 1 of 3 benchmarks slower or worse, 1 faster or better" \
    "compare's headline: benchmarks counted as compare counts them, over three metrics"
run b query compare -p plan=few -p a=a -p b=b --no-record --format csv
expect_eq "$(python3 -c 'import csv,sys; print(sum(r["inconclusive"] == "1" for r in csv.DictReader(open(sys.argv[1]))))' "$T/out")" \
    "$inc" "compare's rows: inconclusive marks the same cells"
# With a threshold, a benchmark slower by less than it does not fail the
# gate, and the page says so, as the terminal does ("no regression by more
# than 25% (1 slower, ...)"); it said "no benchmark slower or worse: 0 of 3
# benchmarks faster or better" of a benchmark 100% slower. The variant of
# runs without variants (default) is not named.
run b compare --plan few a b --threshold 150 --no-record
expect_err_has "compare: no regression by more than 150% (0 slower, 1 slower by less, 0 faster, $inc inconclusive, 0 unchanged)" \
    "compare with a threshold: one slower by less"
run b report compare -p plan=few -p a=a -p b=b -p threshold=150 -o few-th.html
expect_rc 0 "report compare with a threshold"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' few-th.html)" \
    "no benchmark slower or worse by more than 150%: 1 of 5 benchmarks slower or worse by less, 0 faster or better, 0 without a significant change (~), $inc benchmarks inconclusive (too few samples for p ≤ 0.05); the largest, BenchmarkSlow, +95.2% (slower)" \
    "compare's headline with a threshold: the slower benchmark counted"
# A registered rule judging a plan without start times (go-bench's lines
# carry none): the page says so once, as the terminal does ("plan few
# began at no recorded time: the plan records no start time" said it twice).
b rule register compare --ref "PR #7" >/dev/null || fail "register compare"
run b report compare -p plan=few -p a=a -p b=b -o few-reg.html
expect_rc 0 "report compare, registered"
grep -q "<strong>registered</strong>: the rule was fixed at [0-9TZ:-]* (PR #7); plan few records no start time, so whether the rule came first is unknown</dd>" few-reg.html ||
    fail "registered, no start time: said once: $(grep -o '<strong>registered</strong>[^<]*' few-reg.html)"
# Two runs without a cell in common: the page says nothing was compared,
# not '0 of 2 cells faster or better' over cells only one side has.
printf 'BenchmarkOther 1 %s ns/op\n' 10 11 10 12 10 >other.txt
b ingest -q --format go-bench --plan apart --run a --host h only-a.txt &&
    b ingest -q --format go-bench --plan apart --run b --host h other.txt || fail "two runs, no cell in common"
run b report compare -p plan=apart -p a=a -p b=b -o apart.html
expect_rc 0 "report compare, nothing compared"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' apart.html)" \
    "no cell compared: a and b share no cell in plan apart" "compare's headline: nothing compared"
# A store without values yet (a new CI set-up): the pages of regressions
# and the gates say there is nothing, as their empty results do (the
# companion's metric=primary, its default, was looked up and refused:
# "chart from=trend: metric 'primary' does not exist").
bd init --db new.db >/dev/null
for q in regressions gate-zscore trend; do
    run bd --db new.db report $q -o new-$q.html
    expect_rc 0 "report $q on a store without values"
done
expect_eq "$(sed -n 's/.*<h1 class="headline empty">\(.*\)<\/h1>.*/\1/p' new-regressions.html)" "no history to look at" \
    "regressions on a store without values: says so"
bd init --db new2.db >/dev/null
run bd --db new2.db site new-site
expect_err_has "site: wrote new-site: 1 page (0 histories, 0 evaluations, the index)" "site: one page, said so"
finish
