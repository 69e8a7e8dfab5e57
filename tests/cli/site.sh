# benchdb site (docs/report.md, "A site of the store"): the pages it
# makes, their links (relative, every one a file of the site), the index's
# order (open regressions first), its change points against regressions',
# incremental writing (a second run writes nothing; a night more on one
# host rewrites only that host's histories and the index; a deleted plan's
# pages are removed, and a file of DIR it did not make is left alone), the
# parameters it takes, the headline and latest verdicts when a gate fails
# (the user's evaluation, not the one report records to draw its chart),
# a page whose chart's companion query changed since, and its errors. (In a browser: cli/report_browser.)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --history 61 --hosts 2 --cells 2 --step 30:small/serialize/binary:+20 --seed 3 --plan nightly n
mkdir night61 && mv n/ci-a-0061.jsonl.zst night61/ && rm n/ci-b-0061.jsonl.zst
bd ingest -q n || fail "ingest 60 nights"
bd simulate -q --groups 1 --hosts 2 --positions 2 --cells 2 --forks 1 --iterations 2 --warmups 0 --plan cal sim
bd ingest -q sim || fail "ingest a calibration plan"
bd query regressions --record -p plan=nightly -f csv >found.csv 2>/dev/null || fail "regressions"

run bd site www
expect_rc 0 "benchdb site"
expect_err_has "site: wrote www: 10 pages (8 histories, 1 evaluation, the index): 10 written, 0 unchanged, 0 removed" \
    "says what it wrote"
# What it found first, as the index opens (the cron job's log said only
# how many pages it wrote): the index's headline, as text.
python3 - www/index.html "$T/err" <<'PY' || fail "site's first line: the index's headline"
import html, re, sys
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', open(sys.argv[1]).read()).group(1)
first = open(sys.argv[2]).readline().rstrip("\n")
assert first == html.unescape(h1) and first.startswith("2 of 8 histories regressed"), (first, h1)
PY
[ -f www/index.html ] && [ -f www/e/1.html ] && [ -f www/.benchdb-site ] || fail "the index, the evaluation, the list"
expect_eq "$(ls www/h | wc -l)" 8 "a page per history: 4 nightly, 4 of the calibration plan (2 hosts x 2 cells, a line per variant)"
# Every time shown names its zone: a table's column of times is headed
# "(UTC)" and a listed evaluation's time says "UTC" (the Plans table's
# "latest run" and the lists of evaluations did not).
python3 - www <<'PY' || fail "every time on the site names its zone"
import html, os, re, sys
T = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")
for d, _, fs in os.walk(sys.argv[1]):
    for f in (x for x in fs if x.endswith(".html")):
        text = open(os.path.join(d, f)).read()
        for table in re.findall(r"<table.*?</table>", text, re.S):
            heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th>(.*?)</th>", table)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
                for i, cell in enumerate(re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)):
                    if T.fullmatch(re.sub(r"<[^>]+>", "", cell).strip()[:16]) and "(UTC)" not in heads[i]:
                        sys.exit("%s: column %r holds %r" % (f, heads[i], cell))
        for li in re.findall(r"<li>(.*?)</li>", text, re.S):
            for m in T.finditer(html.unescape(re.sub(r"<[^>]+>", "", li))):
                rest = re.sub(r"<[^>]+>", "", li)
                if not re.search(re.escape(m.group(0)) + r"(:\d\d)? UTC", rest):
                    sys.exit("%s: %r" % (f, rest))
PY

python3 - www found.csv <<'PY' || fail "links, order, change points"
import csv, os, re, sys
root = os.path.realpath(sys.argv[1])
pages = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".html")]
for p in pages:
    text = open(p).read()
    # self-contained: no script, nothing fetched, every link a file of the site
    assert not re.search(r"<script|<link|<img|<iframe| src=|@import|url\(", text), p
    assert "default-src 'none'" in text, p
    for href in re.findall(r'href="([^"]*)"', text):
        if href.startswith("#"):
            assert 'id="%s"' % href[1:] in text, (p, href)
            continue
        assert "://" not in href and not href.startswith("/"), (p, href)
        f = os.path.realpath(os.path.join(os.path.dirname(p), href.split("#")[0]))
        assert f.startswith(root + os.sep) and os.path.isfile(f), (p, href)
index = open(os.path.join(root, "index.html")).read()
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', index).group(1)
assert h1.startswith("2 of 8 histories regressed and not recovered; the largest, "
                     "serialize/format=binary/workload=small on ci-"), h1
