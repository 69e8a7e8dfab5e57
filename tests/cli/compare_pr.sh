# The pull-request job (docs/queries.md, "The pull-request comment"): two
# builds of a real Google Benchmark program (tests/data/gbench-pr/bench.cc,
# against Debian's libbenchmark-dev), run with --benchmark_format=json and
# repetitions; from an empty directory one command makes the Markdown
# comment and its exit status is the gate's. The builds differ on purpose
# (two cells 25% slower, one 20% faster, three unchanged) and report
# their own iteration times (UseManualTime), so real_time is the same
# value for value in every run whatever the machine's load: the counts and
# the changed cells are exact. cpu_time is measured; it is compared too,
# and only the gate's exit status is asserted of it.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v c++ >/dev/null || { echo "c++ missing (scripts/install-deps installs build-essential)"; exit 1; }
src="$BENCHDB_SRC/tests/data/gbench-pr/bench.cc"
mkdir build job
c++ -O1 -std=c++17 "$src" -lbenchmark -lpthread -o build/base 2>build/err ||
    { echo "cannot build the base benchmark (libbenchmark-dev: scripts/install-deps): $(cat build/err)"; exit 1; }
c++ -O1 -std=c++17 -DHEAD "$src" -lbenchmark -lpthread -o build/head || { echo "cannot build the head benchmark"; exit 1; }
for b in base head; do
    build/$b --benchmark_format=json --benchmark_repetitions=8 >job/$b.json 2>/dev/null || fail "run the $b benchmark"
done
build/base --benchmark_format=json --benchmark_repetitions=8 >base2.json 2>/dev/null || fail "run base again"

# ---- the job: one command from a directory holding the two files ----
cd job || exit 1
run bd compare base.json head.json --metric real_time --format markdown --gate
cp "$T/out" comment.md
expect_rc 3 "the gate's exit status: a cell is slower"
expect_eq "$(head -n 1 comment.md)" \
    "**2 slower, 1 faster, 3 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; n = 8+8) — gate: fails" \
    "the first line: the counts and the gate's result"
expect_eq "$(ls)" "base.json
comment.md
head.json" "nothing stored: no store made in the directory"
# The changed cells, slower first, names whole (Markdown-escaped), in
# benchstat's columns.
expect_eq "$(sed -n '3,4p' comment.md)" \
    "| benchmark | unit | base.json | head.json | change | p | verdict |
| --- | --- | ---: | ---: | ---: | ---: | --- |" "the table's head"
python3 - comment.md <<'PY' || fail "exactly the changed cells"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("| --- | --- | ---: | ---: | ---: | ---: | --- |") + 1
rows = []
for l in lines[start:]:
    if not l.startswith("|"):
        break
    cells = [c.strip().replace("\\", "") for c in re.split(r"(?<!\\)\|", l)[1:-1]]
    rows.append((cells[0], cells[4], cells[6]))
want = [("BM_Sort<std::string>/1/iterations:20/manual_time", "+25.00%", "slower"),
        ("BM_Parse|json/1/iterations:20/manual_time", "+25.00%", "slower"),
        ("BM_Sort<std::string>/3/iterations:20/manual_time", "-20.00%", "faster")]
assert rows == want, rows
PY
grep -q "^| BM_Sort\\\\<std::string\\\\>/1/iterations:20/manual_time | real_time (sec) | 40.16µ ± 0% | 50.20µ ± 0% | +25.00% | 0.000 | slower |$" comment.md ||
    fail "a changed row whole: $(grep 'Sort.*/1/' comment.md)"
# Then everything, as benchstat prints it, folded.
grep -q '^<details><summary>All 6 benchmarks, as benchstat prints them</summary>$' comment.md || fail "the details"
grep -q '^BM_Sort<std::string>/0/iterations:20/manual_time  *20.08µ ± 0%  *20.08µ ± 0%  *~ (p=1.000 n=8)' comment.md ||
    fail "an unchanged cell in the full table"
# GitHub's renderer shows each name as it is.
if command -v cmark-gfm >/dev/null; then
    cmark-gfm -e table comment.md >comment.html
    grep -q '<td>BM_Sort&lt;std::string&gt;/1/iterations:20/manual_time</td>' comment.html ||
        fail "rendered: the name in its cell"
    grep -q '<td>BM_Parse|json/1/iterations:20/manual_time</td>' comment.html || fail "rendered: a | inside a name"
else
    fail "cmark-gfm missing (scripts/install-deps installs it)"
fi

# Every metric (real_time and cpu_time): the gate fails all the same.
run bd compare base.json head.json --format markdown --gate
expect_rc 3 "every metric: the gate fails"
grep -q '^| BM_Parse\\|json/1/iterations:20/manual_time | real_time (sec) |' "$T/out" || fail "every metric: real_time's row"

# --only-changed in the other formats; the envelope's counts.
run bd compare base.json head.json --metric real_time --only-changed --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f4 | tr -d '\r' | tr '\n' ' ')" \
    "BM_Sort<std::string>/1/iterations:20/manual_time BM_Sort<std::string>/3/iterations:20/manual_time BM_Parse|json/1/iterations:20/manual_time " \
    "--only-changed: the changed cells' rows in CSV"
