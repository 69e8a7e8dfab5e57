# benchdb compare as a command: the plan found from the sides, usage
# errors, --gate's exit codes, the table within 100 columns, and the
# sides named by variant, source, attribute; one sample per value, run or
# block; values with counts; units converted into side a's or left out.
# Expected numbers are recomputed here from the values (Python), the
# U test's p by enumerating every split of the two samples.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
D=$BENCHDB_SRC/tests/data/benchstat
bd init >/dev/null
gb() { bd ingest --quiet --format go-bench --plan "$1" --run "$2" --host h "$3" || fail "ingest $3"; }
gb crc base "$D/crc-old.txt"
gb crc head "$D/crc-new.txt"

# ---- the table, the plan found, the gate ----
run bd compare base head
expect_rc 0 "compare without --plan: the one plan holding both"
expect_out_has "pkg: hash/crc32" "a param every row shares goes above the tables, as Go's files say it"
expect_out_has "CRC32/poly=IEEE/size=15/align=0-8            46.55n ± 9%   44.40n ± 2%   -4.62% (p=0.008 n=10)" \
    "a row as benchstat prints it (the procs param as Go's -8)"
grep -q "^CRC32/poly=IEEE/size=15/align=0-8 .*(p=0.008 n=10) *\[-8.2%, -1.6%\] faster$" "$T/out" ||
    fail "benchdb's columns after benchstat's: the change's interval and the verdict"
expect_out_has "geomean                                      344.5n        237.5n       -31.05%" "the geomean row"
expect_err_has "compare: regressed" "the outcome on stderr"
grep -q "recorded as evaluation" "$T/out" && fail "stdout is the table only"
cp "$T/out" full.txt
run bd compare --benchstat --no-record base head
expect_rc 0 "--benchstat"
grep -q "faster\|95% CI" "$T/out" && fail "--benchstat: benchstat's columns only"
# each line of benchstat's table is the start of the line with benchdb's columns
python3 - full.txt "$T/out" <<'PY' || fail "--benchstat: the same table, without the columns after it"
import sys
full, plain = (open(p, encoding="utf-8").read().splitlines() for p in sys.argv[1:])
assert len(full) == len(plain), (len(full), len(plain))
for f, p in zip(full, plain):
    assert f.startswith(p.rstrip("│ ").rstrip()) or f == p, (f, p)
PY
checks=$((checks + 1))

run bd compare --gate base head
expect_rc 3 "--gate: a cell significantly slower"
# The gate's result in words after the rest, as query compare's and the
# comment's (the terminal said nothing of the gate).
expect_eq "$(tail -n 1 "$T/err")" "compare: gate: fails (exit 3)" "--gate: the gate's line"
# query compare (the saved query alone) says the same first line, counts
# and all, not the verdict's one word ('regressed').
run bd compare --no-record base head
want=$(head -n 1 "$T/err" | sed 's/^compare: //')
case $want in "regressed ("*" slower, "*" faster, "*" unchanged)") ;; *) fail "compare's first line: $want" ;; esac
run bd query compare -p plan=crc -p a=base -p b=head --no-record
expect_eq "$(head -n 1 "$T/err")" "$want" "query compare: compare's first line, counts and all"
run bd query compare -p plan=crc -p a=base -p b=head --no-record --format markdown --gate
expect_rc 3 "query compare --gate: regressed"
expect_eq "$(head -n 1 "$T/out")" "**$want** — gate: fails (exit 3)" "query compare's Markdown: the same, bold"
run bd compare --gate --threshold 50 --no-record base head
expect_rc 0 "--gate: none slower by more than 50%"
expect_eq "$(tail -n 1 "$T/err")" "compare: gate: passes (exit 0)" "--gate --threshold 50: the gate's line"
# The first line says the threshold that let the slower cells pass, as
# the comment does: "no regression (5 slower, ...)" read as a contradiction.
# The slower ones are all slower by less, and said so (it said "5 slower").
by_less=$(printf '%s' "${want#regressed (}" | sed 's/^\([0-9]*\) slower, /0 slower, \1 slower by less, /')
expect_eq "$(head -n 1 "$T/err")" "compare: no regression by more than 50% ($by_less" \
    "--threshold: the first line says by how much"
run bd query compare -p plan=crc -p a=base -p b=head -p threshold=50 --no-record
expect_eq "$(head -n 1 "$T/err")" "no regression by more than 50% ($by_less" \
    "query compare -p threshold=50: the same first line"