# the range to bisect: the first bad run (its revision) and the last good one, as regressions' headline says it
assert re.search(r"\+2\d\.?\d*% from run ci-[ab]-0030 \([0-9a-f]{12}\), last good ci-[ab]-0029$", h1), h1
rows = re.findall(r"<tr>.*?</tr>", re.search(r'<table class="h">.*?</table>', index, re.S).group(0), re.S)[1:]
assert len(rows) == 2 and all('class="n reg"' in r for r in rows), "the open regressions: the step on both hosts"
# The history pages' change points are regressions': the same runs, the same changes to 3 digits.
found = list(csv.DictReader(open(sys.argv[2])))
assert found, "regressions finds the step"
for r in found:
    params = "".join("-" + "-".join(kv) for kv in __import__("json").loads(r["params"]).items())
    page = [p for p in pages if "/h/nightly-%s-%s%s-%s-" % (r["host"], r["benchmark"], params, r["metric"]) in p]
    assert len(page) == 1, (r, page)
    text = open(page[0]).read()
    want = "<td>%s</td>" % r["run"]
    pct = "%+.3g%%" % float(r["change_percent"])
    assert want in text and pct in text, (page[0], want, pct)
    # the last good run and the revisions to bisect between, as regressions gives them
    good, bad = r["last_good_revision"], r["revision"]
    rng = '<td>%s</td><td>%s</td><td><code title="%s">%s</code>..<code title="%s">%s</code></td>' % (
        r["last_good_run"], r["run"], good, good[:12], bad, bad[:12])
    assert rng in text, (page[0], rng)
    h1 = re.search(r'<h1 class="headline">(.*?)</h1>', text).group(1)
    before = "last good" if r["kind"] == "regression" else "after"  # an improvement's run before is no "good" one
    assert "from run %s (%s), %s %s (%s), its mean" % (r["run"], bad[:12], before, r["last_good_run"], good[:12]) \
        in h1 or r["run"] not in h1, (page[0], h1)
    if r["kind"] == "regression":
        assert "; last good %s (%s)</td>" % (r["last_good_run"], good[:12]) in index, (r["run"], "index")
    assert "regressions" in text and 'href="../e/1.html"' in text, "the history links to the evaluation naming it"
print(len(pages), "pages checked")
PY

# Nothing changed: nothing written.
run bd site www
expect_err_has ": 0 written, 10 unchanged, 0 removed" "a second run writes nothing"
# A night more on ci-a: its two nightly histories and the index, nothing else.
echo keep >www/mine.txt
bd ingest -q night61 || fail "night 61 on ci-a"
run bd site www
expect_err_has ": 3 written, 7 unchanged, 0 removed" "only ci-a's histories and the index rewritten"
# A plan deleted: its pages removed; a file the site did not make stays.
bd delete --plan cal >/dev/null || fail "delete the calibration plan"
run bd site www
expect_err_has "site: wrote www: 6 pages (4 histories, 1 evaluation, the index): 1 written, 5 unchanged, 4 removed" \
    "the deleted plan's 4 pages removed"
expect_eq "$(ls www/h | wc -l)" 4 "4 history pages left"
[ -f www/mine.txt ] || fail "a file the site did not make is left alone"
# -q says nothing; --param changes how change points are found.
run bd site -q www
expect_rc 0 "site -q"
expect_eq "$(cat "$T/err")" "" "-q prints nothing"
run bd site www --param min_magnitude=0.5
expect_err_has ": 5 written, 1 unchanged, " "a magnitude of 50%: every history (its caption says so) and the index"
grep -q "no open regression in 4 histories" www/index.html || fail "min_magnitude=0.5: no open regression"
# The index says with which parameters it found its change points, in regressions' words.
grep -q "change points as <code>regressions</code> finds them with <code>window=50, max_pvalue=0.001, min_magnitude=0.5</code>" \
    www/index.html || fail "the index names the change points' parameters"

# The index leads with what fails. A gate that fails (percent=0: every
# run above its median alerts): its latest verdict is the evaluation the
# user ran, not the scope=every one `report` records to draw its chart, and
# the headline names it before the histories, with its numbers.
bd query gate-percent -p plan=nightly -p percent=0 -f csv --no-record >gate.csv 2>/dev/null || fail "gate-percent"
run bd report gate-percent -p plan=nightly -p percent=0 -o gate.html
expect_err_has "report: wrote gate.html: evaluation 2 of gate-percent, series chart of 242 marks from evaluation 3" \
    "the report records the gate (2) and the evaluation its chart is drawn from (3)"
