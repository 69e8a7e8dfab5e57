# compare --gate-strict (docs/compare.md): the gate of --gate, and exit 5
# ("incomplete") where it would pass without having judged all of the
# baseline: a benchmark of the baseline missing from the head (a
# benchmark that errored has no values), a failure the harness reported in
# the head (hyperfine's --ignore-failure keeps a failing command's times),
# or no cell judged at all (one value a side, Bencher's BMF: such a gate
# could never fail). --gate itself is unchanged (it passes on all of
# these, saying what it did not judge), and a regression still exits 3,
# nothing compared 4. The comment's first line, the gate's line on stderr
# and the envelope's "gate" and "exit" say it. Output that cannot be
# written is exit 1, without a gate's line that named another status. Real harness output:
# Google Benchmark 1.7.1 with SkipWithError, hyperfine, Bencher's BMF,
# Go's benchstat files.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
H=$BENCHDB_SRC/tests/data/harness
E=$BENCHDB_SRC/examples/go-bench

# 1. Google Benchmark: BM_Parse runs in base, errors in head (3 repetitions).
cp "$H/google-benchmark/error_base.json" base.json
cp "$H/google-benchmark/error_head.json" head.json
run bd compare base.json head.json --format markdown --gate
expect_rc 0 "--gate: a benchmark that errored in the head does not fail it (unchanged)"
run bd compare base.json head.json --format markdown --gate-strict
expect_rc 5 "--gate-strict: a benchmark that errored in the head"
expect_eq "$(head -n 1 "$T/out")" "**0 slower, 0 faster, 1 removed, 1 inconclusive, 0 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; inconclusive: too few samples for p ≤ 0.05; n = 3+3) — gate: incomplete (1 benchmark of base.json missing from head.json, where it failed; no cell judged: none has samples enough for p ≤ 0.05); the harness reported 1 failure: BM_Parse in head.json (error: input file missing, 3 times)" \
    "the comment's first line: incomplete, and why"
expect_err_has "compare: gate: incomplete (1 benchmark of base.json missing from head.json, where it failed; no cell judged: none has samples enough for p ≤ 0.05) (exit 5)" \
    "the gate's line on stderr"
run bd compare base.json head.json --format json --envelope --gate-strict
expect_rc 5 "--gate-strict --envelope"
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "the envelope's gate and exit"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["counts"]["gate"] == "incomplete" and d["exit"] == 5, (d["counts"], d.get("exit"))
assert d["counts"]["removed"] == 1 and d["counts"]["cells_judged"] == 0, d["counts"]
PY
# Three sides: each against the first, a benchmark counted once per side
# (as the first line counts it).
run bd compare x=base.json y=head.json z=head.json --gate-strict
expect_rc 5 "--gate-strict: three sides"
expect_err_has "compare: gate: incomplete (2 benchmarks of x missing from the other sides, where both failed; no cell judged: none has samples enough for p ≤ 0.05) (exit 5)" \
    "three sides: counted per side, said so"
# The same files as runs of a store: the same gate.
bd init --db s.db >/dev/null
bd ingest --db s.db --plan p --run base --host h base.json >/dev/null 2>&1 || fail "ingest base"
bd ingest --db s.db --plan p --run head --host h head.json >/dev/null 2>&1 || fail "ingest head"
run bd compare --db s.db --no-record base head --gate-strict
expect_rc 5 "a store's runs: --gate-strict"
expect_err_has "compare: gate: incomplete (1 benchmark of base missing from head, where it failed; no cell judged: none has samples enough for p ≤ 0.05) (exit 5)" \
    "a store's runs: the gate's line"
