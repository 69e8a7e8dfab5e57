# benchdb compare on files, without a store, against benchstat v2's own
# output (tests/data/benchstat/README.md, "compare on files"): every golden
# whose options benchdb has, and six generated pairs (benchstat v2's output
# on gen.py's files), must print the same bytes with --benchstat; then the
# sides (several files, -, labels, more than two), other harnesses' files,
# CSV, the gate, and the usage errors.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
D=$BENCHDB_SRC/tests/data/benchstat
G=$D/generated


# same NAME GOLDEN DIR ARGS...: `benchdb compare --benchstat ARGS` run in
# DIR prints GOLDEN byte for byte.
same() {
    name=$1 golden=$2 dir=$3
    shift 3
    (cd "$dir" && "$BENCHDB_BIN" compare --benchstat "$@") >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    expect_rc 0 "$name"
    checks=$((checks + 1))
    cp "$golden" "$T/$name.want"
    cp "$T/$name.out" "$T/$name.got"
    if ! cmp -s "$T/$name.want" "$T/$name.got"; then
        fail "$name: differs from $golden"
        diff "$T/$name.want" "$T/$name.got" | head -n 20 | sed 's/^/  /' >&2
    fi
}

# ---- benchstat's goldens (golang/perf cmd/benchstat/testdata) ----
same example01 "$D/example01.stdout" "$D" old.txt new.txt
same example03 "$D/example03.stdout" "$D" old.txt new.txt
same example08 "$D/example08.stdout" "$D" O=old.txt N=new.txt
same crcOldNew "$D/crcOldNew.stdout" "$D" crc-old.txt crc-new.txt
same crcIgnore "$D/crcIgnore.stdout" "$D" --ignore note crc-old.txt crc-new.txt
# benchstat -col note FILE: the file's two notes as two files, labelled
for c in smallSample issue19565 issue19634 units zero; do
    same "$c" "$D/$c.stdout" "$D/compare" "before=$c-before.txt" "after=$c-after.txt"
done

# ---- generated pairs: benchstat v2's output on gen.py's files ----
for p in p00 p01 p02 p03 p04 p05; do
    same "$p" "$G/$p/benchstat.txt" "$G/$p" base.txt head.txt
done

# ---- benchdb's columns after benchstat's ----
run sh -c "cd '$D' && '$BENCHDB_BIN' compare old.txt new.txt"
expect_rc 0 "compare with benchdb's columns"
python3 - "$T/example01.out" "$T/out" <<'PY' || fail "each line of benchstat's table starts the line with benchdb's columns"
import sys
plain, full = (open(p, encoding="utf-8").read().splitlines() for p in sys.argv[1:])
assert len(plain) == len(full), (plain, full)
for p, f in zip(plain, full):
    assert f.startswith(p), (p, f)
PY
checks=$((checks + 1))
expect_out_has "95% CI" "the change's interval has a header"
grep -q "^Encode/format=json-48 .* -17.20% (p=0.000 n=10) *\[-18.0%, -16.6%\] faster$" "$T/out" ||
    fail "a row's Hodges-Lehmann interval of the change and its verdict"
expect_err_has "compare: no regression" "the outcome on stderr"
# The change (of the medians, benchstat's) and the interval beside it (of
# the shift, Hodges-Lehmann) estimate different things: where the head's
# values change in shape (a cluster just above the base's, a tail far
# above) the medians fall while the shift is up; the line says so.
python3 - <<'PY' || fail "write the bimodal pair"
with open("shape_a.csv", "w") as a, open("shape_b.csv", "w") as b:
    a.write("benchmark,metric,unit,value\n")
    b.write("benchmark,metric,unit,value\n")
    for i in range(300):
        q = (i + 0.5) / 300
        a.write("shape,,ns,%.6f\nshift,,ns,%.6f\n" % (100 + 10 * q, 100 + 10 * q))
        b.write("shape,,ns,%.6f\nshift,,ns,%.6f\n" % (101 + 2 * q / 0.55 if q < 0.55 else 110 + 100 * (q - 0.55),
                                                     102 + 10 * q))
PY
run bd compare shape_a.csv shape_b.csv
expect_rc 0 "a change in shape"
expect_out_has "shift 95% CI" "the interval's header says it is the shift's"
grep -q "^shape .* -2.08% (p=0.011 n=300) *\[+0.2%, +2.3%\] faster ¹$" "$T/out" ||
    fail "the medians' change outside the shift's interval is marked: $(grep '^shape' "$T/out")"
grep -q "^shift .* \[+1.[0-9]%, +2.[0-9]%\] slower$" "$T/out" || fail "a change inside its interval is not marked"
expect_out_has "¹ the change (of the medians, benchstat's) lies outside the shift's interval (Hodges-Lehmann: the typical difference between the two sides' values): the values changed in shape, not by one shift" \
    "and the note says why"