run bd site -q www3
expect_rc 0 "a site with a failing gate"
grep -q "<p>The change points are those <code>benchdb query regressions --param plan=PLAN --param window=50 --param max_pvalue=0.001 --param min_magnitude=0</code> lists for each plan" \
    www3/index.html || fail "the open regressions name the command that lists the same change points"
python3 - www3/index.html gate.csv <<'PY' || fail "the index: the failing gate first, the user's evaluation"
import csv, re, sys
index = open(sys.argv[1]).read()
rows = list(csv.DictReader(open(sys.argv[2])))
fails = sum(r["pass"] == "0" for r in rows)
judged = sum(r["lower"] != "" for r in rows)
assert 0 < fails <= judged <= len(rows), (fails, judged, len(rows))
bad = []
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', index).group(1)
# counted as the gate's page counts: runs judged, not rows (a run too early to judge is a row)
want = "1 of 1 latest decision fails: gate-percent (plan nightly): %d of %d runs judged regressed; 2 of 4 histories " \
    "regressed" % (fails, judged)
if not h1.startswith(want):
    bad.append("headline %r, expected it to start %r" % (h1, want))
verdicts = re.search(r'id="verdicts">.*?</table>', index, re.S).group(0)
got = re.findall(r"<tr><td><code>(.*?)</code></td><td>nightly</td><td>(.*?)</td><td>"
                 r"<a href=\"e/(\d+)\.html\".*?</td><td>([^<]*)</td></tr>", verdicts)
# each verdict with the parameters that differ from its query's defaults (the plan has its column)
if [(q, p, e) for q, p, e, _ in got] != [("gate-percent", "<code>percent=0</code>", "2"),
                                          ("regressions", "defaults", "1")] or \
        " of %d runs judged " % len(rows) not in got[0][3]:
    bad.append("latest verdicts %r: expected gate-percent's evaluation 2 (percent=0, %d runs judged), then "
               "regressions' (its defaults)" % (got, len(rows)))
if "(recorded by report to draw the chart of evaluation 2)</li>" not in index:
    bad.append("evaluation 3 does not say it was recorded to draw evaluation 2's chart")
assert not bad, "\n".join(bad)
PY
# A newer verdict of the same gate that passes replaces it; the headline
# says the histories first, then that the decision passes.
bd query gate-percent -p plan=nightly -p percent=50 >/dev/null 2>&1 || fail "gate-percent, percent=50"
run bd site -q www3
h1=$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' www3/index.html)
case $h1 in
"2 of 4 histories regressed and not recovered; the largest, "*"; the latest decision passes") ;;
*) fail "a passing gate's site headline: $h1" ;;
esac
grep -q '<tr><td><code>gate-percent</code></td><td>nightly</td><td><code>percent=50</code></td><td><a href="e/4.html">' www3/index.html ||
    fail "the latest verdict: the passing evaluation 4, with its parameter as people write it (50, not 50.0)"
# A real parameter reads as it is written everywhere it is shown (the
# page's header, its table of parameters, the command that re-verifies
# it, history --diff), while the record keeps it a real, and re-verifies.
grep -q 'parameters: <code>percent=50</code>, <code>plan=nightly</code> ' www3/e/4.html ||
    fail "the page's header: percent=50"
grep -q '<tr><td><code>percent</code></td><td>50</td><td>5</td>' www3/e/4.html ||
    fail "the page's table of parameters: 50"
grep -q -- 'gate-percent --param percent=50 --param plan=nightly$' www3/e/4.html || fail "the re-verify command: --param percent=50"
grep -q '50\.0' www3/e/4.html && fail "50.0 shown on the page: $(grep -o '.\{40\}50\.0.\{20\}' www3/e/4.html)"
expect_eq "$(bd sql "SELECT json_extract(params, '\$.percent') || ' ' || typeof(json_extract(params, '\$.percent')) FROM evaluation WHERE id = 4" -f csv | tail -1 | tr -d '\r')" \
    "50.0 real" "the record keeps the parameter a real"
run bd history --diff 2 4
expect_err_has "parameters: percent: 0 -> 50" "history --diff: the parameters as people write them"
run bd history --verify 4
expect_rc 0 "the evaluation re-verifies"
# Its page has no chart (a site runs nothing): it says which evaluation the
# chart would be drawn from, the gate with scope=every, not "its parameters".
grep -qF "No chart: evaluation 4 (gate-percent): its chart draws gate-percent with scope=every and the evaluation&#39;s parameters, and no such evaluation on the data it saw is recorded (&#39;benchdb report --evaluation 4&#39; runs and records it)" www3/e/4.html ||
    fail "evaluation 4's page: what its chart would need, with=scope=every named"
