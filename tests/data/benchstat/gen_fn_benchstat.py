#!/usr/bin/python3
"""Writes tests/sql/fn_benchstat.sql: every comparison of benchstat v2's
golden outputs in this folder recomputed with median_ci() and
mann_whitney(x, first, 'benchstat'), checked against the printed text.

For each row and column of a golden table, from the benchmark files:
  - the median, scaled as the row is printed (46.55n: center / 1e-9 with
    two decimals), must print as the golden does;
  - "± x%" must follow from median_ci's center, lo and hi by benchstat's
    rule (ALGORITHMS.md 1.4, Summary.PctRangeString): "∞" when lo or hi is
    null, "?" when their signs differ from the center's, "0%" for a zero
    center, else 100 max(hi/center - 1, 1 - lo/center) with no decimals;
  - against the first column: p (mann_whitney's 'benchstat' p, or 1 where
    benchstat reports "all samples are equal" and p is null) with three
    decimals, n, and the change: "~" when p > 0.05, else
    (new/old - 1) 100 with two decimals and a sign.
Go rounds the exact binary value when it prints; SQLite's printf() does not
always (15.0144999999999999574 prints as 15.015), so a check passes when
printf() gives the golden's text or the value lies, to 1e-9 of the half
unit, on the rounding boundary next to the golden's number: there the
exact binary value decides, which this test cannot see. The CSV golden
prints the centers in full (Go's %v): they must be the same doubles. Values are tidied to base units as benchstat does (ns/op times
1e-9, MB/s times 1e6).

Run from the source root: /usr/bin/python3 tests/data/benchstat/gen_fn_benchstat.py
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "sql" / "fn_benchstat.sql"

TIDY = {"ns/op": ("sec/op", "1e-9"), "MB/s": ("B/s", "1e6")}
PREFIX = {"T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "": 1, "m": 1e-3, "µ": 1e-6, "n": 1e-9,
          "Ti": 2.0**40, "Gi": 2.0**30, "Mi": 2.0**20, "Ki": 2.0**10}


def read_bench(path):
    """(config dict at the line, name, unit, value text) per measurement."""
    config = {}
    rows = []
    for line in (HERE / path).read_text().splitlines():
        m = re.match(r"^([a-z][^\s:]*): (.*)$", line)
        if m:
            config[m.group(1)] = m.group(2)
            continue
        if not line.startswith("Benchmark"):
            continue
        f = line.split()
        name = f[0][len("Benchmark"):]
        for i in range(2, len(f) - 1, 2):
            rows.append((dict(config), name, f[i + 1], f[i]))
    return rows


def parse_golden(path):
    """Tables of the text golden: {(name, unit, column): cell dict}."""
    cells = {}
    lines = (HERE / path).read_text().splitlines()
    i = 0
    while i < len(lines):
        if "│" not in lines[i]:
            i += 1
            continue
        header, units = lines[i], lines[i + 1]
        bars = [k for k, ch in enumerate(header) if ch == "│"]
        cols = [header[bars[k] + 1:bars[k + 1]].strip() for k in range(len(bars) - 1)]
        col_units = [units[bars[k] + 1:bars[k + 1]].split()[0] for k in range(len(bars) - 1)]
        i += 2
        while i < len(lines) and lines[i].strip() and "│" not in lines[i]:
            line = lines[i]
            i += 1
            name = line.split()[0]
            if name == "geomean" or line[0] in "¹²³⁴⁵":
                continue
            span = lambda pos: max(k for k in range(len(bars) - 1) if bars[k] <= pos)
            for m in re.finditer(r"(-?[\d.]+)(Ti|Gi|Mi|Ki|[TGMkmµn]?) ± (\S+)", line):
                c = span(m.start())
                cells.setdefault((name, col_units[c], cols[c]), {}).update(
                    center=m.group(1), prefix=m.group(2), pct=m.group(3))
            for m in re.finditer(r"(~|[+-]?[\d.]+%|\?) +\(p=([\d.]+) n=([\d+]+)\)", line):
                c = span(m.start())
                cells.setdefault((name, col_units[c], cols[c]), {}).update(
                    delta=m.group(1), p=m.group(2), n=m.group(3), base=cols[0])
    return cells


def parse_csv(path):
    """{(name, column): center text} of the CSV golden's data rows."""
    out = {}
    lines = (HERE / path).read_text().splitlines()
    files = None
    for line in lines:
        f = line.split(",")
        if files is None and len(f) > 2 and f[0] == "" and f[1].endswith(".txt"):
            files = [f[1], f[3]]
        elif files and len(f) >= 7 and f[0] not in ("", "geomean"):
            out[(f[0], files[0])] = f[1]
            out[(f[0], files[1])] = f[3]
    return out


