# benchdb report's pages for a real browser: every page kind, on the
# example data and on a generated plan of 200 cells (two profiles of 100),
# histories, back-tests and a site, each with the checks a page's text
# allows here, written with a manifest to $BENCHDB_BUILD/report-pages/ for
# cli/report_browser, which checks them in headless Chromium (ctest
# fixture report-pages: this test runs first). Every shipped query
# (queries/*.sql) has a page among them. In both passes, so that every page
# is also written by the sanitized benchdb; Chromium, which the sanitizers
# do not instrument, runs in the plain pass only.
# ctest: slow cost=30
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

Q="$BENCHDB_SRC/tests/data/report"
pages="$T/pages.json"
queried=""
echo "[" >"$pages"
sep=""

# page SET DB NAME REPORT-ARGS...: writes NAME.html and adds it to the manifest.
page() {
    set_=$1 db=$2 name=$3
    shift 3
    queried="$queried $1"
    out="$T/$set_-$name.html"
    if ! "$BENCHDB_BIN" --db "$db" report "$@" --queries "$Q" -o "$out" 2>"$T/err"; then
        fail "$set_-$name: benchdb report $*"
        sed 's/^/  /' "$T/err" >&2
        return
    fi
    # the page's own evaluation (its companion's, recorded after it, is in the chart)
    id=$(sed -n 's|.* · evaluation \([0-9]*\)</p>$|\1|p' "$out" | head -n 1)
    table=false
    grep -q 'class="chart"' "$out" || table=true
    printf '%s{"name": "%s", "file": "%s", "db": "%s", "evaluation": %s, "table": %s}\n' \
        "$sep" "$set_-$name" "$out" "$db" "$id" "$table" >>"$pages"
    sep=","
}

# svg SET DB NAME REPORT-ARGS...: the chart alone, also checked in the browser.
svg() {
    set_=$1 db=$2 name=$3
    shift 3
    out="$T/$set_-$name.svg"
    "$BENCHDB_BIN" --db "$db" report "$@" --queries "$Q" --format svg -o "$out" 2>"$T/err" ||
        { fail "$set_-$name: benchdb report --format svg $*"; sed 's/^/  /' "$T/err" >&2; return; }
    printf '%s{"name": "%s", "file": "%s", "db": "%s", "table": false}\n' "$sep" "$set_-$name" "$out" "$db" >>"$pages"
    sep=","
}

pages_of() {
    set_=$1 db=$2 plan=$3 git=$4 base=$5 head=$6
    page "$set_" "$db" placement-rule placement-rule --param "plan=$plan"
    svg "$set_" "$db" placement-rule-svg placement-rule --param "plan=$plan"
    page "$set_" "$db" comparisons comparisons --param "plan=$plan"
    page "$set_" "$db" widest widest --param "plan=$plan" --param kind=all
    page "$set_" "$db" verdicts verdicts --param "plan=$plan"
    page "$set_" "$db" cell-spread cell-spread --param "plan=$plan"
    page "$set_" "$db" aggregations aggregations --param "plan=$git"
    page "$set_" "$db" compare compare-test --param "plan=$plan" --param "base=$base" --param "head=$head"
    svg "$set_" "$db" compare-svg compare-test --param "plan=$plan" --param "base=$base" --param "head=$head"
    page "$set_" "$db" trend trend-test --param "plan=$plan"
    page "$set_" "$db" variability variability-test --param "plan=$plan"
    page "$set_" "$db" versions versions-test --param "plan=$plan"
    # the shipped queries' own views
    page "$set_" "$db" compare-shipped compare --param "plan=$plan" --param by=variant --param a=chill --param b=native --param sample=run
    page "$set_" "$db" variability-shipped variability --param "plan=$plan"
    page "$set_" "$db" versions-shipped versions --param "plan=$plan"
}

# The example data, the rule registered before the plan ran.
ex="$T/example.db"
bd --db "$ex" init >/dev/null && bd --db "$ex" ingest --quiet "$BENCHDB_SRC/examples" &&
    bd --db "$ex" rule register placement-rule --published-at 2026-10-20T16:00:00Z --ref "pull request #111" >/dev/null ||
    fail "example store"