# With a threshold the gate fails on the benchmarks slower by more than
# it; every place counts those, and the others as slower by less: the
# first line and the comment said "5 slower" of benchmarks of which the
# gate failed on 2, and the page "the gate fails: 5 of 15 benchmarks
# slower or worse", which the site's index and history quote.
run bd query compare -p plan=crc -p a=base -p b=head --no-record --format csv
read -r more less <<EOF
$(python3 - "$T/out" 5 <<'PY'
import csv, sys
th = float(sys.argv[2])
more, slow = set(), set()
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "cell" and r["verdict"] in ("slower", "worse"):
        k = (r["benchmark"], r["params"], r["variant"])
        slow.add(k)
        if abs(float(r["change"])) > th:
            more.add(k)
print(len(more), len(slow - more))
PY
)
EOF
[ "$more" -gt 0 ] && [ "$less" -gt 0 ] || fail "crc at 5%: benchmarks slower by more and by less ($more, $less)"
run bd compare --gate --threshold 5 --no-record base head
expect_rc 3 "--threshold 5: some slower by more"
expect_eq "$(head -n 1 "$T/err" | sed 's/, [0-9]* faster.*//')" \
    "compare: regressed by more than 5% ($more slower, $less slower by less" "--threshold 5: the first line's counts"
run bd compare --threshold 5 --no-record --format markdown base head
expect_eq "$(head -n 1 "$T/out" | sed 's/, [0-9]* faster.*//')" "**$more slower, $less slower by less" \
    "--threshold 5: the comment's counts"
run bd compare --threshold 5 --no-record --format json --envelope base head
python3 - "$T/out" "$more" "$less" <<'PY' || fail "--threshold 5: the envelope's counts"
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
assert (c["slower"], c["slower_by_less"], c["gate"]) == (int(sys.argv[2]), int(sys.argv[3]), "fails"), c
PY
run bd query compare -p plan=crc -p a=base -p b=head -p threshold=5 --no-record
expect_eq "$(head -n 1 "$T/err" | sed 's/, [0-9]* faster.*//')" "regressed by more than 5% ($more slower, $less slower by less" \
    "query compare -p threshold=5: the same counts"
run bd report compare -p plan=crc -p a=base -p b=head -p threshold=5 -o th.html
expect_rc 0 "report compare -p threshold=5"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' th.html | sed 's/, [0-9]* faster.*//')" \
    "the gate fails: $more of 36 benchmarks slower or worse by more than 5%, $less benchmarks slower or worse by less" \
    "the page's headline: the same counts"
run bd history -n 1
expect_eq "$(head -n 1 "$T/err" | sed 's/.*(id [0-9]*): //')" \
    "regressed ($more of 36 benchmarks slower or worse by more than 5%)" "history quotes the page's count"
run bd compare --gate --metric nosuch --no-record base head
expect_rc 2 "--metric naming no metric of the plan: a usage error"
expect_err_has "error: compare: metric 'nosuch' has no values in plan crc; metrics: MB/s, primary" "it names the metrics"
run bd compare --gate --metric primary --no-record head base
expect_rc 3 "--gate: the other way round, other cells are slower"

# ---- usage errors ----
run bd compare base
expect_rc 2 "one side"
expect_err_has "compare: expected the two sides A and B" "its message"
run bd compare base base
expect_rc 2 "the same side twice"
run bd compare --by nothing base head
expect_rc 2 "--by"
run bd compare --sample forks base head
expect_rc 2 "--sample"
run bd compare --level 1 base head
expect_rc 2 "--level"
run bd compare --plan nope base head
expect_rc 2 "no such plan"
expect_err_has "compare: there is no plan 'nope'" "its message"
run bd compare --plan crc base tip
expect_rc 2 "no such run"
expect_err_has "compare: plan 'crc' has no run 'tip'" "its message"
# What runs of a store cannot take, and why.
run bd compare --plan crc base head base
expect_rc 2 "three runs"
expect_err_has "compare: runs of a store are compared two at a time, got 3 (name two runs, or give files)" "its message"
run bd compare --plan crc base head --record
expect_rc 2 "--record on runs"
expect_err_has "compare: --record on runs of a store: their comparison is recorded already (--no-record leaves it out)" \
    "its message"
