# docs/tutorial.md: every ```sh block runs, in order, in a fresh directory
# (```sh ext blocks need the sqlite3 shell and an uninstrumented extension:
# skipped under the sanitizers; so are ```sh plain blocks, step 9's
# calibration: 20 simulated plans, 1.5 M samples ingested, half the
# sanitized run's CPU for the same simulate, ingest, query and sql code
# the nightly and hume steps run); then the figures the tutorial promises.
# ctest: slow cost=150
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

mkdir bin
ln -s "$BENCHDB_BIN" bin/benchdb
ln -s "$BENCHDB_SRC/examples" examples
ln -s "$BENCHDB_BUILD" build
skip_ext=0
if [ "${BENCHDB_SANITIZED:-0}" = 1 ] || ! command -v sqlite3 >/dev/null; then skip_ext=1; fi
skip_plain=${BENCHDB_SANITIZED:-0}

# A ```sh ext block's output is framed by marker lines on stdout and
# stderr, so that pg/tutorial, which compares its run on PostgreSQL with
# this one's recorded output, can leave out what only SQLite's shell prints;
# a ```sh engine block's too (it runs on both engines, and what it prints
# is each engine's own: a table's definition, an error's wording).
awk -v skip_ext="$skip_ext" -v skip_plain="$skip_plain" '
    /^```sh( ext| sqlite| engine| plain)?$/ {
        inblock = 1; ext = ($0 ~ / ext$/); eng = ($0 ~ / engine$/); plain = ($0 ~ / plain$/)
        if (ext && !skip_ext) print "echo \"@@ ext\"; echo \"@@ ext\" >&2"
        if (eng) print "echo \"@@ engine\"; echo \"@@ engine\" >&2"
        next
    }
    /^```/ && inblock {
        if (ext && !skip_ext) print "echo \"@@ end ext\"; echo \"@@ end ext\" >&2"
        if (eng) print "echo \"@@ end engine\"; echo \"@@ end engine\" >&2"
        inblock = 0; print ""; next
    }
    inblock && !(ext && skip_ext) && !(plain && skip_plain) { print }
' "$BENCHDB_SRC/docs/tutorial.md" >tutorial-commands.sh

[ "$(grep -c 'benchdb' tutorial-commands.sh)" -ge 20 ] || fail "the tutorial has its commands"

# The tutorial's first command puts build/ on PATH; here build/ holds the
# binary under test only through bin/.
PATH="$T/bin:$PATH" sh -e tutorial-commands.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "every tutorial command runs"