pages_of example "$ex" calibration-sim git-perf-p0001 1 2
# gate-percent's twenty columns on the calibration plan (1,666 px): every
# column's table leads with the outcome, the page's and the chart's rows'.
page example "$ex" gate-percent gate-percent --param plan=calibration-sim
expect_eq "$(grep -o '<table class="[a-z]*"><thead><tr><th[^>]*>[a-z_]*' "$T/example-gate-percent.html" | sed 's/.*<tr>//')" \
    "<th>host
<th class=\"o\">pass
<th class=\"o\">pass" "gate-percent: the answer's table as the query shows it, every column's with pass first"

# A generated plan of 200 cells: 2 profiles x 100 cells, 3 hosts, 4 runs each;
# large-record cells 8% slower and small-record serialize 6% faster from the
# third run on (change points, slower and faster cells). Under the
# sanitizers 2 hosts: every page draws the same kinds of element (panels
# continued in parts, the compact layout of more than 100 rows, each
# mark's kind) with a third less to ingest and draw (docs/testing.md).
gen="$T/gen.db"
hosts=3
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && hosts=2
bd simulate --quiet --plan gen200 --groups 2 --cells 100 --hosts "$hosts" --positions 4 --blocks 5 --forks 1 \
    --iterations 3 --warmups 0 --effect 'large/*=1.08@*-[34]' --effect 'small/serialize=0.94@*-[34]' "$T/gen" &&
    bd --db "$gen" init >/dev/null && bd --db "$gen" ingest --quiet "$T/gen" || fail "generated store"
if [ "${BENCHDB_SANITIZED:-0}" = 1 ]; then
    # Under the sanitizers the pages this set's checks below read, each
    # drawn at this size (paging, the forest's and the series' marks of
    # slower and faster cells and of change points and alerts), and the
    # aggregations and verdicts pages, whose compact layout of more than
    # 100 rows and its bands only this size draws (a read past a block
    # there failed the sanitized run on them; docs/testing.md). The other
    # pages of pages_of are the example set's kinds again, on more rows of
    # the same layout, which the plain pass draws and cli/report_browser
    # checks in Chromium (docs/testing.md, "The larger cli and pg tests
    # trimmed under the sanitizers": tools/plain_only_cover.py's counts).
    page gen200 "$gen" comparisons comparisons --param plan=gen200
    page gen200 "$gen" compare compare-test --param plan=gen200 --param base=2 --param head=3
    page gen200 "$gen" trend trend-test --param plan=gen200
    page gen200 "$gen" aggregations aggregations --param plan=gen200
    page gen200 "$gen" verdicts verdicts --param plan=gen200
else
    pages_of gen200 "$gen" gen200 gen200 2 3
fi
# Paging: a group of more than 500 rows continues in further panels.
grep -q '(part 2 of ' "$T/gen200-comparisons.html" || fail "gen200: 3000 comparisons per group are paged"
# The generated effects show: slower and faster cells, change points, alerts.
grep -q '\] slower</text>' "$T/gen200-compare.html" || fail "gen200: compare marks slower cells"
grep -q '\] faster</text>' "$T/gen200-compare.html" || fail "gen200: compare marks faster cells"
grep -q 'class="chg"' "$T/gen200-trend.html" || fail "gen200: trend marks change points"
grep -q 'data-alert="1"' "$T/gen200-trend.html" || fail "gen200: trend marks gate alerts"

# A simulated nightly history with two injected steps: the shipped trend
# and regressions pages, the change points marked.
hist="$T/hist.db"
bd simulate --quiet --history 60 --hosts 2 --cells 2 --steps 2 --seed 4 --plan nightly "$T/hist" &&
    bd --db "$hist" init >/dev/null && bd --db "$hist" ingest --quiet "$T/hist" || fail "history store"