run bd compare --plan crc base head --ignore note
expect_rc 2 "--ignore on runs"
expect_err_has "compare: --ignore on runs of a store: a configuration key is a file's line" "its message"
gb crc2 base "$D/old.txt"
gb crc2 head "$D/new.txt"
run bd compare base head
expect_rc 2 "two plans hold both"
expect_err_has "compare: run 'base' and run 'head' are in 2 plans (crc, crc2): choose one with --plan" "its message"
run bd compare --plan crc2 base head --format csv --no-record
expect_rc 0 "--plan chooses"

# ---- sides by variant: the git-perf versions, p by enumeration ----
bd ingest --quiet "$BENCHDB_SRC/examples/git-perf" || fail "ingest git-perf"
run bd compare --by variant --format csv --no-record v2.18.0 v2.19.0-rc0
expect_rc 0 "--by variant"
cp "$T/out" gitperf.csv
bd sql "SELECT v.name, s.value FROM sample s JOIN series se ON se.id = s.series_id
        JOIN variant v ON v.id = se.variant_id JOIN run r ON r.id = se.run_id JOIN plan p ON p.id = r.plan_id
        WHERE p.name = 'git-perf-p0001' AND s.warmup = 0" --format csv >gitperf-values.csv

# ---- sides by source and by attribute, one sample per run or block ----
python3 - <<'PY'
import json, random
random.seed(3)
with open("builds.jsonl", "w") as f:
    for i, (src, build) in enumerate([("aaa", "base")] * 3 + [("bbb", "head")] * 3):
        f.write(json.dumps({"record": "run", "format": "benchdb-run/1", "plan": "builds", "run": "r%d" % i,
                            "host": "h", "source": src, "attributes": {"build": build}}) + "\n")
        for block in (1, 2):
            scale = 1.0 if src == "aaa" else 1.08
            vals = [round(100 * scale * random.lognormvariate(0, 0.03), 3) for _ in range(4)]
            f.write(json.dumps({"record": "samples", "benchmark": "parse", "block": block, "variant": "v",
                                "unit": "ns/op", "values": vals}) + "\n")
            # the same cell in us/op on side b (converted), in ops/s in
            # one of its runs (a unit of another kind: left out)
            unit, div = ("us/op", 1000.0) if src == "bbb" else ("ns/op", 1.0)
            vals = [round(50 * scale * random.lognormvariate(0, 0.03), 3) / div for _ in range(4)]
            if i == 5:
                unit, vals = "ops/s", [1e7, 2e7]
            f.write(json.dumps({"record": "samples", "benchmark": "mixed", "block": block, "variant": "v",
                                "unit": unit, "values": vals}) + "\n")

PY
bd ingest --quiet builds.jsonl || fail "ingest builds.jsonl"
for how in "value" "run" "block"; do
    run bd compare --by source --sample "$how" --format csv --no-record aaa bbb
    expect_rc 0 "--by source --sample $how"
    cp "$T/out" "source-$how.csv"
done
run bd compare --by attr:build --format csv --no-record base head
expect_rc 0 "--by attr:build"
cp "$T/out" attr.csv
cmp -s attr.csv source-value.csv || fail "--by attr:build gives what --by source gives"
checks=$((checks + 1))
bd sql "SELECT r.source, r.name AS run, se.block, b.name AS benchmark, se.unit, s.value, s.count
        FROM sample s JOIN series se ON se.id = s.series_id JOIN run r ON r.id = se.run_id
        JOIN benchmark b ON b.id = se.benchmark_id JOIN plan p ON p.id = r.plan_id
        WHERE p.name = 'builds' AND s.warmup = 0" --format csv >builds-values.csv

# ---- sides by source: a revision abbreviated as git and the pages show it ----
python3 - <<'PY'
import json
with open("revs.jsonl", "w") as f:
    for i, src in enumerate(["1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e"] * 2 + ["1b2c3d4e5f6f00000000000000000000000000aa"] * 2
                            + ["9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807"] * 2 + ["abcdef01"] * 2 + ["abcdef0123456"] * 2):
        f.write(json.dumps({"record": "run", "format": "benchdb-run/1", "plan": "revs", "run": "r%d" % i,
                            "host": "h", "source": src}) + "\n")
        f.write(json.dumps({"record": "samples", "benchmark": "parse", "block": 1, "variant": "v", "unit": "ns/op",
                            "values": [100 + i + k for k in range(5)]}) + "\n")