# One gate failing on two plans is named once, with how many plans (in the
# sanitized pass nothing else reaches this: the tutorial's plans judged by
# one rule are its plain-only step 9).
bd simulate -q --history 8 --hosts 1 --cells 2 --step 6:small/serialize/binary:+20 --seed 4 --plan other o &&
    bd ingest -q o || fail "a second plan"
for p in nightly other; do
    bd query gate-percent -p plan=$p -p percent=0 --gate >/dev/null 2>&1
    [ $? = 3 ] || fail "gate-percent on $p, percent=0: expected it to fail"
done
run bd site -q www4
h1=$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' www4/index.html)
case $h1 in
"2 of 2 latest decisions fail: gate-percent on 2 plans; 3 of 6 histories regressed and not recovered; "*) ;;
*) fail "one gate failing on two plans, the site headline: $h1" ;;
esac

# A failing compare is counted on the index and by history as its page
# counts it, in benchmarks (2 cells; its 3 rows hold the geomean too),
# not in rows: "in 1 of 3 rows" beside the page's "1 of 2 benchmarks".
run bd query compare -p plan=nightly -p a=ci-a-0029 -p b=ci-a-0030
expect_err_has "regressed (1 slower, 0 faster, 1 unchanged)" "compare across the step: 1 of 2 cells slower"
c=$(sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p' "$T/err")
expect_eq "$(bd sql "SELECT row_count FROM evaluation WHERE id = $c" -f csv | tail -1 | tr -d '\r')" 3 \
    "compare's rows: 2 cells and the geomean"
run bd site -q www6
case "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' "www6/e/$c.html")" in
"the gate fails: 1 of 2 benchmarks slower or worse, "*) ;; *) fail "compare's page: $(grep -o '<h1.*</h1>' "www6/e/$c.html")" ;; esac
grep -q '<h1 class="headline">3 of 3 latest decisions fail: compare (plan nightly): 1 of 2 benchmarks slower or worse, gate-percent on 2 plans; ' \
    www6/index.html || fail "the index counts compare's benchmarks, as its page: $(grep -o '<h1.*</h1>' www6/index.html)"
run bd history compare
expect_eq "$(head -n 1 "$T/err" | sed 's/, on [0-9-]*;/;/')" \
    "1 evaluation of 1 query; the latest decision fails: compare (id $c): regressed (1 of 2 benchmarks slower or worse)" \
    "history counts compare's benchmarks too"

# A page drawn from a companion (chart from=) after the companion's text
# changed (benchdb upgraded, or the file edited): the site and report
# --evaluation find the companion recorded with the evaluation on its data,
# as before, so the page keeps its chart and its headline's numbers (the
# site drew no chart and counted the evaluation's own rows instead; report
# --evaluation refused once the store held more data).
mkdir mq
cat >mq/top.sql <<'SQL'
-- name: top
-- summary: each host's runs, drawn from top-points
-- param: plan = null  the plan
-- type: plan = text naming a plan
-- chart: series from=top-points group=host x=seq y=value
-- headline: {chart.count():point/points} drawn from {count():host/hosts}
SELECT host, count(*) AS n FROM history_point WHERE plan = :plan GROUP BY host ORDER BY host;
SQL
cat >mq/top-points.sql <<'SQL'
-- name: top-points
-- summary: every point of the plan's histories
-- param: plan = null  the plan
-- type: plan = text naming a plan
SELECT host, run, value, row_number() OVER (PARTITION BY host ORDER BY started, run) AS seq
FROM history_point WHERE plan = :plan ORDER BY host, seq;
SQL
run bd report top --queries mq -p plan=other -o top.html
expect_rc 0 "report top"
e=$(sed -n 's/^report: wrote top.html: evaluation \([0-9]*\) of top, .*/\1/p' "$T/err")
[ -n "$e" ] || fail "report top: which evaluation: $(cat "$T/err")"
bd site -q --queries mq www5 || fail "site with top"
want=$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' "www5/e/$e.html")
expect_eq "$want" "16 points drawn from 1 host" "the page's headline counts the companion's rows"
echo '-- a comment: the text changed, as an upgrade changes a shipped query' >>mq/top-points.sql
bd site -q --queries mq www5 || fail "site after the companion's text changed"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' "www5/e/$e.html")" "$want" \
    "the same headline after the companion's text changed"
grep -q '<svg' "www5/e/$e.html" || fail "the chart is still drawn after the companion's text changed"
bd simulate -q --history 9 --hosts 1 --cells 2 --step 6:small/serialize/binary:+20 --seed 4 --plan other o9 &&
    bd ingest -q o9/ci-a-0009.jsonl.zst || fail "another night of plan other"