run bd compare shape_a.csv shape_b.csv --benchstat
expect_rc 0 "the same, --benchstat"
expect_out_has "-2.08% (p=0.011 n=300)" "benchstat's change is kept"
grep -q "¹\|shift's interval" "$T/out" && fail "--benchstat: no benchdb note"
# A head with a benchmark the base lacks: the head's geomean is over one
# row more than the change's ratios, and the table says so as the query
# on a store does (benchstat warns only the other way round: --benchstat).
python3 - <<'PY' || fail "write the pair"
rows = "".join("%s,ns,%d\n" % (b, v + k) for b, v in (("x", 100), ("y", 200)) for k in range(6))
open("set_a.csv", "w").write("benchmark,unit,value\n" + rows)
open("set_b.csv", "w").write("benchmark,unit,value\n" + rows + "".join("new,ns,%d\n" % (5 + k) for k in range(6)))
PY
run bd compare set_a.csv set_b.csv
expect_rc 0 "a benchmark only in the head"
grep -q "^geomean .* +0.00% *¹$" "$T/out" || fail "the geomean row carries the note: $(grep '^geomean' "$T/out")"
expect_out_has "¹ benchmark set differs from baseline; geomeans may not be comparable" "the note under the table"
run bd compare set_a.csv set_b.csv --format csv
expect_out_has "benchmark set differs from baseline; geomeans may not be comparable" "and in the geomean row's warnings"
run bd compare set_a.csv set_b.csv --benchstat
grep -q "differs from baseline" "$T/out" && fail "--benchstat: benchstat's text, no such note"
# --digits rounds vertical output; the table and the comment are
# benchstat's digits, where it changed nothing: refused, not ignored.
run bd compare set_a.csv set_b.csv --digits 2
expect_rc 2 "--digits with the table"
expect_err_has "error: compare: --digits: the table shows benchstat's digits" "says why"
run bd compare set_a.csv set_b.csv --digits 2 --format markdown
expect_rc 2 "--digits with the comment"
run bd compare set_a.csv set_b.csv --digits 2 --format vertical
expect_rc 0 "--digits with vertical output"
expect_out_has "median_a = 1e-07" "rounds its reals to 2 digits"
run bd compare set_a.csv set_b.csv --wide
expect_rc 2 "--wide: benchstat's table never turns vertical"
# --plan or --by with two files and no store: it said "results.db: no
# store here (run 'benchdb init' ...)", as if the files needed one
run bd compare --by variant set_a.csv set_b.csv
expect_rc 2 "--by with two files and no store"
expect_err_has "error: compare: --by: 'set_a.csv' and 'set_b.csv' are files, which compare without it" "says so"
# --only-changed with the comment: its first line still counts every
# cell (it said "0 slower, 0 faster, 0 unchanged", the added one and the
# unchanged ones dropped), and the fold holds every benchmark.
run bd compare set_a.csv set_b.csv --only-changed --format markdown
expect_rc 0 "--only-changed --format markdown"
expect_eq "$(head -n 1 "$T/out" | cut -d'(' -f1)" "**0 slower, 0 faster, 1 added, 2 unchanged** " "the answer counts every cell"
expect_out_has "<details><summary>All 3 benchmarks, as benchstat prints them</summary>" "and folds all of them"
# --only-changed when no cell changed: table and vertical output said it
# only on stderr, so a file redirected from them was empty; they say so
# on stdout now, with the counts. CSV keeps its header, JSON its [] (both
# still parse), Markdown its own "No cell changed.". On a store's runs too.
printf 'benchmark,unit,value\nlonely,ns,5\n' >other_only.csv
for f in table vertical; do
    run bd compare set_a.csv same=set_a.csv --only-changed --format $f
    expect_rc 0 "--only-changed --format $f, nothing changed"
    expect_out "No cell changed (0 slower, 0 faster, 2 unchanged)." "--only-changed --format $f: stdout says nothing changed"
done
run bd compare set_a.csv same=set_a.csv --only-changed --format csv
expect_eq "$(cat "$T/out" | tr -d '\r' | cut -d, -f1-3)" "a,b,kind" "--only-changed --format csv: the header alone"
run bd compare set_a.csv same=set_a.csv --only-changed --format json
expect_out "[]" "--only-changed --format json: an empty array"
run bd compare set_a.csv other=other_only.csv --only-changed --format table
expect_out "No cell was compared (0 slower, 0 faster, 2 removed, 1 added, 0 unchanged)." \
    "--only-changed, nothing compared: said so"
bd init --db oc.db >/dev/null
bd ingest --db oc.db --plan p --run base --host h set_a.csv >/dev/null 2>&1 || fail "ingest base"
bd ingest --db oc.db --plan p --run head --host h set_a.csv >/dev/null 2>&1 || fail "ingest head"
for f in table vertical; do
    run bd compare --db oc.db --no-record base head --only-changed --format $f
    expect_rc 0 "a store's runs: --only-changed --format $f"
    expect_out "No cell changed (0 slower, 0 faster, 2 unchanged)." "a store's runs: --only-changed --format $f says so"
done
# The saved query's options do nothing on files: refused, not ignored
for o in "--timeout 5" "--max-rows 1" "--max-result-bytes 1M" "--queries ."; do
    run bd compare set_a.csv set_b.csv $o
    expect_rc 2 "$o on files"
    expect_err_has "error: compare: ${o%% *} applies to the saved query 'compare' on a store; files are compared without one" \
        "$o on files: says why"
done
# The comment's "Nothing compared" line names the sides: escaped as every
# other name in the comment (it rendered "*x*" in italics, "<b>" as HTML)
printf 'benchmark,unit,value\nother,ns,5\n' >other.csv
run bd compare '*x*|y=set_a.csv' '<b>@z=other.csv' --format markdown
expect_eq "$(head -n 1 "$T/out")" "**Nothing compared** (0 slower, 0 faster, 2 removed, 1 added, 0 unchanged): no cell has values both in \*x\*\|y and in another side — gate: nothing compared" \
    "the nothing-compared line escapes the side's label"