PY
bd ingest --quiet revs.jsonl || fail "ingest revs.jsonl"
run bd compare --by source --format csv --no-record 1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807
expect_rc 0 "--by source, whole revisions"
cp "$T/out" revs-full.csv
run bd compare --by source --format csv --no-record 1b2c3d4e5f60 9e8d7c6
expect_rc 0 "--by source, each side the first 12 and 7 digits of one revision"
cmp -s "$T/out" revs-full.csv || fail "abbreviated revisions compare as the whole ones: $(diff revs-full.csv "$T/out" | head -3)"
run bd compare --by source 1b2c3d4e5f60 9e8d7c6
expect_rc 0 "recorded"
expect_eq "$(bd sql "SELECT params ->> '\$.a', params ->> '\$.b' FROM evaluation ORDER BY id DESC LIMIT 1" --format csv | tail -1 | tr -d '\r')" \
    "1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e,9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807" "the evaluation records the whole revisions"
run bd compare --by source --no-record 1b2c3d4e5f6 9e8d7c6
expect_rc 2 "a prefix of two revisions"
expect_err_has "error: compare: source '1b2c3d4e5f6' abbreviates more than one revision (1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e, 1b2c3d4e5f6f00000000000000000000000000aa): give more of it" \
    "is taken for neither, and says which"
run bd compare --by source --format csv --no-record abcdef01 9e8d7c6
expect_rc 0 "a whole source that also begins another"
expect_out_has "cell,parse,{},v,primary,ns/op,10,108.5," "is that source (runs r6, r7: median 108.5), not an abbreviation of two"
# --exact-units on a store takes a unit as stored (ns/op) or as the table
# shows it (sec/op), as on files: the same table either way, the stored
# unit recorded; one that no row has changed nothing, silently: warned
# about, with the units there are, both ways.
run bd compare --by source --no-record 1b2c3d4e5f60 9e8d7c6 --exact-units ns/op
grep -q "warning" "$T/err" && fail "--exact-units ns/op: no warning: $(cat "$T/err")"
cp "$T/out" exact-stored.txt
run bd compare --by source 1b2c3d4e5f60 9e8d7c6 --exact-units sec/op
expect_rc 0 "--exact-units as the table shows the unit"
grep -q "warning" "$T/err" && fail "--exact-units sec/op: no warning: $(cat "$T/err")"
expect_eq "$(cat "$T/out")" "$(cat exact-stored.txt)" "--exact-units sec/op: the table of --exact-units ns/op"
expect_eq "$(bd sql "SELECT params ->> 'exact_units' FROM evaluation ORDER BY id DESC LIMIT 1" --format csv | tail -n 1 | tr -d '\r')" \
    "ns/op" "bound and recorded as stored"
run bd compare --by source --no-record 1b2c3d4e5f60 9e8d7c6 --exact-units secs
expect_rc 0 "--exact-units naming a unit no row has"
expect_err_has "warning: compare: --exact-units: no unit named 'secs'" "is warned about"
expect_err_has "units: ns/op, sec/op: nothing assumed exact for it" "naming the units the rows have, as stored and as shown"
# A head whose values are in a unit of another kind (ns for the base's
# ops/s) has them left out with a warning: the CSV said so, the table and
# the comment did not (the cell is not compared, and the note hung on the
# comparison).
printf 'benchmark,unit,value\nparse,ops/s,1000\nparse,ops/s,1010\n' >kinds-a.csv
printf 'benchmark,unit,value\nparse,ns,1000\nparse,ns,1010\n' >kinds-b.csv
bd ingest -q --plan kinds --run base --host h kinds-a.csv || fail "ingest kinds-a.csv"
bd ingest -q --plan kinds --run head --host h kinds-b.csv || fail "ingest kinds-b.csv"
run bd compare --plan kinds --no-record base head
expect_rc 0 "a head in a unit of another kind"
grep -q "^parse .* ± ∞ ¹ ²$" "$T/out" || fail "the base's value carries the notes: $(grep '^parse' "$T/out")"
expect_out_has "² 2 values in a unit that does not convert to ops/s left out" "the note under the table"
run bd compare --plan kinds --no-record base head --format markdown
expect_out_has "² 2 values in a unit that does not convert to ops/s left out" "and in the comment's fold"
# A metric whose values are negative, on a store: the verdict follows the
# median (up from -9.65 to -4.65: higher), not the change's sign
python3 - <<'PY' || fail "write the negative pair"
for f, m in (("neg_a.txt", -10.0), ("neg_b.txt", -5.0)):
    with open(f, "w") as o:
        for i in range(8):
            o.write("BenchmarkX-8 100 %d ns/op %.1f delta/op\n" % (100 + i, m + i / 10))
