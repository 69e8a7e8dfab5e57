# benchdb compare on two files of each of the tinybench, Vitest, Benchmark.js,
# BenchmarkDotNet, BMF and CSV formats
# (through a store in memory, docs/queries.md "compare on files"): the head
# file is the base file with every value times 1.25 (made here), so each
# primary cell's medians must be in the ratio 1.25, with the base file's
# number of values.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
S=$BENCHDB_SRC/tests/data/harness
python3 - "$S" <<'PY' || fail "making the head files"
import json, sys
S = sys.argv[1]
def scale(x):
    return x * 1.25
def walk(v, keys):
    if isinstance(v, dict):
        return {k: (scale_all(x) if k in keys else walk(x, keys)) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, keys) for x in v]
    return v
def scale_all(x):
    if isinstance(x, list):
        return [scale_all(y) for y in x]
    return scale(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x
cases = {"tinybench": ("tinybench/tinybench6_retained.json", {"samples"}),
         "vitest": ("vitest/bencher_vitest_two.json", {"mean"}),
         "benchmarkjs": ("benchmarkjs/benchmarkjs_suite.json", {"sample"}),
         "benchmarkdotnet": ("benchmarkdotnet/launches_overhead_params.json", {"Nanoseconds"}),
         "bmf": ("bmf/bencher_report_latency.json", {"value"})}
for fmt, (path, keys) in cases.items():
    doc = json.load(open(f"{S}/{path}"))
    json.dump(doc, open(f"{fmt}-base.json", "w"))
    json.dump(walk(doc, keys), open(f"{fmt}-head.json", "w"))
lines = open(f"{S}/csv/table.csv").read().splitlines()
import csv
rows = list(csv.reader(lines))
i = rows[0].index("value")
open("csv-base.csv", "w").write("\n".join(lines) + "\n")
w = csv.writer(open("csv-head.csv", "w", newline=""), lineterminator="\n")
w.writerow(rows[0])
for r in rows[1:]:
    r[i] = repr(scale(float(r[i])))
    w.writerow(r)
PY
for fmt in tinybench vitest benchmarkjs benchmarkdotnet bmf csv; do
    ext=json
    [ "$fmt" = csv ] && ext=csv
    run bd compare --format csv "base=$fmt-base.$ext" "head=$fmt-head.$ext"
    expect_rc 0 "$fmt: compare"
    python3 - "$fmt" "$T/out" "$BENCHDB_SRC/tests/cli/lib" "$fmt-base.$ext" <<'PY' || fail "$fmt: each primary cell's medians in the ratio 1.25"
import csv, sys
fmt, out, lib, base = sys.argv[1:5]
sys.path.insert(0, lib)
import values_js_net  # the independent reading of the file (tests/cli/lib)
rows = [r for r in csv.DictReader(open(out)) if r["kind"] == "cell" and r["metric"] == "primary"]
assert rows, "no primary cell compared"
for r in rows:
    a, b = float(r["median_a"]), float(r["median_b"])
    assert abs(b / a - 1.25) < 1e-12, (r["benchmark"], a, b)
    assert r["n_a"] == r["n_b"] and int(r["n_a"]) >= 1, r
# as many cells as the file has primary (name, params), with all their values
o = values_js_net.Out()
values_js_net.READERS[fmt](base, o)
cells = {}
for (name, params, fork, metric), (unit, vals, warm) in o.series.items():
    if metric == "primary":
        cells[(name, params)] = cells.get((name, params), 0) + len(vals)
assert len(rows) == len(cells), (len(rows), cells)
assert sorted(int(r["n_a"]) for r in rows) == sorted(cells.values()), ([r["n_a"] for r in rows], cells)
print(fmt, len(rows), "cells")
PY
    checks=$((checks + 1))
done
finish