# The benchmarks counted removed and added are named in the comment (it
# said "1 added" and "No cell changed.", the name only in the fold), each
# escaped; past ten, how many more.
expect_out_has "- 2 removed (in \*x\*\|y, not in \<b\>@&#8203;z): " "nothing compared: the removed ones named"
expect_out_has "- 1 added (in \<b\>@&#8203;z, not in \*x\*\|y): other" "nothing compared: the added one named"
run bd compare set_a.csv set_b.csv --format markdown
expect_out_has "- 1 added (in set_b.csv, not in set_a.csv): new" "the added one named"
python3 - <<'PY' || fail "write the many removed"
with open("many_a.txt", "w") as a, open("many_b.txt", "w") as b:
    for i in range(13):
        a.write("BenchmarkGone%02d 1 100 ns/op\n" % i)
    a.write("BenchmarkKept 1 100 ns/op\n")
    b.write("BenchmarkKept 1 100 ns/op\n")
PY
run bd compare many_a.txt many_b.txt --format markdown
expect_out_has "- 13 removed (in many_a.txt, not in many_b.txt): Gone00, Gone01, Gone02, Gone03, Gone04, Gone05, Gone06, Gone07, Gone08, Gone09 and 3 more" \
    "past ten removed, how many more"
# A metric whose values are negative: the median went up from -9.65 to
# -4.65, which the change's sign (-51.81%, of the ratio) turned over into
# the verdict "lower"
python3 - <<'PY' || fail "write the negative pair"
for f, m in (("neg_a.txt", -10.0), ("neg_b.txt", -5.0)):
    with open(f, "w") as o:
        for i in range(8):
            o.write("BenchmarkX-8 100 %d ns/op %.1f delta/op\n" % (100 + i, m + i / 10))
PY
run bd compare neg_a.txt neg_b.txt
expect_rc 0 "negative values"
grep -q "^X-8 .* -51.81% (p=0.000 n=8) .* higher$" "$T/out" || fail "a negative median moving up is higher: $(grep '^X-8 .*delta\|^X-8' "$T/out" | tail -1)"
# An allocation added: 0 to 16 B/op, 0 to 1 allocs/op (p = 0.000). The
# change is undefined (benchstat's "?"), and the verdict was "?" too, so
# the gate passed; it is worse, by more than any threshold.
python3 - <<'PY' || fail "write the allocation pair"
for f, a in (("alloc_a.txt", 0), ("alloc_b.txt", 1)):
    with open(f, "w") as o:
        for i in range(10):
            o.write("BenchmarkX-8 100 %d ns/op %d B/op %d allocs/op\n" % (100 + i % 3, 16 * a, a))
PY
run bd compare alloc_a.txt alloc_b.txt --gate --threshold 50
expect_rc 3 "an allocation added fails the gate, whatever the threshold"
grep -q "^X-8 *0.00 ± 0% *16.00 ± 0% *? (p=0.000 n=10) *worse$" "$T/out" || fail "0 to 16 B/op: ?, worse: $(grep -A3 'B/op' "$T/out")"
run bd compare alloc_a.txt alloc_b.txt --format markdown
expect_eq "$(head -n 1 "$T/out" | cut -d'(' -f1)" "**0 slower, 1 worse, 0 faster, 0 unchanged** " "the comment counts it worse"
expect_out_has "| X-8 | allocs/op | 0.000 ± 0% | 1.000 ± 0% | ? | 0.000 | worse |" "and lists it"
# Two machines of another GOMAXPROCS: every name differs in its -N suffix
# alone, and nothing is compared; the first line said only that
printf 'BenchmarkA-8 100 50 ns/op\nBenchmarkA-8 100 51 ns/op\n' >procs8.txt
printf 'BenchmarkA-16 100 50 ns/op\nBenchmarkA-16 100 51 ns/op\n' >procs16.txt
run bd compare procs8.txt procs16.txt --format markdown
expect_eq "$(head -n 1 "$T/out")" "**Nothing compared** (0 slower, 0 faster, 1 removed, 1 added, 0 unchanged): no cell has values both in procs8.txt and in another side; the same benchmarks are on both sides under another -N suffix (GOMAXPROCS, part of the name as in benchstat): A-8 in procs8.txt, A-16 in procs16.txt — gate: nothing compared" \
    "nothing compared: the -N suffix named"
# The same benchmarks under other parameters (a sub-benchmark's, JMH's
# @Param): the first line said only that nothing was compared
printf 'BenchmarkA/size=1-8 100 50 ns/op\nBenchmarkA/size=1-8 100 51 ns/op\n' >size1.txt
printf 'BenchmarkA/size=2-8 100 50 ns/op\nBenchmarkA/size=2-8 100 51 ns/op\n' >size2.txt
run bd compare size1.txt size2.txt --format markdown
expect_eq "$(head -n 1 "$T/out")" "**Nothing compared** (0 slower, 0 faster, 1 removed, 1 added, 0 unchanged): no cell has values both in size1.txt and in another side; the same benchmarks are on both sides under other parameters: A/size=1-8 in size1.txt, A/size=2-8 in size2.txt — gate: nothing compared" \
    "nothing compared: the parameters named"