PY
bd ingest -q --plan neg --run base --host h neg_a.txt || fail "ingest neg_a.txt"
bd ingest -q --plan neg --run head --host h neg_b.txt || fail "ingest neg_b.txt"
run bd compare --plan neg --no-record --metric delta/op --format csv base head
grep -q '^cell,BenchmarkX,.*,delta/op,8,-9.649999999999999,.*,8,-4.65,.*,-51.8134715025906[0-9],.*,higher,' "$T/out" ||
    fail "on a store, a negative median moving up is higher: $(grep '^cell' "$T/out")"
# An allocation added, on a store: worse, and the gate fails (it passed:
# a median_a of 0 made the verdict "?")
python3 - <<'PY' || fail "write the allocation pair"
for f, a in (("alloc_a.txt", 0), ("alloc_b.txt", 1)):
    with open(f, "w") as o:
        for i in range(10):
            o.write("BenchmarkX-8 100 %d ns/op %d B/op %d allocs/op\n" % (100 + i % 3, 16 * a, a))
PY
bd ingest -q --plan alloc --run base --host h alloc_a.txt || fail "ingest alloc_a.txt"
bd ingest -q --plan alloc --run head --host h alloc_b.txt || fail "ingest alloc_b.txt"
run bd compare --plan alloc --no-record --gate --threshold 50 --format csv base head
expect_rc 3 "on a store, an allocation added fails the gate"
grep -q '^cell,BenchmarkX,.*,B/op,B/op,10,0.0,.*,10,16.0,.*,,.*,worse,,0,regressed,0' "$T/out" ||
    fail "0 to 16 B/op: change NULL, worse, no_regression 0: $(grep '^cell.*B/op' "$T/out")"
# A full disk: the error says so, and no stale reason (it said "Bad file
# descriptor", the errno of closing the store after the failed write)
if [ -w /dev/full ]; then
    bd compare --plan neg --no-record base head >/dev/full 2>"$T/err"
    rc=$?
    expect_rc 1 "the comparison written to a full disk"
    expect_err_has "error: compare: cannot write the output: No space left on device" "says why"
    checks=$((checks + 1))
    grep -q "Bad file descriptor" "$T/err" && fail "a stale reason: $(cat "$T/err")"
    checks=$((checks + 1))
    grep -q "cannot write to standard output" "$T/err" && fail "the failure said twice: $(cat "$T/err")"
fi
# One score per run: 2 runs a side, too few for the U test to reach
# 0.05. On files such cells are counted inconclusive and listed with
# their change; on a store they were counted unchanged and hidden.
run bd compare --by source --no-record --sample run --format markdown 1b2c3d4e5f60 9e8d7c6
expect_rc 0 "--sample run, two runs a side"
expect_eq "$(head -n 1 "$T/out" | cut -d'(' -f1)" "**0 slower, 0 faster, 1 inconclusive, 0 unchanged** " \
    "on a store, too few samples are inconclusive"
expect_out_has "| parse | sec/op | 102.5n ± ∞ | 106.5n ± ∞ | +3.90% | 0.333 | inconclusive |" "and listed with the change (run means 102, 103 and 106, 107)"
# A side that abbreviates the other: one revision on both sides, which
# printed a table of two equal columns that compared nothing
run bd compare --by source --no-record 9e8d7c6 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807
expect_rc 2 "a side abbreviating the other"
expect_err_has "error: compare: A and B are both source '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807' (9e8d7c6 abbreviates it)" \
    "says so"
# query compare with one side twice compared it with nothing (side b
# empty in every row) and said 'no regression'; it needs two sides
run bd query compare -p plan=revs -p by=source -p a=9e8d7c6 -p b=9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807 --no-record
expect_rc 4 "query compare, one side twice"
expect_err_has "a and b both name 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807, which compares a side with nothing" "says so"
# by = attr without key: it said "No cell compared: ... share no cell"
run bd query compare -p plan=revs -p by=attr -p a=1 -p b=2 --no-record
expect_rc 4 "query compare by attr without key"
expect_err_has "by = attr compares values of a run attribute: name it with key (-p key=NAME)" "says what is missing"
# The same abbreviations as the saved query's parameters, which refused
# them ("source '9e8d7c6' is the source of no run of plan revs"): bound
# and recorded whole, in a side and in versions' list of sides.
run bd query compare -p plan=revs -p by=source -p a=1b2c3d4e5f60 -p b=9e8d7c6 --format csv --no-record
expect_rc 0 "query compare -p a=, b= abbreviated"
cmp -s "$T/out" revs-full.csv || fail "query compare: abbreviated revisions compare as the whole ones: $(diff revs-full.csv "$T/out" | head -3)"
run bd query compare -p plan=revs -p by=source -p a=1b2c3d4e5f60 -p b=9e8d7c6
expect_rc 0 "query compare, recorded"
expect_eq "$(bd sql "SELECT params ->> '\$.a', params ->> '\$.b' FROM evaluation ORDER BY id DESC LIMIT 1" --format csv | tail -1 | tr -d '\r')" \
    "1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e,9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807" "query compare records the whole revisions"
