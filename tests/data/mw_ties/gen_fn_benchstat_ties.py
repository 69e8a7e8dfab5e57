#!/usr/bin/python3
"""Writes tests/sql/fn_benchstat_ties.sql: mann_whitney(x, first, 'benchstat')
on every tied comparison that the real benchstat v2 printed for six
generated go-bench pairs, and on the two-valued reproducer of
docs/functions.md (mann_whitney).

Input: the pairs pNN/{base,head}.txt and benchstat's CSV output
pNN/benchstat.csv of the peer anchors' "v2-generated" folder (README.md
there: golang/perf 712aea8b with go-moremath c8bbc672, Go 1.19,
linux/amd64, default options; base.txt is the baseline). The SQL file
holds every value it needs, so the test reads nothing outside the
repository.

For each benchmark and unit whose two samples share a value or repeat one
(benchstat's exact distribution with ties: every sample here has at most
20 values), three checks:
  - p printed with three decimals as benchstat printed it, or exactly 0
    where benchstat printed no p (its Comparison.String leaves "p=" out
    when P is 0) and coalesce(p, 1) = 1 where it warned "all samples are
    equal";
  - p equal to the double nearest the exact p of gen_mw_ties.py's
    transcription of go-moremath (NUM.0 / DEN: both below 2^53);
  - "~" exactly when coalesce(p, 1) > 0.05, as benchstat's column shows.
Values are compared as benchstat reads them; ranks do not change when
ns/op is scaled to sec/op, so the values are kept as written.

Run from the source root, with the peer anchors beside the repository:
    python3 tests/data/mw_ties/gen_fn_benchstat_ties.py ../shared/anchors/benchstat/v2-generated
"""
import os
import sys
from fractions import Fraction as F
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_mw_ties import mann_whitney_u_test  # noqa: E402

OUT = HERE.parent.parent / "sql" / "fn_benchstat_ties.sql"
TIDY = {"ns/op": "sec/op", "MB/s": "B/s"}


def read_bench(path):
    """{(name, unit): [value text]} in file order, benchstat's names."""
    out = {}
    for line in path.read_text().splitlines():
        if not line.startswith("Benchmark"):
            continue
        f = line.split()
        name = f[0][len("Benchmark"):]
        for i in range(2, len(f) - 1, 2):
            out.setdefault((name, TIDY.get(f[i + 1], f[i + 1])), []).append(f[i])
    return out


def read_csv(path):
    """{(name, unit): (delta, "p=0.324 n=4+14" or "n=5+9")}."""
    out, unit = {}, None
    for line in path.read_text().splitlines():
        f = line.split(",")
        if len(f) >= 7 and f[0] == "" and f[2] == "CI":
            unit = f[1]
        elif unit and len(f) >= 7 and f[0] not in ("", "geomean"):
            out[(f[0], unit)] = (f[5], f[6])
    return out


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def checks(cid, base, head, delta, pn, rows, out):
    """Appends the values of one comparison to rows and its checks to out."""
    for side, vals in (("base", base), ("head", head)):
        rows.extend("(%s, %s, %s)" % (sql_str(cid), sql_str(side), v) for v in vals)
    p, _ = mann_whitney_u_test([F(v) for v in base], [F(v) for v in head])
    mw = ("(SELECT mann_whitney(v, side = 'base', 'benchstat') AS mw FROM ties WHERE id = %s)" % sql_str(cid))
    pv = "coalesce(json_extract(mw, '$.p'), 1)"
    if pn.startswith("p="):
        printed = "printf('%%.3f', %s) = %s" % (pv, sql_str(pn.split()[0][2:]))
    else:
        printed = "json_extract(mw, '$.p') = 0"
    ref = "json_extract(mw, '$.p') IS NULL" if p is None else "json_extract(mw, '$.p') = %d.0 / %d" % (
        p.numerator, p.denominator)
    tilde = "(%s > 0.05) = %d" % (pv, delta == "~")
    n = pn.split("n=")[1]
    n1, n2 = (n.split("+") + [n])[:2]
    out.append("SELECT %s, (SELECT %s AND %s AND %s AND json_extract(mw, '$.n1') = %s AND json_extract(mw, '$.n2') = %s FROM %s);"
               % (sql_str(cid), printed, ref, tilde, n1, n2, mw))
    return p


def main():
    src = Path(sys.argv[1] if len(sys.argv) > 1 else HERE / "../../../../shared/anchors/benchstat/v2-generated")
    rows, out, stats = [], [], {"cells": 0, "zero": 0, "equal": 0}
    for pair in sorted(d for d in os.listdir(src) if d.startswith("p")):
        base = read_bench(src / pair / "base.txt")
        head = read_bench(src / pair / "head.txt")
        printed = read_csv(src / pair / "benchstat.csv")
        for key, bvals in base.items():
            hvals = head.get(key)
            allv = [F(v) for v in bvals + (hvals or [])]
            if not hvals or len(set(allv)) == len(allv):
                continue  # no ties: fn_benchstat covers the plain case
            delta, pn = printed[key]
            p = checks("%s/%s/%s" % (pair, key[0], key[1]), bvals, hvals, delta, pn, rows, out)
            stats["cells"] += 1
            stats["zero"] += p == 0
            stats["equal"] += p is None
    # The reproducer: benchstat prints "~ (p=0.324 n=4+14)".
    checks("reproducer/[1,2,2,2] vs [1 x11, 2 x3]", ["1", "2", "2", "2"], ["1"] * 11 + ["2"] * 3, "~",
           "p=0.324 n=4+14", rows, out)
    with open(OUT, "w") as f:
        f.write("-- mann_whitney(x, first, 'benchstat') on every tied comparison benchstat v2 printed for\n"
                "-- six generated pairs, and on the two-valued reproducer of docs/functions.md.\n"
                "-- GENERATED by tests/data/mw_ties/gen_fn_benchstat_ties.py; do not edit by hand.\n\n"
                "CREATE TEMP TABLE ties(id TEXT, side TEXT, v REAL);\nINSERT INTO ties VALUES\n  ")
        f.write(",\n  ".join(rows) + ";\n\n")
        f.write("\n".join(out) + "\n")
    print("%(cells)d tied comparisons (%(zero)d with p = 0, %(equal)d all equal)" % stats, file=sys.stderr)


if __name__ == "__main__":
    main()