run bd compare "$BENCHDB_SRC/tests/data/harness/jmh/github-action-benchmark_jmh_output.json" \
    "$BENCHDB_SRC/tests/data/harness/jmh/github-action-benchmark_jmh_output_2.json"
expect_err_has "the same benchmarks are on both sides under other parameters: org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere in " \
    "JMH: a @Param added"
# --exact-units naming a unit the files lack changed nothing, silently
run bd compare set_a.csv set_b.csv --exact-units B/op
expect_rc 0 "--exact-units naming a unit the files lack"
expect_err_has "warning: compare: --exact-units: no unit named 'B/op'; units: ns, sec: nothing assumed exact for it" \
    "a warning names the units there are, as written and as shown"
run bd compare set_a.csv set_b.csv --exact-units sec --format csv
expect_out_has "set_a.csv,set_b.csv,cell,x,{},,primary,sec,6,1.0000000000000001e-07," "sec (as shown) is the unit: x's mode"
grep -q "warning" "$T/err" && fail "--exact-units sec: no warning: $(cat "$T/err")"

# ---- sides: several files, standard input, labels, more than two ----
# crc-old.txt in two files (runs 1-5, 6-10 of each benchmark) is crc-old.txt
awk '/^Benchmark/ { n[$1]++; if (n[$1] > 5) next } { print }' "$D/crc-old.txt" >old-1.txt
awk '/^Benchmark/ { n[$1]++; if (n[$1] <= 5) next } { print }' "$D/crc-old.txt" >old-2.txt
same split "$D/crcIgnore.stdout" "$T" --ignore note crc-old.txt=old-1.txt,old-2.txt "crc-new.txt=$D/crc-new.txt"
cp "$D/new.txt" new.txt
run sh -c "'$BENCHDB_BIN' compare --benchstat old.txt=- new.txt <'$D/old.txt'"
expect_rc 0 "standard input as a side"
cmp -s "$T/out" "$D/example01.stdout" || fail "standard input (-), labelled old.txt, reads as the file"
checks=$((checks + 1))
# one file twice in a side (a glob and a name, ./x and x) counted its
# values twice: n=20+10 and a p too small
run bd compare crc-old.txt=old-1.txt,./old-1.txt "crc-new.txt=$D/crc-new.txt"
expect_rc 2 "one file twice in a side"
expect_err_has "error: compare: side 'crc-old.txt' names one file twice (old-1.txt and ./old-1.txt): its values would count twice" \
    "names the side and both spellings"
# The comment's changed cells: slower first, the largest change first
# within a class, a benchmark's metrics together (sec/op, B/s): the worst
# regression on the first row, not wherever its benchmark stands.
run bd compare --ignore note "$D/crc-old.txt" "$D/crc-new.txt" --format markdown
expect_eq "$(grep '| slower |$' "$T/out" | cut -d'|' -f2,3,6 | head -n 3 | tr -s ' ' | sed 's/ $//')" \
" CRC32/poly=Koopman/size=1kB/align=1-8 | sec/op | +9.58%
 CRC32/poly=Koopman/size=1kB/align=1-8 | B/s | -8.76%
 CRC32/poly=Koopman/size=32kB/align=1-8 | sec/op | +5.37%" "the changed cells: the largest slower first"
expect_eq "$(grep '| faster |$' "$T/out" | head -n 1 | cut -d'|' -f2 | tr -d ' ')" "CRC32/poly=IEEE/size=32kB/align=0-8" \
    "then the faster, the largest first"
cp "$D/old.txt" old.txt
run bd compare --benchstat old.txt new.txt newer=new.txt
expect_rc 0 "three sides"
# Its first line counts a benchmark once per side compared (4 of 2
# benchmarks), and says so, as the comment does.
expect_eq "$(head -n 1 "$T/err")" "compare: no regression (0 slower, 2 faster, 2 unchanged; 3 sides, each against the first)" \
    "three sides: the first line says each is counted per side"
expect_out_has "Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)   1.423µ ± 1%  -17.20% (p=0.000 n=10)" \
    "the third side compared with the first"
expect_out_has "geomean                 2.295µ        2.090µ        -8.94%                  2.090µ        -8.94%" "its geomean"
run bd compare old.txt new.txt newer=new.txt --format markdown
expect_eq "$(grep -c '^<details><summary>All 2 benchmarks, as benchstat prints them</summary>$' "$T/out")" 1 \
    "three sides: the folded tables hold 2 benchmarks (not 2 per side compared)"
expect_eq "$(head -n 1 "$T/out" | cut -d'(' -f2 | cut -d';' -f1,2)" "3 sides, each against the first; unchanged: p > 0.05, Mann–Whitney U test" \
    "three sides: the comment's first line in one pair of parentheses"
run bd compare old.txt new.txt new.txt
expect_rc 2 "a side twice"
expect_err_has "compare: two sides are both 'new.txt' (the sides' columns need two names: label them, as in old=FILE new=FILE)" \
    "its message, and how to compare a file with itself"
run bd compare --benchstat old=new.txt new=new.txt
expect_rc 0 "a file with itself, labelled"
run bd compare old.txt nosuch.txt
expect_rc 2 "a file and a name that is none"
expect_err_has "compare: 'nosuch.txt' is not a file (either every side is a file, or every side a run of a store)" \
    "its message"