run bd query compare -p plan=revs -p by=source -p a=1b2c3d4e5f6 -p b=9e8d7c6 --no-record
expect_rc 2 "query compare: a prefix of two revisions"
expect_err_has "error: query compare: a: source '1b2c3d4e5f6' abbreviates more than one revision of plan revs (1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e, 1b2c3d4e5f6f00000000000000000000000000aa): give more of it" \
    "query compare: taken for neither, and says which"
run bd query compare -p plan=revs -p by=source -p a=abcdef01 -p b=9e8d7c6 --format csv --no-record
expect_rc 0 "query compare: a whole source that also begins another"
expect_out_has "cell,parse,{},v,primary,ns/op,10,108.5," "query compare: is that source, not an abbreviation of two"
run bd query versions -p plan=revs -p by=source -p versions=9e8d7c6,1b2c3d4e5f60 -p aggregate=median --format csv
expect_rc 0 "query versions -p versions= abbreviated"
expect_out_has "parse,{},v,primary,ns/op,9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807,10," "versions: the first, whole"
expect_out_has "parse,{},v,primary,ns/op,1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e,10," "versions: the second, whole"
# Another plan with a revision 9e8d7c6 also begins: with --plan revs the
# abbreviation is that plan's one revision (it was refused as ambiguous,
# its two revisions looked for in every plan); without --plan, ambiguous.
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"revs2","run":"x","host":"h","source":"9e8d7c6fff"}' \
    '{"record":"samples","benchmark":"parse","block":1,"variant":"v","unit":"ns/op","values":[1,2,3]}' >revs2.jsonl
bd ingest --quiet revs2.jsonl || fail "ingest revs2.jsonl"
run bd compare --plan revs --by source --format csv --no-record 1b2c3d4e5f60 9e8d7c6
expect_rc 0 "--plan revs: 9e8d7c6 abbreviates one revision of the plan"
cmp -s "$T/out" revs-full.csv || fail "--plan revs: the plan's revisions: $(diff revs-full.csv "$T/out" | head -3)"
run bd query compare -p plan=revs -p by=source -p a=1b2c3d4e5f60 -p b=9e8d7c6 --format csv --no-record
expect_rc 0 "query compare -p plan=revs: the same"
run bd compare --by source --no-record 1b2c3d4e5f60 9e8d7c6
expect_rc 2 "without --plan: two revisions in two plans"
expect_err_has "error: compare: source '9e8d7c6' abbreviates more than one revision (9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807, 9e8d7c6fff)" \
    "names both"
bd delete --plan revs2 >/dev/null 2>&1 || fail "delete --plan revs2"

