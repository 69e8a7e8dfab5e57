#!/usr/bin/env python3
"""Checks `benchdb compare --format csv` against a benchstat v2 golden.

    check_compare.py GOLDEN.stdout OURS.csv [GOLDEN.stdout OURS.csv ...]

Each pair is checked in turn by one process (a summary line each, naming
the golden; exit 1 when any failed).

Every row of every table of the golden must have a row in OURS (and OURS
no other row) whose numbers print as the golden prints them:

  - each side's median, scaled to the golden's prefix (1.718µ, 46.55n,
    2.001Gi) and with its decimals, and "± x%" (pm_a, pm_b: "∞" when NULL
    and benchdb says the interval needs more samples, "?" otherwise);
  - the change: "~" when the verdict is ~, "?" when change is NULL,
    "0.00%" when it is 0, else %+.2f; p with three decimals (absent when
    benchstat prints none: an exact unit) and n ("n=10" or "n=5+6");
  - the warnings: the notes benchstat marks anywhere on the row (any
    column) are the lines of OURS's warnings, no more, no fewer (but
    benchdb's caveat on its own shift interval, "with 1+1 values the
    shift's interval cannot reach confidence 0.95");
  - the geomean row: each side's geometric mean (blank where benchstat
    prints none), the change and the notes.

Go and Python both print the exact binary value rounded half to even, so a
number prints the same when it is the same double. benchdb's medians are
computed in the unit ingested (ns/op) where benchstat first multiplies by
1e-9, so the doubles can differ in the last bit; a printed number passes
when it lies within 1e-9 of a half unit of the golden's rounding boundary,
where that last bit decides. Units: ns/op is benchstat's sec/op (1e-9),
MB/s its B/s (1e6); names are benchstat's: without "Benchmark", with the
"-N" of params.procs. Prints the number of checks; exits 1 on a failure.
"""
import csv
import json
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchstat_text import PREFIX, parse_tables  # noqa: E402

TIDY = {"ns/op": ("sec/op", 1e-9), "MB/s": ("B/s", 1e6)}


def printed(x, fmt, golden, half):
    """x prints as golden with fmt, or lies on golden's rounding boundary."""
    if fmt % x == golden:
        return True
    g = float(golden.rstrip("%"))
    return abs(abs(x - g) - half) <= 1e-9 * half


def decimals(text):
    t = text.rstrip("%")
    return len(t.split(".")[1]) if "." in t else 0


def benchstat_name(row):
    name = row["benchmark"]
    if name.startswith("Benchmark"):
        name = name[len("Benchmark"):]
    params = json.loads(row["params"] or "{}")
    if "procs" in params:
        name += "-%d" % params["procs"]
    return name


def csv_tables(path):
    """The CSV golden (benchstat -format csv) as parse_tables gives a text
    golden: centers in full (Go's %v), "x%" spreads, the change and "p=...
    n=..." in their own fields."""
    table, header = None, None
    for f in csv.reader(open(path, newline="")):
        if len(f) < 3:
            continue
        if f[0] == "" and header is None:
            header = f
        elif f[0] == "" and table is None:
            table = {"cols": [header[1], header[3]], "unit": f[1], "rows": [], "notes": {}}
        elif table is not None:
            cells = []
            for k, (center, pct) in enumerate(((f[1], f[2]), (f[3], f[4]))):
                c = {"center": center, "prefix": "", "pct": pct or None, "marks": "", "exact": True}
                if k == 1 and f[5]:
                    p, n = (f[6].split() + ["", ""])[:2] if f[6] else ("", "")
                    c.update(delta=f[5], p=p[2:] if p.startswith("p=") else None,
                             n=n[2:] if n.startswith("n=") else None)
                cells.append(c)
            table["rows"].append({"name": f[0], "geomean": f[0] == "geomean", "cells": cells})
    return [table]