# Two names that are no files, and no store: mistyped files, not runs
run bd compare olt.txt nwe.txt
expect_rc 2 "no file and no store: a usage error"
expect_err_has "error: compare: 'olt.txt' is no file, and there is no store (results.db) whose runs it could name: give harness files, or --db STORE to compare runs" \
    "it says the file is missing, not that a store is"
printf '{"context": {}, "benchmarks": [{"name": "BM_x", "real_time": 1' >cut.json
run bd compare cut.json cut.json,old.txt
expect_rc 1 "a truncated JSON file"
expect_err_has "error: cut.json: invalid JSON at line 1, column 62" "where it ends"
grep -q "not stored" "$T/err" && fail "compare stores nothing: no note that a refused file was not stored"
checks=$((checks + 1))
: >empty.txt
run bd compare old.txt empty.txt
expect_rc 1 "an empty file"
expect_err_has "error: compare: empty.txt: the file is empty: not a format benchdb reads" "an empty file is said to be empty"
run bd compare old.txt old.txt,nosuch.txt
expect_rc 2 "a list with a name that is no file"
run sh -c "'$BENCHDB_BIN' compare - - </dev/null"
expect_rc 2 "standard input twice"
expect_err_has "compare: two sides are both '-'" "its message"
run sh -c "'$BENCHDB_BIN' compare a=- b=old.txt,- </dev/null"
expect_rc 2 "standard input in two sides"
expect_err_has "standard input (-) is given more than once" "its message"
printf 'PASS\nok  \texample.com\t0.1s\n' >empty.txt
run bd compare old.txt empty.txt
expect_rc 1 "a file without results"
expect_err_has "compare: empty.txt: not a format benchdb reads" "its message names the file"
run bd compare --sample run old.txt new.txt
expect_rc 2 "--sample on files"

printf 'BenchmarkEvil\033[2J 1 100 ns/op\n' >evil-a.txt
printf 'BenchmarkEvil\033[2J 1 101 ns/op\n' >evil-b.txt
run bd compare evil-a.txt evil-b.txt
expect_rc 0 "a name with a control character"
expect_out_has 'Evil\x1b[2J' "it is shown escaped, as every table shows data"
grep -q "$(printf '\033')" "$T/out" && fail "no escape character reaches the terminal"
checks=$((checks + 1))

# ---- the gate and the options, on files ----
run bd compare --gate --ignore note "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 3 "--gate: a cell significantly slower"
run bd compare --gate --threshold 100 --ignore note "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 0 "--gate: none slower by more than 100%"
run bd compare --gate --metric nosuch old.txt new.txt
expect_rc 2 "--metric naming no metric of the files: a usage error"
expect_err_has "error: compare: --metric: no metric or unit named 'nosuch'; metrics and units: " "it names the metrics and units"
run bd compare --gate "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 4 "--gate: two configurations, nothing compared (benchstat's crcOldNew)"
expect_err_has "compare: nothing compared (0 slower, 0 faster, 36 removed, 36 added, 0 unchanged): no cell has values both in $D/crc-old.txt and in another side; the same benchmarks are on both sides under another configuration: note is 'hw acceleration disabled' in $D/crc-old.txt, 'hw acceleration enabled' in $D/crc-new.txt (--ignore note compares across it)" \
  "the first line says nothing was compared and which configuration key kept the sides apart"
run bd compare --format markdown "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 0 "markdown, nothing compared"
checks=$((checks + 1))
first=$(head -n 1 "$T/out")
case $first in
"**Nothing compared** (0 slower, 0 faster, 36 removed, 36 added, 0 unchanged): no cell has values both in"*"note is 'hw acceleration disabled' in"*"(--ignore note compares across it) — gate: nothing compared") ;;
*) fail "the comment's first line: $first" ;;
esac
expect_out_has "No cell was compared." "not 'No cell changed': nothing was"
# --ignore with a key no file has leaves nothing out: a warning names it
# and the keys the files have, nearest first; a key they have, no warning.
run bd compare --gate --ignore nte "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 4 "--ignore nte: nothing left out, so nothing compared"
expect_err_has "warning: compare: --ignore nte: no file has the configuration key 'nte', nothing is left out; the files' keys, nearest first: note, pkg, goos, goarch" \
    "--ignore naming no key of the files: warned, the nearest first"
run bd compare --ignore note --ignore goos "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 0 "--ignore two keys the files have"
grep -q "warning" "$T/err" && fail "--ignore of keys the files have: no warning: $(cat "$T/err")"
checks=$((checks + 1))
printf 'benchmark,unit,value\nfast,ns,100\nfast,ns,101\n' >ign-a.csv
printf 'benchmark,unit,value\nfast,ns,110\nfast,ns,111\n' >ign-b.csv
run bd compare --ignore pkg ign-a.csv ign-b.csv
expect_rc 0 "--ignore on files without configuration keys"
expect_err_has "warning: compare: --ignore pkg: no file has the configuration key 'pkg', nothing is left out; the files have no configuration key" \
    "--ignore on files without any key: warned"
