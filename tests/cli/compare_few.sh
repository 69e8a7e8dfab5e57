# compare with few values a side: what the U test and the shift's interval
# can say. With n1 against n2 values (no ties) the least two-sided p the U
# test can give is 2 / C(n1 + n2, n1), all of one side below all of the
# other, and the widest interval of the shift, [d(1), d(n1 n2)], has
# confidence 1 - 2 / C(n1 + n2, n1) (R's wilcox.test: its achieved
# conf.level, tests/sql/fn_rank_r.sql checks 2/3 for 2 + 2). So 3 against
# 4 (2/35 = 0.057) can never reach p <= 0.05, although benchstat warns only
# when both sides are below 4: such a cell is inconclusive, not unchanged,
# and its interval is said at the confidence it has. On files and on a
# store alike.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

# Each benchmark 10 % slower in b, every b value above every a value.
python3 - <<'PY'
cells = {"One": (1, 1), "Two": (2, 2), "Three": (3, 3), "Four": (4, 4), "ThreeFour": (3, 4), "TwoSeven": (2, 7),
         "TwoEight": (2, 8)}
for side, base in (("a", 100), ("b", 110)):
    with open(side + ".txt", "w") as f:
        for name, n in cells.items():
            for i in range(n[0 if side == "a" else 1]):
                f.write("Benchmark%s 1000 %d ns/op\n" % (name, base + i))
PY

check_table() { # $1: what
    python3 - "$T/out" "$1" <<'PY'
import math, re, sys
out, what = open(sys.argv[1]).read(), sys.argv[2]
notes = dict(re.findall(r"^([⁰¹²³⁴⁵⁶⁷⁸⁹]+) (.*)$", out, re.M))
want = {"One": (1, 1), "Two": (2, 2), "Three": (3, 3), "Four": (4, 4), "ThreeFour": (3, 4), "TwoSeven": (2, 7),
        "TwoEight": (2, 8)}
bad = []
for name, (n1, n2) in want.items():
    line = [l for l in out.splitlines() if l.split(" ")[0] == name]
    if len(line) != 1:
        bad.append("%s: %d rows" % (name, len(line)))
        continue
    conf = 1 - 2 / math.comb(n1 + n2, n1)
    ci = re.search(r"(\[[^]]*\]|-)( ([⁰¹²³⁴⁵⁶⁷⁸⁹]+))?( slower)?$", line[0])
    if not ci:
        bad.append("%s: no interval in %r" % (name, line[0]))
    elif conf >= 0.95:
        if ci.group(3) or ci.group(1) == "-":
            bad.append("%s: confidence %.4f, yet marked: %r" % (name, conf, line[0]))
    else:
        note = notes.get(ci.group(3) or "", "")
        exp = ("with %d+%d values the shift has no interval at 95%% confidence" % (n1, n2) if conf <= 0 else
               "with %d+%d values the shift's interval has %.1f%% confidence at most, not 95%%" % (n1, n2, 100 * conf))
        if note != exp or (conf <= 0) != (ci.group(1) == "-"):
            bad.append("%s: %r, note %r; want %r" % (name, line[0], note, exp))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    [ $? -eq 0 ] || fail "$1: the shift's intervals and their notes"
    checks=$((checks + 1))
}

# Cells counted: Four (4 + 4, p = 2/70) and TwoEight (2/45) can reach 0.05
# and are slower; One, Two, Three, ThreeFour and TwoSeven (2/36) cannot.
first='**2 slower, 0 faster, 5 inconclusive, 0 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; inconclusive: too few samples for p ≤ 0.05; n = 1 to 4 per cell in a, 1 to 8 in b) — gate: fails'

run bd compare --no-record a.txt b.txt
expect_rc 0 "files"
check_table "files"
expect_err_has "compare: regressed (2 slower, 0 faster, 5 inconclusive, 0 unchanged)" "files: the first line"
run bd compare --format markdown a=a.txt b=b.txt
expect_eq "$(head -n 1 "$T/out")" "$first" "files, Markdown: 3 against 4 and 2 against 7 are inconclusive"
expect_out_has "| ThreeFour | sec/op | 101.0n ± ∞ | 111.5n ± ∞ | +10.40% | 0.057 | inconclusive |" \
    "files: 3 against 4 listed as inconclusive"

# Every cell inconclusive: the first line said "no regression", which the
# test could not have found; it says so, and the gate's words too.
grep -E '^Benchmark(One|Two|Three) ' a.txt >a3.txt
grep -E '^Benchmark(One|Two|Three) ' b.txt >b3.txt
run bd compare --no-record a3.txt b3.txt
expect_rc 0 "every cell inconclusive"
expect_err_has "compare: inconclusive (0 slower, 0 faster, 3 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster" \
    "every cell inconclusive: the first line says none was judged"
run bd compare --format markdown --gate a3.txt b3.txt
expect_rc 0 "every cell inconclusive: the gate passes (nothing could fail it)"
# On the terminal too the gate's line says it judged none (it said nothing
# of the gate: a CI log showed exit 0 beside "inconclusive").
expect_eq "$(tail -n 1 "$T/err")" "compare: gate: passes, judging no cell: none has samples enough for p ≤ 0.05 (exit 0)" \
    "every cell inconclusive: the gate's line on stderr"