# query compare keeps the query's gate (its outcome column); asked for the
# strict one it says where it is, not that the option is unknown, and runs
# nothing (docs/compare.md, "The strict gate").
n0=$(bd sql --db s.db "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')
run bd query --db s.db compare -p plan=p -p a=base -p b=head --gate-strict
expect_rc 2 "query compare --gate-strict: a usage error"
expect_err_has "error: query: --gate-strict is compare's: 'benchdb compare --plan PLAN A B --gate-strict' runs the same comparison on the store with it" \
    "query --gate-strict: names the command that has it"
expect_eq "$(bd sql --db s.db "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')" "$n0" \
    "query --gate-strict: nothing recorded"

# 2. Go: one benchmark of the base gone from the head, the rest unchanged
# (10 values a side: every cell judged).
grep -v "^BenchmarkCRC32/poly=Castagnoli/size=15/align=0-8" "$E/crc-old.txt" >less.txt
run bd compare old="$E/crc-old.txt" new=less.txt --gate
expect_rc 0 "--gate: a benchmark gone from the head"
run bd compare old="$E/crc-old.txt" new=less.txt --gate-strict
expect_rc 5 "--gate-strict: a benchmark gone from the head"
expect_err_has "compare: gate: incomplete (1 benchmark of old missing from new) (exit 5)" "says which side lacks what"
run bd compare old="$E/crc-old.txt" new="$E/crc-old.txt" --gate-strict
expect_rc 0 "--gate-strict: everything judged, nothing changed"
expect_err_has "compare: gate: passes (exit 0)" "passes"
# A regression is still exit 3, a benchmark missing or not.
grep -v "^BenchmarkCRC32/poly=Castagnoli/size=15/align=0-8" "$E/crc-new.txt" >new-less.txt
run bd compare --ignore note old="$E/crc-old.txt" new=new-less.txt --gate-strict
expect_rc 3 "--gate-strict: a slower cell fails it (3), whatever is missing"
expect_err_has "compare: gate: fails (exit 3)" "fails"
# Nothing compared is still 4.
run bd compare old="$E/crc-old.txt" new="$E/crc-new.txt" --gate-strict
expect_rc 4 "--gate-strict: nothing compared (the note: lines keep the sides apart)"

# 3. hyperfine --ignore-failure: the failing command's times are compared
# as measured; the failure reported in the head makes the strict gate
# incomplete.
run bd compare a="$H/hyperfine/hyperfine-py_ignored_failure.json" b="$H/hyperfine/hyperfine-py_ignored_failure.json" --gate-strict
expect_rc 5 "--gate-strict: a command that exited non-zero in the head"
expect_err_has "compare: gate: incomplete (1 failure reported in b) (exit 5)" "says so"

# 4. Bencher's BMF: one value a side, no cell can be judged; a 30% change
# passes --gate, never --gate-strict.
python3 - "$H/bmf/bencher_report_latency.json" slower.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d.values():
    for v in m.values():
        for k in v:
            v[k] *= 1.3
json.dump(d, open(sys.argv[2], "w"))
PY
run bd compare base="$H/bmf/bencher_report_latency.json" head=slower.json --gate
expect_rc 0 "--gate: one value a side passes, judging no cell"
run bd compare base="$H/bmf/bencher_report_latency.json" head=slower.json --gate-strict --format markdown
expect_rc 5 "--gate-strict: one value a side"
checks=$((checks + 1))
head -n 1 "$T/out" | grep -qF -- "— gate: incomplete (no cell judged: none has samples enough for p ≤ 0.05)" ||
    fail "the comment says no cell was judged: $(head -n 1 "$T/out")"

# Output that cannot be written is exit 1 (here nanobench's, 2 cells
# slower: a short output, buffered whole until the end), and the gate's line, which
# named another status ("compare: gate: fails (exit 3)" above "error:
# compare: cannot write the output", exit 1), is not said.
for f in table csv markdown; do
    run sh -c '"$0" compare "$1" "$2" --gate --format "$3" >/dev/full' "$BENCHDB_BIN" \
        "$H/nanobench/json_template_run1.json" "$H/nanobench/json_template_run2.json" $f
    expect_rc 1 "--format $f into a full disk"
    expect_err_has "error: compare: cannot write the output: No space left on device" "--format $f into a full disk: said"
    checks=$((checks + 1))
    grep -q "gate:" "$T/err" && fail "--format $f into a full disk: no gate's line with another status: $(cat "$T/err")"
done

run bd compare --help
expect_out_has "--gate-strict" "the help names it"
expect_out_has "with --gate-strict also 5" "and its exit status"
finish
