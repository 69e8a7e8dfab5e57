# benchdb compare on two files of each new format (through ingest into a
# store in memory): the table has a row per cell the files share, with the
# two sides' centres computed from the stored values, some checked against
# the medians of the files' values read in Python; a Criterion side is a comma-separated list
# of sample.json files, each bringing its benchmark.json along.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
S="$BENCHDB_SRC/tests/data/harness"
crit() { find "$S/criterion/$1" -name sample.json | LC_ALL=C sort | paste -sd, -; }
check() { # LABEL ROWS A B: compare A and B prints ROWS rows (and a geomean)
    out=$("$BENCHDB_BIN" compare "a=$3" "b=$4" 2>"$T/err") || fail "$1: compare: $(cat "$T/err")"
    rows=$(echo "$out" | grep -c -E ' ~ | [+-][0-9.]+% ' || true)
    [ "$rows" -ge "$2" ] || fail "$1: $rows rows, expected $2:
$out"
    echo "$out" | grep -q '^geomean' || fail "$1: no geomean row:
$out"
    echo "$out" >"$T/$1.out"
}
check criterion 3 "$(crit run1)" "$(crit run2)"
# a side that is a directory: the harness files below it, as ingest takes
# them (Criterion.rs's target/criterion): the same table as its files
check criterion-dir 3 "$S/criterion/run1" "$S/criterion/run2"
cmp -s "$T/criterion.out" "$T/criterion-dir.out" || fail "a directory side: not the table of its sample.json files:
$(diff "$T/criterion.out" "$T/criterion-dir.out")"
mkdir "$T/nothing"
"$BENCHDB_BIN" compare "$T/nothing" "$S/criterion/run2" >"$T/out" 2>"$T/err" && fail "a directory without harness files compared"
grep -qF "error: $T/nothing: no file in a format benchdb reads here" "$T/err" || fail "an empty directory: $(cat "$T/err")"
check cargo-bench 3 "$S/cargo-bench/criterion_bencher_run1.txt" "$S/cargo-bench/criterion_bencher_run2.txt"
check pytest-benchmark 3 "$S/pytest-benchmark/fib_run1.json" "$S/pytest-benchmark/fib_run2.json"
check asv 2 "$S/asv/v2_params_samples.json" "$S/asv/v2_params_samples_next.json"
check catch2 3 "$S/catch2/catch2_2.13_run1.xml" "$S/catch2/catch2_2.13_run2.xml"
check nanobench 3 "$S/nanobench/json_template_run1.json" "$S/nanobench/json_template_run2.json"
# the centres printed are the medians of the files' values (benchstat's
# centre), to the digits printed: pytest-benchmark's n=5 pedantic rows
# and asv's samples
python3 - "$S" "$T" <<'PY' || fail "centres differ"
import json, statistics, sys
S, T = sys.argv[1], sys.argv[2]
def med(xs):
    return statistics.median(xs)
def si(x):  # benchstat's scaling to 4 significant digits, as printed
    for f, p in ((1e-9, "n"), (1e-6, "µ"), (1e-3, "m"), (1, "")):
        if x < f * 1000:
            return "%#.4g%s" % (x / f, p)
    return "%.4g" % x
ok = True
for side, f in (("a", "fib_run1.json"), ("b", "fib_run2.json")):
    d = json.load(open(S + "/pytest-benchmark/" + f))
    for b in d["benchmarks"]:
        if b["name"] == "test_ped":
            want = si(med(b["stats"]["data"]))
            out = open(T + "/pytest-benchmark.out").read()
            line = [l for l in out.splitlines() if l.startswith("test_b.py::test_ped")][0]
            if want not in line:
                print("pytest-benchmark test_ped side %s: %s not in %r" % (side, want, line)); ok = False
d = json.loads(open(S + "/asv/v2_params_samples.json").read(), parse_constant=lambda c: c)
want = si(med(d["results"]["benchmarks.TimeSuite.time_insertion_sort"][11][0]))
line = [l for l in open(T + "/asv.out").read().splitlines() if "time_insertion_sort" in l][0]
if want not in line:
    print("asv: %s not in %r" % (want, line)); ok = False
sys.exit(0 if ok else 1)
PY
echo ok
