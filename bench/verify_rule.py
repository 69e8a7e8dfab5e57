#!/usr/bin/python3
"""Checks that two texts of a saved rule give identical rows (exact
equality, floats included) on every plan of a store: the check behind a
performance rewrite of queries/placement-rule.sql (bench/changes.md).

    /usr/bin/python3 bench/verify_rule.py STORE OLD.sql NEW.sql EXTENSION [COMPARISONS.sql]

EXTENSION is build/benchstats (without .so); it needs a Python whose
sqlite3 can load extensions (Debian's /usr/bin/python3 can). Every plan
with the defaults, every third with direction=reverse, every tenth with
level 0.9 and the band 0.98..1.02.

A rule's rows are counts and shares: an interval off in its last bits
would almost never change them. So the numbers behind them are compared
too: when a text has a `comparisons` CTE followed by `counts`, its
comparisons (kind, run_group, estimate, lo, hi) must be the same multiset
of doubles in both texts, and, given COMPARISONS.sql (the saved query
`comparisons`), the same as that query's.
"""
import re
import sqlite3
import sys


def defaults(text):
    d = {}
    for m in re.finditer(r"^-- param: (\w+)(?: += +(\S+))?", text, re.M):
        if m.group(2) is not None:
            try:
                d[m.group(1)] = float(m.group(2))
            except ValueError:
                d[m.group(1)] = m.group(2)
    return d


def comparisons_of(text):
    """The rule's text cut after its comparisons CTE, selecting them; None
    when it has none."""
    m = re.search(r"^comparisons AS .*?^\),\s*^counts AS", text, re.M | re.S)
    if not m:
        return None
    cut = text[:m.end() - len("counts AS")].rstrip().rstrip(",")
    return cut + "\nSELECT kind, run_group, estimate, lo, hi FROM comparisons"


def multiset(rows):
    return sorted(rows, key=repr)


def main():
    store, old_path, new_path, ext = sys.argv[1:5]
    saved = open(sys.argv[5]).read() if len(sys.argv) > 5 else None
    db = sqlite3.connect(store)
    db.enable_load_extension(True)
    db.load_extension(ext)
    old, new = open(old_path).read(), open(new_path).read()
    old_cmp, new_cmp = comparisons_of(old), comparisons_of(new)
    plans = [r[0] for r in db.execute("SELECT name FROM plan ORDER BY id")]
    variants = [{}, {"direction": "reverse"}, {"band_lo": 0.98, "band_hi": 1.02, "level": 0.9}]
    n = diff = ncmp = 0
    for k, plan in enumerate(plans):
        for vi, v in enumerate(variants):
            if (vi == 1 and k % 3) or (vi == 2 and k % 10):
                continue
            params = defaults(old)
            params.update(v)
            params["plan"] = plan
            a = db.execute(old, params).fetchall()
            b = db.execute(new, params).fetchall()
            n += 1
            if a != b:
                diff += 1
                print("DIFF", plan, v, a, b)
            if new_cmp is None:
                continue
            nb = multiset(db.execute(new_cmp, params).fetchall())
            sets = {}
            if old_cmp is not None:
                sets["old rule"] = multiset(db.execute(old_cmp, params).fetchall())
            if saved is not None:
                sp = {k2: params[k2] for k2 in ("plan", "level", "band_lo", "band_hi", "direction", "group_by")}
                sets["comparisons"] = multiset((r[1], r[0], r[6], r[7], r[8])
                                               for r in db.execute(saved, sp).fetchall())
            for name, rows in sets.items():
                ncmp += 1
                if rows != nb:
                    diff += 1
                    bad = sum(x != y for x, y in zip(rows, nb)) + abs(len(rows) - len(nb))
                    print("DIFF", plan, v, f"comparisons: {bad} of {len(nb)} differ from the {name}'s")
    print("compared", n, "evaluations and", ncmp, "sets of comparisons,", diff, "differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