expect_eq "$(head -n 1 "$T/out" | sed 's/.*) — gate/gate/')" "gate: passes, judging no cell: none has samples enough for p ≤ 0.05" \
    "every cell inconclusive: the gate's words say it judged none"

bd init >/dev/null
bd ingest --quiet --plan p --host h --run a a.txt || fail "ingest a"
bd ingest --quiet --plan p --host h --run b b.txt || fail "ingest b"
run bd compare --no-record a b
expect_rc 0 "a store"
check_table "a store"
run bd compare --no-record --format markdown a b
expect_eq "$(head -n 1 "$T/out")" "$first" "a store, Markdown: as on files"
expect_out_has "| ThreeFour | sec/op | 101.0n ± ∞ | 111.5n ± ∞ | +10.40% | 0.057 | inconclusive |" \
    "a store: 3 against 4 listed as inconclusive"

# query compare (the saved query, run raw) says the same first line; its
# verdict and gate stay the query's ("no regression", exit 0).
bd ingest --quiet --plan q3 --host h --run a3 a3.txt || fail "ingest a3"
bd ingest --quiet --plan q3 --host h --run b3 b3.txt || fail "ingest b3"
run bd compare --no-record --plan q3 a3 b3 --gate
expect_rc 0 "compare on a store, every cell inconclusive"
expect_eq "$(tail -n 1 "$T/err")" "compare: gate: passes, judging no cell: none has samples enough for p ≤ 0.05 (exit 0)" \
    "compare on a store, every cell inconclusive: the gate's line"
run bd query compare --no-record -p plan=q3 -p a=a3 -p b=b3 --gate
expect_rc 0 "query compare, every cell inconclusive: the gate as the query's"
expect_eq "$(head -n 1 "$T/err")" "inconclusive (0 slower, 0 faster, 3 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster" \
    "query compare: the first line says none was judged, not 'no regression'"

# The rows (CSV, JSON, pages) carry the same caveat as a warning, on a
# store (the saved query compare) and on files alike; not on 4 + 4.
for src in "a b" "a=a.txt b=b.txt"; do
    run bd compare --no-record --format csv $src
    python3 - "$T/out" "$src" <<'PY' || fail "rows' warnings ($src)"
import csv, math, sys
rows = {r["benchmark"].replace("Benchmark", ""): r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "cell"}
bad = []
for name, r in rows.items():
    n1, n2 = int(r["n_a"]), int(r["n_b"])
    short = 1 - 2 / math.comb(n1 + n2, n1) < 0.95
    text = "with %d+%d values the shift's interval cannot reach confidence 0.95" % (n1, n2)
    if short != (text in r["warnings"].split("\n")):
        bad.append("%s: %r" % (name, r["warnings"]))
if len(rows) != 7:
    bad.append("%d cells" % len(rows))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    checks=$((checks + 1))
done

# A page of the evaluation lists each warning once, a line each: the
# caveat among them (a cell's lines ran together into one item).
run bd compare --record a b
expect_rc 0 "recorded"
run bd report --evaluation 1 -o few.html
expect_rc 0 "its page"
python3 - few.html <<'PY' || fail "the page's warnings"
import html, re, sys
page = open(sys.argv[1]).read()
items = [html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", page.split('<ul class="notes">')[1].split("</ul>")[0])]
want = ["need >= 6 samples for confidence interval at level 0.95",
        "need >= 4 samples to detect a difference at alpha level 0.05"] + \
       ["with %s values the shift's interval cannot reach confidence 0.95" % n for n in ("1+1", "2+2", "3+3", "3+4", "2+7")]
if sorted(items) != sorted(want):
    print(items)
    sys.exit(1)
PY
checks=$((checks + 1))

# --benchstat stays benchstat's: no interval column, no note of ours.
run bd compare --no-record --benchstat a b
expect_rc 0 "--benchstat"
if grep -q "shift\|confidence at most\|no interval" "$T/out"; then fail "--benchstat: benchdb's interval notes"; fi
checks=$((checks + 1))

# A benchmark judged in one metric and too few in another counts
# inconclusive, but a cell was judged: the first line is not "no cell has
# samples enough ...". BenchmarkDotNet's full export: Tokenize's times
# (4 + 4, p can reach 0.05) against its allocated bytes (one value a side).
B=$BENCHDB_SRC/tests/data/harness/benchmarkdotnet/launches_overhead_params.json
run bd compare a="$B" b="$B"
expect_rc 0 "one metric judged"
expect_err_has "compare: no regression (0 slower, 0 faster, 2 inconclusive, 0 unchanged)" "a cell judged: not 'inconclusive' first"
checks=$((checks + 1))
grep -q "none could be judged" "$T/err" && fail "a cell judged: said none could be: $(cat "$T/err")"
run bd compare a="$B" b="$B" --format markdown
checks=$((checks + 1))
head -n 1 "$T/out" | grep -q "judging no cell" && fail "the comment: 'judging no cell': $(head -n 1 "$T/out")"

finish