run bd compare --ignore note --metric primary --adjust holm "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 0 "--adjust holm"
expect_out_has "vs base (holm)" "the header says the p-values are adjusted"
[ "$(grep -c 'slower$' "$T/out")" = 1 ] || fail "--adjust holm: one slower cell survives"
checks=$((checks + 1))
run bd compare --ignore note --format csv "$D/crc-old.txt" "$D/crc-new.txt"
expect_rc 0 "--format csv"
python3 - "$T/out" "$D/crc-old.txt" <<'PY' || fail "CSV: the query's columns, each side's median as the table's"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0])[:8] == ["a", "b", "kind", "benchmark", "params", "variant", "metric", "unit"], list(rows[0])
r = [x for x in rows if x["benchmark"] == "CRC32/poly=IEEE/size=15/align=0-8" and x["unit"] == "sec/op"][0]
vals = [float(l.split()[2]) * 1e-9 for l in open(sys.argv[2]) if l.startswith("BenchmarkCRC32/poly=IEEE/size=15/align=0-8 ")]
assert abs(float(r["median_a"]) - statistics.median(vals)) < 1e-20, (r["median_a"], vals)
assert (r["a"], r["b"], r["verdict"], r["n_a"], r["p"][:5]) == ("%s" % sys.argv[2], sys.argv[2].replace("old", "new"), "faster", "10", "0.008"), r
g = [x for x in rows if x["kind"] == "geomean" and x["unit"] == "sec/op"][0]
assert "%+.2f" % float(g["change"]) == "-31.05", g
PY
checks=$((checks + 1))

# ---- other harnesses: through a store in memory ----
python3 - <<'PY'
import json, random
random.seed(27)
for side, scale in (("base", 1.0), ("head", 1.2)):
    for r in (1, 2):
        times = [round(0.010 * scale * random.lognormvariate(0, 0.01), 6) for _ in range(5)]
        fast = [round(0.0005 * random.lognormvariate(0, 0.01), 7) for _ in range(5)]
        res = [{"command": "sort big", "times": times, "exit_codes": [0] * 5},
               {"command": "sort small", "times": fast, "exit_codes": [0] * 5}]
        json.dump({"results": res}, open("%s_r%d.json" % (side, r), "w"))
PY
run bd compare --format csv base=base_r1.json,base_r2.json head=head_r1.json,head_r2.json
expect_rc 0 "hyperfine files, two a side"
python3 - "$T/out" <<'PY' || fail "hyperfine: each side's values of both files, in seconds, and its median"
import csv, json, statistics, sys
rows = {(r["benchmark"], r["kind"]): r for r in csv.DictReader(open(sys.argv[1]))}
for side, col in (("base", "a"), ("head", "b")):
    vals = [t for r in (1, 2) for t in json.load(open("%s_r%d.json" % (side, r)))["results"][0]["times"]]
    row = rows[("sort big", "cell")]
    assert int(row["n_" + col]) == 10, row
    assert abs(float(row["median_" + col]) - statistics.median(vals)) < 1e-15, (row, vals)
    assert row["unit"] == "sec", row
assert rows[("sort big", "cell")]["verdict"] == "slower", rows
PY
checks=$((checks + 1))
run bd compare --benchstat base=base_r1.json,base_r2.json head=head_r1.json,head_r2.json
expect_rc 0 "hyperfine files as a table"
expect_out_has "│     sec     │" "times in seconds, as benchstat shows them"
grep -q "^sort small .*µ ± .*µ ± " "$T/out" || fail "a row scaled to µ"
checks=$((checks + 1))
# JMH's throughput in ops/s on one side and ops/ms on the other (-tu s,
# -tu ms): one cell, converted, 20% more operations a second is faster
python3 - <<'PY'
import json
vals = [3.37e9, 3.38e9, 3.375e9, 3.372e9, 3.379e9, 3.371e9]
def jmh(name, unit, scale):
    return [{"benchmark": "b.Hello.run", "mode": "thrpt", "forks": 1,
             "primaryMetric": {"score": 1, "scoreUnit": unit, "rawData": [[v * scale for v in vals]]}}]
json.dump(jmh("s", "ops/s", 1), open("jmh_s.json", "w"))
json.dump(jmh("ms", "ops/ms", 1.2 / 1000), open("jmh_ms.json", "w"))
PY
run bd compare --format csv jmh_s.json jmh_ms.json
expect_rc 0 "JMH in ops/s and ops/ms"
python3 - "$T/out" <<'PY' || fail "ops/ms converted into ops/s: one cell, compared, faster"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "cell"]
assert len(rows) == 1, rows
r = rows[0]
assert (r["unit"], r["n_a"], r["n_b"], r["verdict"]) == ("ops/s", "6", "6", "faster"), r
assert abs(float(r["median_b"]) / float(r["median_a"]) - 1.2) < 1e-12, r
assert abs(float(r["change"]) - 20) < 1e-9, r
PY
checks=$((checks + 1))
expect_err_has "compare: no regression (0 slower, 1 faster, 0 unchanged)" "the summary counts it faster, not removed"
# One value a side (Bencher's BMF, a CSV row): no outcome of the U test can
# reach alpha, so a 30% change is inconclusive, not unchanged; an equal
# value is unchanged; a benchmark with a metric only the head has is still
# compared (not counted as added)
printf 'benchmark,metric,unit,value\nup,,ns,100\ndown,,ns,100\nsame,,ns,100\nboth,,ns,10\nboth,,ns,10\n' >one_a.csv
printf 'benchmark,metric,unit,value\nup,,ns,130\ndown,,ns,70\nsame,,ns,100\nboth,,ns,10\nboth,,ns,10\nboth,allocs,1,3\n' >one_b.csv
run bd compare one_a.csv one_b.csv --format markdown --gate
expect_rc 0 "one value a side: the gate passes"
expect_eq "$(head -n 1 "$T/out")" \
    "**0 slower, 0 faster, 2 inconclusive, 2 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; inconclusive: too few samples for p ≤ 0.05; n = 1 to 2 per cell in one_a.csv, 1 to 2 in one_b.csv) — gate: passes" \
    "one value a side: inconclusive, not unchanged"