run bd report --evaluation "$e" --queries mq -o top2.html
expect_rc 0 "report --evaluation after the companion's text and the data changed"
expect_err_has "series chart of 16 marks from evaluation " "drawn from the companion recorded with it"

# An evaluation whose query has a headline line that does not parse (a
# file's typo, recorded for good): the site is made, its page opening with
# the outcome line, and says so once; it refused the whole site ('error:
# evaluation N (hq):3: headline: ...', exit 1, no index), for ever after.
mkdir -p bq
printf -- '-- name: hq\n-- summary: a headline with an unknown format\n-- headline: {n:pc}\nSELECT 1 AS n;\n' >bq/hq.sql
run bd query --queries bq hq --record
hq=$(sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p' "$T/err")
run bd site --queries bq www8
expect_rc 0 "a site with an evaluation whose headline line does not parse"
expect_err_has "warning: site: evaluation $hq (hq):3: headline: {n:pc}: unknown format 'pc' (pct, %, share, abs, sha, cell, variant, date, time, DIGITS or WORD/WORDS) (no headline: its page opens with its outcome line; 'benchdb report --evaluation $hq' refuses it)" \
    "says which evaluation, which line, and what its page does instead"
expect_eq "$(grep -c 'warning: site: ' "$T/err")" 1 "said once"
grep -q '<h1 class="headline">1 row</h1>' "www8/e/$hq.html" || fail "its page opens with its outcome line"
[ -f www8/index.html ] || fail "the index is written"

# The change points' parameters read back as given: the command the index
# names lists the same change points (%g had cut 0.0012345678 to
# 0.00123457, and the command then named another p-value).
bd site -q www7 --param max_pvalue=0.0012345678 --param min_magnitude=0.033333333333 || fail "site with exact parameters"
grep -q -- "--param window=50 --param max_pvalue=0.0012345678 --param min_magnitude=0.033333333333</code>" www7/index.html ||
    fail "the index's command: the parameters as given: $(grep -o 'max_pvalue=[^ <]*' www7/index.html | head -1)"
[ "$(grep -l "p at most 0.0012345678, magnitude at least 0.033333333333)" www7/h/*.html | wc -l)" = "$(ls www7/h | wc -l)" ] ||
    fail "each history's caption: the parameters as given"

# Errors: what cannot be a site, parameters it does not take, a store that is not there.
: >afile
run bd site afile
expect_rc 1 "a file where the directory should be"
expect_err_has "site: cannot make the directory afile: a file of that name is there" "says so"
run bd site www --param plan=nightly
expect_rc 2 "a parameter of regressions the site does not take"
expect_err_has "site: --param plan: the site takes regressions' window, max_pvalue and min_magnitude" "names it"
run bd site www --param window=1
expect_rc 2 "a window regressions refuses"
expect_err_has "window=1: expected an integer" "as regressions says"
run bd site
expect_rc 2 "no directory"
expect_err_has "missing the directory to write the site into" "says what is missing"
run bd --db nosuch.db site www2
expect_rc 1 "no store"
[ -e www2 ] && fail "nothing made without a store"
# Inside DIR the names are site's own: a link planted at a page's name (or
# at its list of pages) is replaced by the page, the file it named left as
# it was; h/ or e/ a link to another directory is refused before anything
# is written there or removed from it.
echo "someone else's" >victim.txt
mkdir -p linked other && cp victim.txt other/keep.html
ln -s "$T/victim.txt" linked/index.html
ln -s "$T/victim.txt" linked/.benchdb-site
run bd site -q linked
expect_rc 0 "a site over links at its page names"
[ -L linked/index.html ] || [ -L linked/.benchdb-site ] && fail "a link at a page's name: replaced by the page"
expect_eq "$(cat victim.txt)" "someone else's" "the file the links named: untouched"
grep -q '<h1 class="headline' linked/index.html || fail "the index written in the link's place"
rm -rf linked/h && ln -s "$T/other" linked/h
printf 'h/keep.html\n' >>linked/.benchdb-site
run bd site -q linked
expect_rc 1 "h/ a link to another directory"
expect_err_has "site: linked/h is a symbolic link: the site's pages go into a directory of its own there, never through a link (remove the link)" \
    "says so"
expect_eq "$(ls other)" "keep.html" "the directory the link named: nothing written there"
expect_eq "$(cat other/keep.html)" "someone else's" "nor removed from it"
finish