# ---- sides by host: every run of each host ----
bd ingest --quiet "$BENCHDB_SRC"/examples/calibration/*.jsonl.zst || fail "ingest the calibration plan"
run bd compare --by host --format csv --no-record sim-p3-vm-a sim-p3-vm-b
expect_rc 0 "--by host"
cp "$T/out" hosts.csv
# One cell against the store: n and the median of each side are those of
# the host's values over both its runs (benchdb's median() in SQL).
bd sql --format csv "SELECT h.name, count(*) AS n, median(s.value) AS m FROM sample s JOIN series se ON se.id = s.series_id
    JOIN run r ON r.id = se.run_id JOIN host h ON h.id = r.host_id JOIN benchmark b ON b.id = se.benchmark_id
    JOIN variant v ON v.id = se.variant_id
    WHERE b.name = 'serialize' AND b.params ->> '\$.workload' = 'small' AND v.name = 'native' AND s.warmup = 0
    AND h.name IN ('sim-p3-vm-a', 'sim-p3-vm-b') GROUP BY h.name ORDER BY h.name" --digits 17 >hosts-sql.csv ||
    fail "the hosts' values"
python3 - hosts.csv hosts-sql.csv <<'PY' || fail "--by host: n and medians are each host's over its runs"
import csv, sys
row = next(r for r in csv.DictReader(open(sys.argv[1])) if r["benchmark"] == "serialize"
           and '"workload":"small"' in r["params"] and r["variant"] == "native")
want = {r["name"]: r for r in csv.DictReader(open(sys.argv[2]))}
a, b = want["sim-p3-vm-a"], want["sim-p3-vm-b"]
assert (row["n_a"], row["n_b"]) == (a["n"], b["n"]) == ("100", "100"), (row["n_a"], row["n_b"], a, b)
assert float(row["median_a"]) == float(a["m"]) and float(row["median_b"]) == float(b["m"]), (row, a, b)
PY
checks=$((checks + 1))
run bd compare --by host --no-record sim-p3-vm-a sim-p3-vm-x
expect_rc 2 "a host the store does not hold"
expect_err_has "error: compare: no plan has host 'sim-p3-vm-x'; did you mean 'sim-p3-vm-a'?" "names the nearest"
run bd query compare --no-record -p plan=calibration-sim -p by=host -p a=sim-p3-vm-a -p b=sim-p3-vm-z
expect_rc 2 "query compare: a host the plan does not hold"
expect_err_has "host 'sim-p3-vm-z' ran no run of plan calibration-sim" "says so"

# ---- values with counts (JMH sample mode) ----
jmh() { # FILE VALUES-BINS
    printf '[{"benchmark":"b.Hist.run","mode":"sample","threads":1,"params":{},"primaryMetric":{"score":1,"scoreUnit":"ms/op","rawDataHistogram":[%s]},"secondaryMetrics":{}}]\n' "$2" >"$1"
}
jmh hist-a.json '[[[10.0,3],[12.0,1]],[[11.0,2]]]'
jmh hist-b.json '[[[13.0,4]],[[12.5,2],[14.0,1]]]'
bd ingest --quiet --format jmh --plan hist --run a --host h hist-a.json || fail "ingest hist-a"
bd ingest --quiet --format jmh --plan hist --run b --host h hist-b.json || fail "ingest hist-b"
run bd compare --format csv --no-record a b
expect_rc 0 "compare values with counts"
cp "$T/out" hist.csv

run python3 - "$BENCHDB_SRC/tests/cli/lib" <<'PY'
import csv, itertools, statistics, sys
sys.path.insert(0, sys.argv.pop(1))
from checks import Checks
t = Checks()
check = t.check
def close(got, exp, what, rel=1e-12):
    t.close(got, exp, what, rel)

def benchstat_p(a, b):
    # go-moremath's exact U test (the conditional distribution given the
    # ties, by enumerating every split): 2 P(U <= min(u, n1 n2 - u))
    allv = sorted(a + b)
    rank = {}
    for v in set(allv):
        first = allv.index(v) + 1
        rank[v] = first + (allv.count(v) - 1) / 2
    ranks = [rank[v] for v in allv]
    n1 = len(a)
    u = sum(rank[v] for v in a) - n1 * (n1 + 1) / 2
    m = n1 * len(b)
    if u == m - u:
        return 1.0
    small = min(u, m - u)
    if len(rank) == len(allv):
        # no ties: the counts of U, c(k; i, j) = c(k - j; i - 1, j) + c(k; i, j - 1)
        n2 = len(b)
        c = [[[1] + [0] * m for _ in range(n2 + 1)]]
        for i in range(1, n1 + 1):
            row = [[1] + [0] * m]
            for j in range(1, n2 + 1):
                row.append([(c[i - 1][j][k - j] if k >= j else 0) + row[j - 1][k] for k in range(m + 1)])
            c.append(row)
        counts = c[n1][n2]
        return sum(counts[:int(small) + 1]) / sum(counts) * 2
    le = total = 0
    for s in itertools.combinations(ranks, n1):
        total += 1
        le += sum(s) - n1 * (n1 + 1) / 2 <= small
    return le / total * 2

def rows(path):
    return [r for r in csv.DictReader(open(path, newline="")) if r["kind"] == "cell"]

# git-perf, by variant
vals = {}
for r in csv.DictReader(open("gitperf-values.csv", newline="")):
    vals.setdefault(r["name"], []).append(float(r["value"]))
(r,) = rows("gitperf.csv")
a, b = vals["v2.18.0"], vals["v2.19.0-rc0"]
close(r["median_a"], statistics.median(a), "git-perf median v2.18.0")
close(r["median_b"], statistics.median(b), "git-perf median v2.19.0-rc0")
close(r["change"], (statistics.median(b) / statistics.median(a) - 1) * 100, "git-perf change")
close(r["p"], benchstat_p(a, b), "git-perf p (enumerated)")
check(r["verdict"] == "slower", "git-perf verdict %r" % r["verdict"])
check(r["variant"] == "", "by variant: no variant column value")

# builds: by source, per value, run and block
data = {}
for r in csv.DictReader(open("builds-values.csv", newline="")):
    v = float(r["value"]) * (1000.0 if r["unit"] == "us/op" else 1.0)
    if r["unit"] == "ops/s":
        continue
    data.setdefault((r["benchmark"], r["source"]), []).append((r["run"], r["block"], v))
for how in ("value", "run", "block"):
    got = {r["benchmark"]: r for r in rows("source-%s.csv" % how)}
    for bench in ("parse", "mixed"):
        sides = []
        for src in ("aaa", "bbb"):
            obs = data[(bench, src)]
            if how == "value":
                xs = [v for _, _, v in obs]
            else:
                groups = {}
                for run, block, v in obs:
                    groups.setdefault(run if how == "run" else (run, block), []).append(v)
                xs = [sum(g) / len(g) for g in groups.values()]
            sides.append(xs)
        r = got[bench]
        check(int(r["n_a"]) == len(sides[0]) and int(r["n_b"]) == len(sides[1]),
              "%s %s: n %s+%s, expected %d+%d" % (how, bench, r["n_a"], r["n_b"], len(sides[0]), len(sides[1])))
        close(r["median_a"], statistics.median(sides[0]), "%s %s median_a" % (how, bench), 1e-9)
        close(r["median_b"], statistics.median(sides[1]), "%s %s median_b" % (how, bench), 1e-9)
        check(r["unit"] == "ns/op", "%s %s: side a's unit, got %s" % (how, bench, r["unit"]))
        if how == "value":
            close(r["p"], benchstat_p(sides[0], sides[1]), "%s %s p" % (how, bench))
    warn = got["mixed"]["warnings"]
    check("4 values in a unit that does not convert to ns/op left out" in warn,
          "%s: the ops/s values are left out: %r" % (how, warn))
    check("left out" not in got["parse"]["warnings"], "%s: parse has nothing left out" % how)
check(int(rows("source-run.csv")[0]["n_a"]) == 3, "one sample per run: 3 runs")

# values with counts: a = 10 x3, 12, 11 x2; b = 13 x4, 12.5 x2, 14
(r,) = rows("hist.csv")
a = [10.0] * 3 + [12.0] + [11.0] * 2
b = [13.0] * 4 + [12.5] * 2 + [14.0]
check(r["n_a"] == "6" and r["n_b"] == "7", "counts: n %s+%s" % (r["n_a"], r["n_b"]))
close(r["median_a"], statistics.median(a), "counts: median_a")
close(r["median_b"], statistics.median(b), "counts: median_b")
t.finish(least=40)
PY
expect_rc 0 "the numbers recomputed from the values"
cat "$T/out"

# ---- units shown alike are one table, as on files ----
# One benchmark measured in ns, another in s (two harnesses' units of
# time): both show as sec, one table with one geomean, the same table as
# the files give; not two tables both headed sec.
{ echo benchmark,unit,value; for v in 100 102 101 99 100 101; do echo fast,ns,$v; done
  for v in 1.5 1.6 1.55 1.52 1.58 1.57; do echo slow,s,$v; done; } >u-base.csv
{ echo benchmark,unit,value; for v in 110 112 111 109 110 111; do echo fast,ns,$v; done
  for v in 1.5 1.6 1.55 1.52 1.58 1.57; do echo slow,s,$v; done; } >u-head.csv
bd ingest -q --plan units --run base --host h u-base.csv && bd ingest -q --plan units --run head --host h u-head.csv ||
    fail "ingest the units' plan"
run bd compare --plan units base head --no-record
expect_rc 0 "compare, ns and s"
expect_eq "$(grep -c '│ *sec *│' "$T/out")" 1 "ns and s: one table headed sec"
expect_out_has "geomean   396.0µ        415.2µ       +4.86%" "its geomean over both cells, in seconds"
cp "$T/out" units-store.txt
run bd compare base=u-base.csv head=u-head.csv
expect_eq "$(cat units-store.txt)" "$(cat "$T/out")" "ns and s on a store: the table of the files"

finish