# What pg/tutorial compares its run on PostgreSQL with (ctest fixture
# tutorial-sqlite): this run's stdout, stderr and pages; and the store the
# commands left with the queries it was asked with, which pg/copy copies
# between the engines.
rec="${BENCHDB_BUILD:?set by ctest}/tutorial-sqlite"
rm -rf "$rec" "$rec.new"
mkdir "$rec.new" && cp "$T/out" "$T/err" "$rec.new/" && cp ./*.html "$rec.new/" &&
    mkdir "$rec.new/store" && cp results.db "$rec.new/store/" && cp -R my-rules my-charts "$rec.new/store/" &&
    mv "$rec.new" "$rec" || fail "cannot record the run in $rec"

o="$T/out"
# Step 1: two builds compared, one command: the pull-request comment.
expect_out_has "gate: exit 3" "step 1: the comment's gate fails (a cell got slower)"
expect_eq "$(head -n 1 pr-comment.md)" \
    "**5 slower, 15 faster, 16 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; n = 10+10) — gate: fails" \
    "step 1: the comment's first line"
grep -q '^| CRC32/poly=Koopman/size=1kB/align=1-8 | sec/op | 2.155µ ± 2% | 2.361µ ± 3% | +9.58% | 0.000 | slower |$' pr-comment.md ||
    fail "step 1: a changed cell in the comment"
# Step 2: tonight's gate passes, recorded.
expect_err_has "gate: pass holds in every row (exit 0)" "step 2: tonight's gate"
expect_err_has "the gate passes: " "step 2: the gate's answer in words"
expect_out_has "ingest: 13 archives loaded, 0 skipped, 0 failed; 13 runs, 48030 values (and 28800 warmups)" "step 1: ingest"
expect_out_has "ingest: 0 archives loaded, 13 skipped, 0 failed" "step 1: a second ingest skips"
expect_out_has "p4-vm-c-2  sim-p4-vm-c         2  protobuf-4" "step 1: runs, hosts, positions"
expect_err_has "separate-host placement not adopted: protobuf-3 fails the band and interval conditions; protobuf-4 fails the band condition" "step 2: the verdict"
grep -q "^protobuf-3              0.8917               0.04167                0.09583     0$" "$o" ||
    fail "step 2: protobuf-3's shares, to four digits"
grep -q "^protobuf-3,120,240,104,214,5,23,0.8916666666666667,0.041666666666666664,0.09583333333333334,0,0,0,0," "$o" ||
    fail "step 2: protobuf-3's counts and shares in full in the CSV"
expect_out_has "gate: exit 3" "step 2: --gate exits 3 on a rule that does not adopt"
expect_err_has "gate: adopt does not hold in every row (exit 3)" "step 2: the gate says why"
grep -A3 "^| run_group  | between_band_share" "$o" | tail -1 | grep -q "^| protobuf-4 |             0.9167 |" ||
    fail "step 2: the Markdown comment"
expect_err_has "before plan calibration-sim began (2026-10-21T03:57:49Z): pre-registered" "step 2: pre-registered"
expect_err_has "but with other parameters (direction=reverse): applied retroactively" "step 2: reverse is retroactive"
expect_err_has "parameters: direction: forward -> reverse" "step 2: diff names the parameter"
expect_out_has "protobuf-3  within_in_band  104  105" "step 2: reversing moves one within-host estimate"
expect_err_has "separate-host placement not adopted: protobuf-3 fails the interval condition" "step 2: the wider band"
expect_err_has "error: query placement-rule: plan 'calibraton-sim' does not exist; did you mean 'calibration-sim'? (plans: calibration-sim, crc32, git-perf-p0001, nightly) (see 'benchdb queries placement-rule')" \
    "step 2: a plan that does not exist"
expect_out_has "exit 2" "step 2: ... is a usage error"
expect_err_has "plan git-perf-p0001 has no runs with a treatment and a baseline variant; placement-rule compares treatment over baseline within runs" \
    "step 2: a rule on data it does not fit says why"
expect_out_has "exit 4" "step 2: ... and exits 4"
expect_out_has "noisy-cells" "step 3: the custom rule is listed"
expect_out_has "v2.18.0      s     10  3.022   4.58" "step 4: min and max"
for v in "3.126" "3.30825" "3.17025"; do
    grep -Eq "^stolee-2018-08-23-git-git .* $v  " "$o" || fail "step 4: trimmed mean $v from the aggregations query"
done
expect_out_has "v2.18.0        3.022  3.1065   3.261     3.126" "step 4: ad-hoc aggregates"
grep -Eq "v2\.19\.0-rc0 +10 +3\.259 +\+7\.842%( |$)" "$o" || fail "step 4: versions, git's min and +7.8%"
grep -Eq "HEAD +10 +3\.17 +\+1\.416%( |$)" "$o" || fail "step 4: versions, trimmed mean and +1.4%"
if [ "$skip_ext" = 0 ]; then
    expect_out_has '"lo":-0.04815553524610174,"hi":0.0021555352461017415' "step 5: pooled_t_ci in the sqlite3 shell"
fi
# Step 5: the verdicts' rows read from their evaluation's JSON array in SQL.
grep -A3 "^run_group   cells  disagreeing$" "$o" | tr -s ' ' | grep -c -e '^protobuf-3 40 4$' -e '^protobuf-4 40 5$' | grep -qx 2 ||
    fail "step 5: 40 cells a profile, 4 and 5 of them disagreeing, from the verdicts' rows"
grep -q "the runs of 71 of 80 cells agree; here 36 of 40\$" "$BENCHDB_SRC/docs/tutorial.md" &&
    grep -q "^for Protobuf 3 and 35 of 40 for Protobuf 4), from the\$" "$BENCHDB_SRC/docs/tutorial.md" ||
    fail "step 5: the tutorial's text states the counts the query prints (36 and 35 of 40 agree)"
grep -q '<h1 class="headline">.*the runs of 71 of 80 cells agree</h1>' verdicts.html ||
    fail "step 5: the verdicts page's headline, as the tutorial quotes it (71 of 80 cells agree)"
# Without step 9 (sanitized) the store holds 20 placement-rule
# evaluations and 4,800 histories fewer.
if [ "$skip_plain" = 0 ]; then
    grep -A2 "^plans  adopted  band_passes  interval_passes" "$o" | tail -1 | grep -Eq "^ +20 +0 +0 +[0-9]+$" ||
        fail "step 9: 20 plans judged, none adopted, no band pass"
    placements=23 evaluations=41
    headline="22 of 23 latest decisions fail: placement-rule on 21 plans, compare (plan crc32): 5 of 36 benchmarks slower or worse; 5 of 5305 histories"
else
    placements=3 evaluations=21
    headline="2 of 3 latest decisions fail: placement-rule (plan calibration-sim) in 2 of 2 rows, compare (plan crc32): 5 of 36 benchmarks slower or worse; 5 of 505 histories"
fi
grep -q "^CRC32/poly=IEEE/size=15/align=0-8            46.55n ± 9%   44.40n ± 2%   -4.62% (p=0.008 n=10) *\[-8.2%, -1.6%\] faster$" "$o" ||
    fail "step 7: a row as benchstat prints it, then the change's interval and the verdict"
[ "$(grep -c "^CRC32/poly=IEEE/size=15/align=0-8            46.55n ± 9%   44.40n ± 2%   -4.62% (p=0.008 n=10)" "$o")" = 2 ] ||
    fail "step 7: the files and the runs compare alike"
expect_out_has "geomean                                      344.5n        237.5n       -31.05%" "step 7: the geomean row"
expect_out_has "gate: exit status 3" "step 7: the gate fails"
grep -q "vs base (holm)" "$o" && [ "$(grep -c 'slower$' "$o")" -ge 5 ] || fail "step 7: adjusted p"
grep -A1 "vs base (holm)" "$o" | grep -q "Koopm.*+9.58%.*slower" || fail "step 7: Koopman 1kB survives Holm"
grep -q "(p=0.000 n=12)" "$o" || fail "step 7: one sample per run"
[ "$(grep -c '^host,sim-p3-vm-' "$o")" = 6 ] || fail "step 8: six host rows"
grep -Eq '^host,sim-p3-vm-f,,,,,,3,30,0\.17' "$o" || fail "step 8: host f varies least"

# Step 7: regressions finds each injected step at its run, and the
# back-tests print the numbers the table gives.
grep -Eq "^ci-b-0097 +a652e1dfbfc03067fb6dd82853e56d07e090d432 +2026-01-26T02:10:28Z +185.6$" "$o" ||
    fail "step 7: the step in the history"
for s in "ci-a collections 349" "ci-a text 235" "ci-b collections 102" "ci-b small 97" "ci-c large 253"; do
    set -- $s
    cell="^$1 +serialize +\\{\"format\":\"binary\",\"workload\":\"$2\"\\} +primary +main +$3"
    # regressions (defaults, then over 5%): the last good run and the first
    # bad one, their revisions, before, after, change, p-value
    good=$(printf '%s-%04d' "$1" $(($3 - 1)))
    [ "$(grep -cE -- "$cell +$good +$1-0*$3 +nightly +[0-9a-f]{40} +[0-9a-f]{40} +[0-9TZ:-]+ +[0-9.]+ +[0-9.]+ +\+[0-9.]+% +[0-9.e-]+ +regression$" "$o")" -eq 2 ] ||
        fail "step 7: regressions at $s, with its last good run $good"
    # injected-steps: the percent
    [ "$(grep -cE -- "$cell +$1-0*$3 +nightly +[0-9a-f]{40} +[0-9TZ:-]+ +\+[0-9.]+% +regression$" "$o")" -eq 1 ] ||
        fail "step 7: injected-steps at $s"
done
expect_err_has "result: 7 rows" "step 7: seven change points with Otava's defaults"
expect_err_has "6 regressions in 6 histories and 1 improvement (p ≤ 0.001); the largest: serialize/format=binary/workload=text regressed by +11.3% on ci-a from run ci-a-0235 (ab5482f7cb38), last good ci-a-0234" \
    "step 7: regressions says what it found first, as the tutorial quotes it"
expect_err_has "5 regressions in 5 histories (p ≤ 0.001, a change of at least 5%); the largest: serialize/format=binary/workload=text" "step 7: over 5%"
expect_err_has "result: 5 rows" "step 7: five over 5%"
expect_err_has "gate-zscore would have raised 12 alerts in 4284 runs judged, 96 runs without limits: 5 of 5 reference regressions caught (recall 1.00, precision 1.00), 0 false alarms (0 per 100 runs judged), detected 0.2 runs late on average (at most 1)" "step 7: gate-zscore"
expect_err_has "gate-ttest would have raised 81 alerts in 4356 runs judged, 24 runs without limits: 5 of 5 reference regressions caught (recall 1.00, precision 0.31), 56 false alarms (1.29 per 100 runs judged)" "step 7: gate-ttest"
expect_err_has "gate-percent would have raised 29 alerts in 4368 runs judged, 12 runs without limits: 5 of 5 reference regressions caught (recall 1.00, precision 0.86), 4 false alarms (0.0916 per 100 runs judged)" "step 7: gate-percent"
expect_err_has "gate-ttest would have raised 28 alerts in 4356 runs judged, 24 runs without limits: 5 of 5 reference regressions caught (recall 1.00, precision 0.79), 6 false alarms" "step 7: boundary 0.999"
expect_out_has "backtest-gate-percent" "step 7: history lists the back-tests"
expect_out_has "ingest: 1 archive loaded, 0 skipped, 0 failed; 1 run, 7 values" "step 11: a build's file into a run"
expect_out_has "ingest: 0 archives loaded, 1 skipped, 0 failed" "step 11: the same file again is skipped"
grep -Eq "^pr-42 +build-7 +ci-1 +844fd45 +base,head +2 +14 +1 +[0-9]+ *$" "$o" || fail "step 11: list runs (block 1)"
expect_out_has "ci/base/,files" "step 11: list archives"
expect_out_has "ci/head/,files" "step 11: list archives, the appended one"
expect_out_has "BenchmarkEncode  head         955.5" "step 11: the head build's score, (951 + 960) / 2"
# 2 Benchmark lines x 3 units + 1, per build: 8 series, 14 values
expect_out_has "delete: would remove 2 archives (4 members, 2 chunks of stored bytes), 1 run, 8 series, 14 sample rows, 0 gates, 0 events, 1 plan" "step 11: delete, dry run"

# The report pages of steps 5, 8, 9 and 10: a chart each, versions a table.
grep -q 'class="chg"' regressions.html || fail "step 8: the regressions page marks change points"
expect_err_has "report: wrote regressions.html: evaluation" "step 8: the regressions page"
expect_err_has "series chart of 4380 marks from evaluation" "step 8: drawn from trend, every point of the year"
expect_err_has "report: wrote compare.html: evaluation" "step 9: the compare page"
expect_err_has "forest chart of 37 marks" "step 9: 36 cells and the geomean"
expect_err_has "strip chart of 186 marks" "step 10: 180 cells and 6 hosts"
grep -q 'class="chart"' versions.html && fail "step 5: versions is a table"
grep -q 'v2.19.0-rc0' versions.html || fail "step 5: the versions page"

# Step 12: every evaluation the tutorial recorded re-verifies; an altered
# row does not.
grep -Eq "verified ([0-9]+) evaluations: \1 identical, 0 not" "$T/err" || fail "step 12: every evaluation identical"
expect_out_has "10  placement-rule         identical" "step 12: the table of evaluations"
expect_err_has "verified $evaluations evaluations: $evaluations identical, 0 not" "step 12: all $evaluations"
expect_out_has "rows: 1 of 2 differ (run_group=protobuf-3: within_in_band 105 -> 104)" "step 12: the altered row"
expect_out_has "exit 1" "step 12: ... exits 1"

# Step 12: finding one's way (each engine's own wording; the suggestion).
expect_out_has "run_cell_data  table" "step 12: .tables PATTERN"
expect_out_has "CREATE TABLE plan (" "step 12: .schema plan"
expect_err_has "error: sql: no such column: nam; did you mean 'name'?" "step 12: the nearest column"

# The history holds decisions, not lookups: 'benchdb history' lists only
# the tutorial's verdicts and gates (a query with an -- outcome: column, a
# back-test) and counts the lookups recorded for its pages, which
# --all lists (report QUERY records what it draws; each page names its
# evaluations).
"$BENCHDB_BIN" history --format csv >history.csv 2>history.err
"$BENCHDB_BIN" history --all --format csv >history-all.csv 2>/dev/null
cat ./*.html | grep -oE '(evaluation|Evaluation) [0-9]+' | grep -oE '[0-9]+' | sort -un >drawn.txt
python3 - history.csv history-all.csv drawn.txt history.err "$placements" <<'PY' || fail "the history lists the decisions; --all what the pages were drawn from"
import csv, sys
decisions = {"placement-rule", "compare", "gate-zscore", "gate-ttest", "gate-percent"}
def decision(q): return q in decisions or q.startswith("backtest-")
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
every = list(csv.DictReader(open(sys.argv[2], newline="")))
drawn = {int(l) for l in open(sys.argv[3]) if l.strip()}
assert [(r["id"], r["query"]) for r in rows if not decision(r["query"])] == [], rows
assert [r["id"] for r in rows] == [r["id"] for r in every if decision(r["query"])], (rows, every)
other = [r for r in every if not decision(r["query"])]
assert other and all(int(r["id"]) in drawn for r in other), other
assert sum(1 for r in rows if r["query"] == "placement-rule") == int(sys.argv[5]), rows
note = open(sys.argv[4]).read()
assert f"{len(other)} lookups not listed" in note, note
PY

# Step 13: the store as a site; the second run writes nothing; every link
# is a file of it; its headline names the failing decisions, then the
# histories (as docs/tutorial.md quotes it); the nightly plan's regressed
# histories come first.
expect_err_has "site: wrote site/: " "step 13: the site"
expect_err_has ": 0 written, " "step 13: a second run writes nothing"
python3 - site "$headline" <<'PY' || fail "step 13: every link a file of the site, the headline, regressed histories first"
import os, re, sys
root = os.path.realpath(sys.argv[1])
pages = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".html")]
links = 0
for p in pages:
    for href in re.findall(r'href="([^"]*)"', open(p).read()):
        if href.startswith("#"):
            continue
        f = os.path.realpath(os.path.join(os.path.dirname(p), href.split("#")[0]))
        assert f.startswith(root + os.sep) and os.path.isfile(f), (p, href)
        links += 1
index = open(os.path.join(root, "index.html")).read()
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', index).group(1)
assert h1.startswith(sys.argv[2] + " regressed and not recovered; the largest, "), h1
open_ = re.search(r'<h2 id="open">.*?</table>', index, re.S)
assert open_ and "plan nightly" in open_.group(0), "the nightly plan's open regressions lead the index"
for table in re.findall(r'<table class="h">.*?</table>', index, re.S):
    kinds = ['class="n reg"' in row for row in re.findall(r"<tr>.*?</tr>", table, re.S)[1:]]
    assert kinds == sorted(kinds, reverse=True), "regressed first"
print(len(pages), "pages,", links, "links")
PY

finish