expect_out_has "No cell changed." "one value a side: no changed cell"
expect_out_has "Inconclusive: too few samples for the U test to reach p ≤ 0.05; the change as measured, not a verdict:" \
    "one value a side: the inconclusive cells, said so"
expect_out_has "| up | sec | 100.0n ± ∞ | 130.0n ± ∞ | +30.00% | 1.000 | inconclusive |" "the 30% shown, called inconclusive"
expect_out_has "| down | sec | 100.00n ± ∞ | 70.00n ± ∞ | -30.00% | 1.000 | inconclusive |" "and the other"
run bd compare a=one_a.csv b=one_b.csv c=one_b.csv --format markdown
expect_eq "$(head -n 1 "$T/out" | sed 's/.*; n = //')" "1 to 2 per cell in a, 1 to 2 in the others) — gate: passes" \
    "three sides: the samples of the baseline and of the others"
run bd compare one_a.csv one_b.csv --format json --envelope
python3 - "$T/out" <<'PY' || fail "the envelope counts the inconclusive cells"
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
assert (c["inconclusive"], c["unchanged"], c["added"], c["benchmarks"]) == (2, 2, 0, 4), c
PY
checks=$((checks + 1))
# the head's allocs metric in CSV: a is still the baseline, with n_a 0
run bd compare base=one_a.csv head=one_b.csv --format csv
python3 - "$T/out" <<'PY' || fail "a metric only the head has: a = base, n_a = 0, b = head"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["metric"] == "allocs"]
assert [(r["kind"], r["a"], r["b"], r["n_a"], r["n_b"], r["median_a"]) for r in rows] == [
    ("cell", "base", "head", "0", "1", ""), ("geomean", "base", "head", "0", "1", "")], rows
assert all(abs(float(r["median_b"]) - 3) < 1e-12 for r in rows), rows
PY
checks=$((checks + 1))
# compressed Go text, which benchstat does not read: through ingest too
gzip -c old.txt >old.txt.gz
gzip -c new.txt >new.txt.gz
run bd compare --benchstat old.txt.gz new.txt.gz
expect_rc 0 "gzipped Go text"
expect_out_has "pkg: golang.org/x/perf/cmd/benchstat/testdata" "its pkg above the table"
grep -q "^Encode/format=json-48 .*1.718µ ± 1% *1.423µ ± 1%  -17.20% (p=0.000 n=10)$" "$T/out" ||
    fail "named as Go names it, the same numbers"
checks=$((checks + 1))
printf '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r","host":"h"}\n' >stream.jsonl
run bd compare stream.jsonl old.txt
expect_rc 1 "a run archive as a side"
expect_err_has "a benchdb-run/1 archive carries its own runs" "its message"
# A CI artifact: a zip of harness files was called a benchdb-run/1 archive
python3 -c 'import zipfile; zipfile.ZipFile("artifact.zip", "w").write("old.txt")' || fail "write artifact.zip"
run bd compare artifact.zip old.txt
expect_rc 1 "a zip as a side"
expect_err_has "error: compare: artifact.zip: a zip file, which compare does not read: unpack one of harness files and give the directory" \
    "says what it is and what to do"

# ---- a side that is a file and a run of the store; --record ----
bd init >/dev/null
bd ingest --quiet --format go-bench --plan p --run old.txt --host h old.txt || fail "ingest old.txt"
bd ingest --quiet --format go-bench --plan p --run new.txt --host h new.txt || fail "ingest new.txt"
run bd compare old.txt new.txt
expect_rc 2 "a file and a run of the same name"
expect_err_has "compare: 'old.txt' is both a file and a run of plan p in results.db: give --plan p to compare the runs, or ./old.txt to compare the files" \
    "its message names both"
run bd compare --plan p --no-record old.txt new.txt
expect_rc 0 "--plan: the runs"
run bd compare ./old.txt ./new.txt
expect_rc 0 "./: the files"
expect_out_has "│  ./old.txt  │" "the files, labelled as given"
run bd compare --record old.txt=./old.txt new.txt=./new.txt
expect_rc 2 "--record without --db"
expect_err_has "--record stores the files: name the store with --db" "its message"
bd --db rec.db init >/dev/null
run bd --db rec.db compare --record ./old.txt ./new.txt
expect_rc 0 "--record"
expect_err_has "recorded as evaluation 1" "the evaluation is recorded"
expect_out_has "Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)" "the table, from the store"
run bd --db rec.db compare --record ./old.txt ./new.txt
expect_rc 0 "--record again: the files are stored already"
expect_err_has "recorded as evaluation 2" "a second evaluation"
runs=$(bd --db rec.db sql "SELECT string_agg(r.name, ' ') FROM (SELECT r.name FROM run r JOIN plan p ON p.id = r.plan_id
       WHERE p.name = 'files' ORDER BY r.name) AS r" --format csv | tail -n 1 | tr -d '\r')