page history "$hist" regressions regressions --param plan=nightly
page history "$hist" trend trend --param plan=nightly --param benchmark=serialize
grep -q 'class="chg"' "$T/history-regressions.html" || fail "history: regressions marks change points"
grep -q 'class="chg"' "$T/history-trend.html" || fail "history: trend marks change points"
grep -q 'change point, labelled with its revision and change' "$T/history-regressions.html" ||
    fail "history: the change points' legend"
page history "$hist" injected-steps injected-steps --param plan=nightly
# An empty result: its headline says what was looked at, nothing else is drawn.
page history "$hist" regressions-empty regressions --param plan=nightly --param min_magnitude=5
grep -q '<h1 class="headline empty">no change point in 4 histories of up to 60 runs (plan nightly)</h1>' \
    "$T/history-regressions-empty.html" || fail "history: an empty result says what was looked at"
grep -qE 'class="chart"|<table class="answer"' "$T/history-regressions-empty.html" &&
    fail "history: an empty result draws nothing else"
# The gates: every run from the gate itself, its limits as a band, its alerts.
for g in gate-zscore gate-ttest gate-percent; do
    page history "$hist" "$g" "$g" --param plan=nightly
    grep -q 'class="band"' "$T/history-$g.html" || fail "history: $g draws its limits"
done
grep -q 'data-alert="regression"' "$T/history-gate-percent.html" || fail "history: gate-percent marks its alerts"
# The history failing the gate now comes first, before those that alerted
# only in the past (the first step's history alerts at its step too).
gid=$(sed -n 's|.* · evaluation \([0-9]*\)</p>$|\1|p' "$T/history-gate-percent.html" | head -n 1)
bd --db "$hist" sql "SELECT rows FROM evaluation WHERE id = $gid" -f json >"$T/gate.json" || fail "history: the gate's rows"
python3 - "$T/gate.json" "$T/history-gate-percent.html" <<'PY' || fail "history: the failing history's panel first"
import json, re, sys
rows = json.load(open(sys.argv[1]))[0]["rows"]
rows = json.loads(rows) if isinstance(rows, str) else rows
bad = [r for r in rows if r["pass"] == 0]
assert len(bad) == 1, rows
b = bad[0]
# the cell named as Go names it, its parameters after the benchmark
want = "%s · %s%s" % (b["host"], b["benchmark"], "".join("/%s=%s" % kv for kv in json.loads(b["params"]).items()))
titles = re.findall(r'<text[^>]*>([^<]* — \d+ points)</text>', open(sys.argv[2]).read())
assert len(titles) == 4 and titles[0].startswith(want), (want, titles)
PY
# A back-test's page: every judged run drawn from the gate, its alerts marked.
bd --db "$hist" backtest gate-percent --plan nightly >/dev/null 2>&1 || fail "history: back-test gate-percent"
bt=$(bd --db "$hist" sql "SELECT max(id) FROM evaluation WHERE query_name = 'backtest-gate-percent'" --format csv |
    tail -n 1 | tr -d '\r')
page history "$hist" backtest --evaluation "$bt"
grep -q 'data-alert="regression"' "$T/history-backtest.html" || fail "history: the back-test's alerts marked"

# A hidden nightly history with one injected step: the regressions page's
# first screen names the benchmark, host, run and percentage of the step
# (where it is, the test reads from the truth the simulator recorded).
hid="$T/hidden.db"
bd simulate --quiet --history 90 --hosts 3 --cells 6 --steps 1 --seed 21 --plan nightly "$T/hidden" &&
    bd --db "$hid" init >/dev/null && bd --db "$hid" ingest --quiet "$T/hidden" || fail "hidden store"
page hidden "$hid" regressions regressions --param plan=nightly --param min_magnitude=0.05
bd --db "$hid" query injected-steps --no-record -f csv >"$T/truth.csv" 2>/dev/null || fail "hidden: its truth"
bd --db "$hid" sql "SELECT rows FROM evaluation WHERE query_name = 'regressions'" -f json >"$T/found.json" ||
    fail "hidden: the regressions found"