# Golden name -> (text golden, benchmark files, column of a measurement).
CASES = [
    ("crcIgnore", "crcIgnore.stdout", ["crc-old.txt", "crc-new.txt"], lambda f, cfg: f),
    ("example01", "example01.stdout", ["old.txt", "new.txt"], lambda f, cfg: f),
    ("smallSample", "smallSample.stdout", ["smallSample.txt"], lambda f, cfg: cfg.get("note", "")),
    ("issue19565", "issue19565.stdout", ["issue19565.txt"], lambda f, cfg: cfg.get("note", "")),
    ("issue19634", "issue19634.stdout", ["issue19634.txt"], lambda f, cfg: cfg.get("note", "")),
]


# benchstat's "± x%": the larger one-sided relative half-width, in percent.
PCT = "100 * max(hi / center - 1, 1 - lo / center)"


def boundary(expr, golden, half):
    """SQL: expr lies on the rounding boundary next to the golden number."""
    return "abs(abs((%s) - %s) - %r) <= %r" % (expr, golden, half, 1e-9 * half)


def printed(cid, fmt, expr, golden_text, golden_num, half, source):
    """A check that expr prints as the golden text (or lies on the boundary)."""
    return "SELECT %s, (SELECT printf('%s', %s) = %s OR %s FROM %s);" % (
        sql_str(cid), fmt, expr, sql_str(golden_text), boundary(expr, golden_num, half), source)


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def main():
    out = ["-- benchstat v2's golden comparisons (tests/data/benchstat) recomputed with median_ci and",
           "-- mann_whitney(x, first, 'benchstat'); each printed number must follow. See the generator.",
           "-- GENERATED by tests/data/benchstat/gen_fn_benchstat.py; do not edit by hand.",
           "",
           "CREATE TEMP TABLE raw(gcase TEXT, col TEXT, name TEXT, unit TEXT, v REAL);"]
    data = []
    for gcase, _, files, colf in CASES:
        for f in files:
            for cfg, name, unit, v in read_bench(f):
                data.append("(%s, %s, %s, %s, %s)" % (sql_str(gcase), sql_str(colf(f, cfg)), sql_str(name),
                                                     sql_str(unit), v))
    for k in range(0, len(data), 400):
        out.append("INSERT INTO raw VALUES\n  " + ",\n  ".join(data[k:k + 400]) + ";")
    tidy = " ".join("WHEN %s THEN v * %s" % (sql_str(u), f) for u, (_, f) in TIDY.items())
    tunit = " ".join("WHEN %s THEN %s" % (sql_str(u), sql_str(t)) for u, (t, _) in TIDY.items())
    out += ["-- Base units as benchstat tidies them.",
            "CREATE TEMP TABLE b AS SELECT gcase, col, name, CASE unit %s ELSE unit END AS unit," % tunit,
            "  CASE unit %s ELSE v END AS x FROM raw;" % tidy,
            "CREATE TEMP TABLE s AS SELECT gcase, col, name, unit, median_ci(x) AS ci FROM b GROUP BY gcase, col, name, unit;",
            "-- JSON writes an integral double without a fraction: read the members as reals.",
            "CREATE TEMP TABLE c AS SELECT gcase, col, name, unit, CAST(json_extract(ci, '$.center') AS REAL) AS center,",
            "  CAST(json_extract(ci, '$.lo') AS REAL) AS lo, CAST(json_extract(ci, '$.hi') AS REAL) AS hi FROM s;",
            ""]
    checks = 0
    for gcase, golden, files, _ in CASES:
        for (name, unit, col), cell in sorted(parse_golden(golden).items()):
            where = "gcase = %s AND name = %s AND unit = %s" % (sql_str(gcase), sql_str(name), sql_str(unit))
            here = "%s AND col = %s" % (where, sql_str(col))
            cid = "%s/%s/%s/%s" % (gcase, name, unit, col)
            if "center" in cell:
                decimals = len(cell["center"].split(".")[1]) if "." in cell["center"] else 0
                scaled = "center / %r" % PREFIX[cell["prefix"]]
                out.append(printed(cid + "/center", "%%.%df" % decimals, scaled, cell["center"], cell["center"],
                                   0.5 * 10.0**-decimals, "c WHERE " + here))
                pct = ("CASE WHEN lo IS NULL OR hi IS NULL THEN '∞'"
                       " WHEN sign(lo) <> sign(center) OR sign(hi) <> sign(center) THEN '?'"
                       " WHEN center = 0 THEN '0%%' ELSE printf('%%.0f%%%%', %s) END" % PCT)
                near = cell["pct"].rstrip("%") if cell["pct"][0].isdigit() else None
                out.append("SELECT %s, (SELECT %s = %s%s FROM c WHERE %s);" % (
                    sql_str(cid + "/pct"), pct, sql_str(cell["pct"]),
                    " OR lo IS NOT NULL AND hi IS NOT NULL AND center <> 0 AND %s" % boundary(PCT, near, 0.5) if near else "",
                    here))
                checks += 2
            if "p" in cell:
                pair = "(SELECT mann_whitney(x, col = %s, 'benchstat') AS mw FROM b WHERE %s AND col IN (%s, %s))" % (
                    sql_str(cell["base"]), where, sql_str(cell["base"]), sql_str(col))
                p = "coalesce(json_extract(mw, '$.p'), 1)"
                out.append(printed(cid + "/p", "%.3f", p, cell["p"], cell["p"], 0.0005, pair))
                n = cell["n"].split("+")
                n1, n2 = (n[0], n[0]) if len(n) == 1 else (n[0], n[1])
                out.append("SELECT %s, (SELECT json_extract(mw, '$.n1') = %s AND json_extract(mw, '$.n2') = %s FROM %s);"
                           % (sql_str(cid + "/n"), n1, n2, pair))
                base = "(SELECT center FROM c WHERE %s AND col = %s)" % (where, sql_str(cell["base"]))
                new = "(SELECT center FROM c WHERE %s)" % here
                change = "(%s / %s - 1) * 100" % (new, base)
                delta = ("CASE WHEN %s > 0.05 THEN '~' WHEN %s = %s THEN '0.00%%' WHEN %s = 0 THEN '?'"
                         " ELSE printf('%%+.2f%%%%', %s) END" % (p, base, new, base, change))
                near = cell["delta"].rstrip("%") if cell["delta"][-1] == "%" else None
                out.append("SELECT %s, (SELECT %s = %s%s FROM %s);" % (
                    sql_str(cid + "/delta"), delta, sql_str(cell["delta"]),
                    " OR %s <= 0.05 AND %s" % (p, boundary(change, near, 0.005)) if near else "", pair))
                checks += 3
    # The CSV golden: the centers to the last bit.
    for (name, col), center in sorted(parse_csv("csvOldNew.stdout").items()):
        out.append("SELECT %s, (SELECT center FROM c WHERE gcase = 'example01' AND name = %s AND unit = 'sec/op'"
                   " AND col = %s) = %s;" % (sql_str("csvOldNew/%s/%s/center" % (name, col)), sql_str(name),
                                            sql_str(col), center))
        checks += 1
    if checks < 300:
        sys.exit("gen_fn_benchstat: only %d checks; the goldens did not parse" % checks)
    OUT.write_text("\n".join(out) + "\n")
    print("%s: %d checks" % (OUT, checks))


main()