# The answer first: merged as on a terminal, the summary before the rows.
bd compare base.json head.json --metric real_time --only-changed --format csv >"$T/merged" 2>&1
expect_eq "$(head -1 "$T/merged")" "compare: regressed (2 slower, 1 faster, 3 unchanged)" "files, CSV: the summary first"
expect_eq "$(sed -n 2p "$T/merged" | cut -c1-5)" "$(head -1 "$T/out" | cut -c1-5)" "files, CSV: the header follows"
# The table too: the summary before benchstat's tables, not after them.
bd compare base.json head.json --metric real_time >"$T/merged" 2>&1
expect_eq "$(head -1 "$T/merged")" "compare: regressed (2 slower, 1 faster, 3 unchanged)" "files, table: the summary first"
expect_eq "$(tail -1 "$T/merged" | cut -c1-7)" "geomean" "files, table: the tables follow"
run bd compare base.json head.json --metric primary --only-changed
expect_eq "$(grep -c 'manual_time' "$T/out")" 3 "--only-changed table: three rows"
expect_eq "$(grep -c geomean "$T/out")" 0 "--only-changed table: no geomean row"
expect_err_has "compare: regressed (2 slower, 1 faster, 3 unchanged)" "the summary on stderr"
run bd compare base.json head.json --metric real_time --format json --envelope
python3 - "$T/out" <<'PY' || fail "the envelope carries the counts"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["counts"]
assert (c["slower"], c["faster"], c["unchanged"], c["benchmarks"], c["gate"]) == (2, 1, 3, 6, "fails"), c
assert c["cells_compared"] == 6 and c["regressed"] == 2, c
assert len(d["rows"]) == 7 and d["verdict"] == "regressed", d["verdict"]
PY

# The same build twice: nothing changed, the gate passes.
run bd compare base.json ../base2.json --metric real_time --format markdown --gate
expect_rc 0 "an unchanged build passes"
expect_eq "$(head -n 1 "$T/out")" \
    "**0 slower, 0 faster, 6 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; n = 8+8) — gate: passes" \
    "the first line of a passing gate"
expect_out_has "No cell changed." "no table of changed cells"

# ---- on a store: the files as runs (the host from the files), the same comment ----
cd "$T" || exit 1
bd init >/dev/null
run bd ingest --plan pr-7 --run base job/base.json
expect_rc 0 "ingest without --host"
bd ingest -q --plan pr-7 --run head job/head.json
run bd list runs --plan pr-7 --format csv
host=$(python3 -c 'import json; print(json.load(open("job/base.json"))["context"]["host_name"])')
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f3 | tr -d '\r' | sort -u)" "$host" "the host is context.host_name"
run bd compare --plan pr-7 base head --metric real_time --format markdown --gate
expect_rc 3 "on a store: the gate"
expect_eq "$(head -n 1 "$T/out")" \
    "**2 slower, 1 faster, 3 unchanged** (unchanged: p > 0.05, Mann–Whitney U test; n = 8+8) — gate: fails" \
    "on a store: the same first line"
expect_eq "$(sed -n 3p "$T/out")" "| benchmark | unit | base | head | change | p | verdict |" "on a store: the sides' names"
expect_eq "$(grep -c '^| BM_.* | real_time (sec) | ' "$T/out")" 3 "on a store: the three changed cells"
expect_err_has "recorded as evaluation 1 (see 'benchdb history compare')" "a gate is recorded"
expect_err_has "compare: regressed (2 slower, 1 faster, 3 unchanged)" "the note"
run bd compare --plan pr-7 base head --metric primary --only-changed --format csv --no-record
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 3 "on a store: --only-changed in CSV"
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f5 | sort -u | tr -d '\r')" "real_time" "the metric named as the harness names it"
bd compare --plan pr-7 base head --metric primary --only-changed --format csv --no-record >"$T/merged" 2>&1
expect_eq "$(head -1 "$T/merged" | cut -d' ' -f1-2)" "compare: regressed" "on a store, CSV: the summary first"
bd compare --plan pr-7 base head --metric real_time --no-record >"$T/merged" 2>&1
expect_eq "$(head -1 "$T/merged")" "compare: regressed (2 slower, 1 faster, 3 unchanged)" "on a store, table: the summary first"
run bd compare --plan pr-7 base head --metric cpu --no-record
expect_rc 2 "a metric the plan lacks"
expect_err_has "error: compare: metric 'cpu' has no values in plan pr-7; did you mean 'cpu_time'? (metrics: cpu_time, primary, real_time; or a unit of one: " \
    "it names the nearest"
run bd compare --plan pr-7 base head --metric ns --no-record
expect_rc 2 "a unit of two metrics (real_time and cpu_time in ns)"
expect_err_has "error: compare: metric: 'ns' is the unit of several metrics in plan pr-7: " "names them"
expect_err_has "; name one" "and asks for one"
# A table's heading names its metric too: 'cpu_time (sec)' is cpu_time's,
# on a store and on files; on files a unit names every table of it.
run bd compare --plan pr-7 base head --metric 'cpu_time (sec)' --no-record
expect_rc 0 "--metric as a table's heading, on a store"
expect_eq "$(grep -c '│ cpu_time (sec) │' "$T/out") $(grep -c 'real_time' "$T/out")" "1 0" \
    "--metric 'cpu_time (sec)' on a store: cpu_time's table alone"
run bd compare job/base.json job/head.json --metric 'real_time (sec)'
expect_eq "$(grep -c '│ real_time (sec) │' "$T/out") $(grep -c 'cpu_time' "$T/out")" "1 0" \
    "--metric 'real_time (sec)' on files: real_time's table alone"
run bd compare job/base.json job/head.json --metric sec
expect_eq "$(grep -c '│ real_time (sec) │' "$T/out") $(grep -c '│ cpu_time (sec) │' "$T/out")" "1 1" \
    "--metric sec on files: both tables of that unit"

finish