python3 - "$T/truth.csv" "$T/found.json" "$T/hidden-regressions.html" <<'PY' || fail "hidden: the headline names the step"
import csv, json, re, sys
truth = list(csv.DictReader(open(sys.argv[1])))
assert len(truth) == 1, truth
t = truth[0]
rows = json.load(open(sys.argv[2]))[0]["rows"]
rows = json.loads(rows) if isinstance(rows, str) else rows
found = [r for r in rows if r["kind"] == "regression" and r["host"] == t["host"] and r["run"] == t["run"]]
assert found, ("the step is not among the regressions", rows)
pct = "%+.3g%%" % found[0]["change_percent"]
params = "".join("/%s=%s" % kv for kv in json.loads(t["params"]).items())
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', open(sys.argv[3]).read()).group(1)
for want in (t["benchmark"] + params, " on " + t["host"], "from run " + t["run"], pct):
    assert want in h1, (want, h1)
# The verdict's table gives the range to bisect, the last good revision
# beside the first bad one, and the change as the terminal's table shows
# it, signed with its % (it showed 8.337 and no last good revision).
page = open(sys.argv[3]).read()
answer = re.search(r'<table class="answer">.*?</table>', page, re.S).group(0)
row = [r for r in re.findall(r"<tr>.*?</tr>", answer, re.S) if '<td class="s">%s</td>' % t["run"] in r]
assert len(row) == 1, ("the step's row in the verdict's table", row)
f = found[0]
for want in ('<td class="s">%s</td><td class="s">%s</td>' % (f["last_good_run"], f["run"]),
             '<td class="s" title="%s">%s</td><td class="s" title="%s">%s</td>' % (
                 f["last_good_revision"], f["last_good_revision"][:12], f["revision"], f["revision"][:12]),
             '<td class="n">%+.4g%%</td>' % f["change_percent"]):
    assert want in row[0], (want, row[0])
print("hidden step:", h1)
PY
# compare's forest beside an extreme cell: a cell 85% faster and one 9.6%
# slower among unchanged ones. The axis is clipped at the -85% cell alone
# (one arrow at the edge, in the ns/op panel only); the slower cells stay
# on the axis, drawn in the slower verdict's colour and shape.
clip="$T/clip.db"
bd simulate --quiet --plan clip --groups 1 --cells 12 --hosts 1 --positions 2 --blocks 5 \
    --effect 'large/serialize=1.096@*-2' --effect 'small/deserialize=0.15@*-2' "$T/clip" &&
    bd --db "$clip" init >/dev/null && bd --db "$clip" ingest --quiet "$T/clip" || fail "clip store"
page clip "$clip" compare compare --param plan=clip --param a=p3-vm-a-1 --param b=p3-vm-a-2
grep -q 'change in %, Hodges-Lehmann interval, axis clipped' "$T/clip-compare.html" || fail "clip: the axis is clipped"
[ "$(grep -o '[0-9]* rows\? beyond the axis' "$T/clip-compare.html")" = "1 row beyond the axis" ] ||
    fail "clip: only the -85% cell lies beyond the axis"
python3 - "$T/clip-compare.html" <<'PY' || fail "clip: the slower cells on the axis, in the slower colour"
import re, sys
html = open(sys.argv[1]).read()
marks = re.findall(r'<g class="mark" [^>]*data-class="(\w+)" data-estimate="([^"]*)"[^>]*>.*?</title>(.*?)</g>', html, re.S)
def drawn(svg):
    # the interval's line (zero length: an arrow at the clipped edge) and the shape's apex direction
    line, path = re.search(r'<line x1="([^"]*)" x2="([^"]*)"', svg), re.search(r'<path d="([^"]*)"', svg)
    pts = [tuple(map(float, p)) for p in re.findall(r'([-0-9.]+) ([-0-9.]+)', path.group(1))] if path else [(0, 0)] * 3
    return (float(line.group(2)) - float(line.group(1)) if line else None), pts