def compare(golden, ours_path):
    with open(ours_path, newline="") as f:
        ours = list(csv.DictReader(f))
    failures, checks = [], 0

    def check(ok, what):
        nonlocal checks
        checks += 1
        if not ok:
            failures.append(what)

    # Our rows by (benchstat unit, name); geomean rows by unit.
    cells, geomeans, factor = {}, {}, {}
    for r in ours:
        unit, mult = TIDY.get(r["unit"], (r["unit"], 1.0))
        factor[unit] = mult
        if r["kind"] == "geomean":
            geomeans[unit] = r
        else:
            cells[(unit, benchstat_name(r))] = r
    seen = set()
    text = Path(golden).read_text()
    for t in parse_tables(golden) if "│" in text else csv_tables(golden):
        unit, notes = t["unit"], t["notes"]
        mult = factor.get(unit, 1.0)
        for grow in t["rows"]:
            where = "%s %s" % (unit, grow["name"])
            r = geomeans.get(unit) if grow["geomean"] else cells.get((unit, grow["name"]))
            check(r is not None, where + ": no such row in benchdb's output")
            if r is None:
                continue
            seen.add(id(r))
            marks = set()
            for side, c in enumerate(grow["cells"]):
                median, pm, n = ("median_b", "pm_b", "n_b") if side else ("median_a", "pm_a", "n_a")
                col = "%s [%s]" % (where, t["cols"][side])
                if c is not None:
                    marks |= set(c["marks"])
                if c is None or "center" not in c:
                    check(r[median] == "", col + ": benchstat shows no value, benchdb %r" % r[median])
                    if not grow["geomean"]:
                        check(r[n] == "0", col + ": benchstat shows no value, benchdb has n = %s" % r[n])
                    continue
                check(r[median] != "", col + ": no median")
                if r[median] == "":
                    continue
                scaled = float(r[median]) * mult / PREFIX[c["prefix"]]
                d = decimals(c["center"])
                if c.get("exact"):
                    # Printed in full: the same double, but for the scaling
                    # (ns/op to sec/op) and, in the geomean row, the order
                    # of operations (Go sums logarithms; geomean() multiplies).
                    tol = 1e-14 if grow["geomean"] else 4e-16
                    check(abs(scaled - float(c["center"])) <= tol * abs(float(c["center"])),
                          col + ": median %r * %g is not %s" % (r[median], mult, c["center"]))
                    continue
                check(printed(scaled, "%%.%df" % d, c["center"], 0.5 * 10.0 ** -d),
                      col + ": median %r prints as %s, not %s%s" % (r[median], "%.*f" % (d, scaled),
                                                                  c["center"], c["prefix"]))
                if c["pct"] is not None:
                    if c["pct"] in ("∞", "?"):
                        check(r[pm] == "", col + ": ± %s, benchdb %r" % (c["pct"], r[pm]))
                        unbounded = "samples for confidence interval" in r["warnings"]
                        check((c["pct"] == "∞") == unbounded, col + ": ± %s and the warnings disagree" % c["pct"])
                    else:
                        check(r[pm] != "" and printed(float(r[pm]), "%.0f%%", c["pct"], 0.5),
                              col + ": ± %r, golden %s" % (r[pm], c["pct"]))
            comp = grow["cells"][1] if len(grow["cells"]) > 1 else None
            if comp is not None and "delta" in comp:
                col = "%s: change" % where
                delta = comp["delta"]
                if delta == "~":
                    check(r["verdict"] == "~", col + ": ~, benchdb's verdict %r" % r["verdict"])
                elif delta == "?":
                    check(r["change"] == "", col + ": ?, benchdb %r" % r["change"])
                elif delta == "0.00%" and not grow["geomean"]:
                    check(r["change"] != "" and float(r["change"]) == 0, col + ": 0.00%%, benchdb %r" % r["change"])
                else:
                    check(r["change"] != "" and r["verdict"] != "~" and
                          printed(float(r["change"]), "%+.2f%%", delta, 0.005),
                          col + ": %s, benchdb %r (%s)" % (delta, r["change"], r["verdict"]))
                if not grow["geomean"]:
                    if comp["p"] is None:
                        check(r["p"] == "", col + ": no p in benchstat, benchdb %r" % r["p"])
                    else:
                        check(r["p"] != "" and printed(float(r["p"]), "%.3f", comp["p"], 0.0005),
                              col + ": p=%s, benchdb %r" % (comp["p"], r["p"]))
                    n = comp["n"].split("+")
                    check((r["n_a"], r["n_b"]) == (n[0], n[-1]), col + ": n=%s, benchdb %s+%s" %
                          (comp["n"], r["n_a"], r["n_b"]))
            want = sorted(notes[m] for m in marks)
            # benchdb's own caveat on its shift interval, a column benchstat
            # has not (tests/cli/compare_few.sh checks it), is left out.
            got = sorted(w for w in r["warnings"].split("\n")
                         if w and " values the shift's interval cannot reach confidence " not in w)
            check(want == got, where + ": warnings %r, benchdb %r" % (want, got))
    # benchstat's text tables show the geomean row only under more than one
    # row; the CSV shows it always.
    single = {u for u in geomeans if sum(1 for (cu, _) in cells if cu == u) == 1}
    for r in ours:
        if r["kind"] == "geomean" and "│" in text and TIDY.get(r["unit"], (r["unit"],))[0] in single:
            continue
        check(id(r) in seen, "benchdb's row %s %s %s has no row in the golden" %
              (r["kind"], r["benchmark"], r["unit"]))
    for f in failures:
        print("FAIL: " + f)
    print("%s: %d checks, %d failed" % (Path(golden).name, checks, len(failures)))
    return not failures


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit("usage: check_compare.py GOLDEN.stdout OURS.csv [GOLDEN.stdout OURS.csv ...]")
    ok = [compare(g, o) for g, o in zip(args[0::2], args[1::2])]
    sys.exit(0 if all(ok) else 1)


main()