expect_eq "$runs" "./new.txt ./old.txt" "--record: the two sides are runs of plan files, once"
# --record with --ignore (README's Go command with --record --db FILE added)
# said only "compare: --record with --ignore": it says why, and what to give.
run bd --db rec.db compare --record --ignore note ./old.txt ./new.txt
expect_rc 2 "--record with --ignore"
expect_eq "$(cat "$T/err")" "error: compare: --record with --ignore: stored, the files' runs are compared cell by cell whatever their configuration lines (pkg aside, a cell's params there): give --record without --ignore (see 'benchdb compare --help')" \
    "--record with --ignore: why, and what to give"
run bd --db rec.db compare --record --no-record ./old.txt ./new.txt
expect_rc 2 "--record with --no-record"
expect_eq "$(cat "$T/err")" "error: compare: --record with --no-record: one records the comparison, the other not (give one) (see 'benchdb compare --help')" \
    "--record with --no-record: says which to give"
# Other files under a label already stored: the error said "pass
# --append", an option compare does not have; it says what compare takes.
run bd --db rec.db compare --record ./old.txt=./new.txt ./new.txt
expect_rc 1 "--record: other files under a stored label"
expect_err_has "run \"./old.txt\" of plan \"files\" is already stored (archive 1 \"./old.txt\"); compare --record keeps a run per label: give the side another (LABEL=FILE), or remove the run first (benchdb delete --run files/LABEL)" \
    "what compare --record takes"


# Files of two harnesses (a JMH file against a Google Benchmark file) name
# no benchmark alike: nothing is compared, and the first line says why.
H=$BENCHDB_SRC/tests/data/harness
run bd compare jmh="$H/jmh/github-action-benchmark_jmh_output.json" gb="$H/google-benchmark/items_base.json"
expect_rc 0 "two harnesses"
expect_err_has "compare: nothing compared (0 slower, 0 faster, 1 removed, 2 added, 0 unchanged): no cell has values both in jmh and in another side; the sides are files of different harnesses: jmh in jmh, google-benchmark in gb" \
    "the first line names the two harnesses"
run bd compare a="$H/google-benchmark/items_base.json" b="$H/google-benchmark/gbench_test1_run1.json"
checks=$((checks + 1))
grep -q "different harnesses" "$T/err" && fail "one harness, other benchmarks: no harness named: $(head -n 1 "$T/err")"

# Google Benchmark writes run settings into the name (->Repetitions(5):
# BM_Concat/repeats:5): a head that repeats 10 times compares nothing with
# a base that repeated 3, and the first line says which setting differs.
# The names of a file Google Benchmark 1.7.1 wrote, as ->Repetitions(N)
# makes them.
python3 - "$BENCHDB_SRC/tests/data/harness/google-benchmark/error_base.json" <<'PY'
import json, sys
for n in (3, 10):
    d = json.load(open(sys.argv[1]))
    for b in d["benchmarks"]:
        for k in ("name", "run_name"):
            for bench in ("BM_Concat", "BM_Parse"):
                b[k] = b[k].replace(bench + "_", "%s/repeats:%d_" % (bench, n)) if b[k] != bench else "%s/repeats:%d" % (bench, n)
    json.dump(d, open("rep%d.json" % n, "w"))
PY
run bd compare rep3.json rep10.json
expect_rc 0 "repeats:3 against repeats:10"
expect_err_has "; the same benchmarks are on both sides under another repeats (part of the name, as Google Benchmark writes it): BM_Concat/repeats:3 in rep3.json, BM_Concat/repeats:10 in rep10.json" \
    "the setting that keeps them apart"

# hyperfine's command names the benchmark: './old/app' in one file and
# './new/app' in the other are two benchmarks, one a side. The first line
# says so, and how to give them one name.
python3 - <<'PY'
import json
for side, cmd, t in (("hf_old", "./old/app input", 0.100), ("hf_new", "./new/app input", 0.110)):
    times = [t + i / 1000 for i in range(5)]
    json.dump({"results": [{"command": cmd, "mean": sum(times) / 5, "times": times, "exit_codes": [0] * 5}]},
              open(side + ".json", "w"))
PY
run bd compare hf_old.json hf_new.json
expect_rc 0 "one hyperfine command a side"
expect_err_has "compare: nothing compared (0 slower, 0 faster, 1 removed, 1 added, 0 unchanged): no cell has values both in hf_old.json and in another side; each side holds one benchmark, named apart: ./old/app input in hf_old.json, ./new/app input in hf_new.json (a benchmark is compared with the one of its name: give both one name, as hyperfine's --command-name NAME does)" \
    "one benchmark a side, named apart: said, with hyperfine's option"
printf 'BenchmarkOld 100 5 ns/op\n' >one_old.txt
printf 'BenchmarkNew 100 6 ns/op\n' >one_new.txt
run bd compare one_old.txt one_new.txt
expect_err_has "; each side holds one benchmark, named apart: Old in one_old.txt, New in one_new.txt (a benchmark is compared with the one of its name: give both one name)" \
    "Go text: the same, without hyperfine's option"

finish