slower = [(float(e), svg) for c, e, svg in marks if c == "slower"]
assert len(slower) == 3 and max(e for e, _ in slower) > 9, [e for e, _ in slower]
for e, svg in slower:
    length, pts = drawn(svg)
    assert length > 0 and 'fill="#D55E00"' in svg and pts[0][1] < pts[1][1], (e, svg)  # on the axis, vermilion, up
for c, e, svg in marks:
    length, pts = drawn(svg)
    if c == "faster" and float(e) > -50:
        assert length > 0 and 'fill="#0072B2"' in svg and pts[0][1] > pts[1][1], (e, svg)  # blue, down
    if float(e) < -50:
        assert length == 0, (e, svg)  # the -85% cell: an arrow at the edge
print("clip: slower cells at", sorted(e for e, _ in slower))
PY
# The back-test of a history with a step the gate catches (+15%) and one it
# misses (+1.5%, below gate-percent's 5%): hits, the miss, the reference
# points, each drawn its own way.
two="$T/two.db"
bd simulate --quiet --history 80 --hosts 1 --cells 2 --seed 5 --plan nightly --step 30:small/serialize/binary:+15 \
    --step 55:large/serialize/binary:+1.5 "$T/two" &&
    bd --db "$two" init >/dev/null && bd --db "$two" ingest --quiet "$T/two" || fail "two-step store"
bd --db "$two" backtest gate-percent --plan nightly >/dev/null 2>&1 || fail "two: back-test gate-percent"
bt=$(bd --db "$two" sql "SELECT max(id) FROM evaluation WHERE query_name = 'backtest-gate-percent'" --format csv |
    tail -n 1 | tr -d '\r')
page two "$two" backtest --evaluation "$bt"
sed -i '$ s/}$/, "ov": ["hit", "missed"]}/' "$pages"
grep -q 'class="refl"' "$T/two-backtest.html" || fail "two: the reference regressions drawn"

# A site of a store holding every kind of page: its index, each history,
# each evaluation (examples, the nightly history, their evaluations).
bd --db "$hist" ingest --quiet "$BENCHDB_SRC/examples" >/dev/null 2>&1 || fail "site: the examples"
bd --db "$hist" report placement-rule --param plan=calibration-sim -o "$T/pr.html" 2>/dev/null || fail "site: a page"
run bd --db "$hist" site "$T/site"
expect_rc 0 "benchdb site"
expect_err_has "0 unchanged, 0 removed" "site: every page written the first time"
run bd --db "$hist" site "$T/site"
expect_rc 0 "benchdb site again"
expect_err_has ": 0 written, " "site: a second run rewrites nothing"
printf '%s{"name": "site-index", "file": "%s", "db": "%s", "site": "%s", "index": true}\n' "$sep" \
    "$T/site/index.html" "$hist" "$T/site" >>"$pages"
k=0
first_e=$(ls "$T"/site/e/*.html | head -n 1)
# names by the shell's own expansions: a basename and a dirname per page
# were a thousand processes
for f in "$T"/site/h/*.html "$T"/site/e/*.html; do
    k=$((k + 1))
    shot=false
    [ $k -le 3 ] || [ "$f" = "$first_e" ] && shot=true
    name=${f%.html} dir=${f%/*}
    printf ',{"name": "site-%s-%s", "file": "%s", "db": "%s", "site": "%s", "shot": %s}\n' \
        "${dir##*/}" "${name##*/}" "$f" "$hist" "$T/site" "$shot" >>"$pages"
done
echo "]" >>"$pages"
# Every shipped query's page is among those checked.
for q in "$BENCHDB_SRC"/queries/*.sql; do
    case "$queried " in *" $(basename "$q" .sql) "*) ;; *) fail "queries/$(basename "$q"): no page of it is checked" ;; esac
done

# The pages, their stores and the manifest for cli/report_browser, at
# their paths there.
P="$BENCHDB_BUILD/report-pages"
rm -rf "$P" && mkdir -p "$P" && cp -R "$T/." "$P/" && sed "s|$T/|$P/|g" "$pages" >"$P/pages.json" ||
    fail "the pages copied to $P"
finish
