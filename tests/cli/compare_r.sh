# The saved query `compare` against R (tools/gen/r/gen_compare_r.R wrote
# tests/data/compare-r): with method r, every cell's p is wilcox.test's,
# p_adjusted is p.adjust(p, "holm") and p.adjust(p, "BH") over all cells
# (ties among the p-values included), change_lo and change_hi are the
# Hodges-Lehmann interval of log(head) - log(base) from wilcox.test(...,
# conf.int = TRUE) as percentages, the medians are median()'s and ± follows
# from the order statistics of the median's interval computed in R: each to
# 1e-12 relative.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
D=$BENCHDB_SRC/tests/data/compare-r
bd init >/dev/null
bd ingest --quiet "$D/base.jsonl" "$D/head.jsonl" || fail "ingest"

for adjust in none holm bh; do
    run bd compare --method r --adjust "$adjust" --format csv --no-record base head
    expect_rc 0 "compare --adjust $adjust"
    cp "$T/out" "$T/$adjust.csv"
done
run python3 - "$BENCHDB_SRC/tests/cli/lib" "$D/expected.csv" "$T/none.csv" "$T/holm.csv" "$T/bh.csv" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv.pop(1))
from checks import Checks
t = Checks()
want = {r["benchmark"]: r for r in csv.DictReader(open(sys.argv[1]))}
runs = {}
for name, path in zip(("none", "holm", "bh"), sys.argv[2:]):
    runs[name] = {r["benchmark"]: r for r in csv.DictReader(open(path, newline="")) if r["kind"] == "cell"}
def close(what, got, exp):
    t.close(got, float(exp), what)
for cell, w in want.items():
    if not all(t.check(cell in runs[adj], "%s: missing with --adjust %s" % (cell, adj)) for adj in runs):
        continue
    r = runs["none"][cell]
    close(cell + " p", r["p"], w["p"])
    close(cell + " p_adjusted (none)", r["p_adjusted"], w["p"])
    close(cell + " p_adjusted (holm)", runs["holm"][cell]["p_adjusted"], w["holm"])
    close(cell + " p_adjusted (bh)", runs["bh"][cell]["p_adjusted"], w["bh"])
    close(cell + " median_a", r["median_a"], w["median_a"])
    close(cell + " median_b", r["median_b"], w["median_b"])
    close(cell + " pm_a (median_ci's interval)", r["pm_a"], w["pm_a"])
    close(cell + " pm_b (median_ci's interval)", r["pm_b"], w["pm_b"])
    if w["lo"]:
        close(cell + " change_lo", r["change_lo"], w["lo"])
        close(cell + " change_hi", r["change_hi"], w["hi"])
t.check(len(runs["none"]) == len(want), "%d cells, R has %d" % (len(runs["none"]), len(want)))
t.finish(least=250)
PY
expect_rc 0 "compare agrees with R"
cat "$T/out"

# The adjustment changes verdicts: fewer cells significant under Holm.
sig() { awk -F, 'NR > 1 && $1 == "cell" && $18 != "~" && $18 != "" { n++ } END { print n + 0 }' "$T/$1.csv"; }
[ "$(sig holm)" -lt "$(sig none)" ] || fail "holm leaves fewer significant cells ($(sig holm) of $(sig none))"
checks=$((checks + 1))

finish
