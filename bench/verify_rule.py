#!/usr/bin/python3
"""Checks that two texts of a saved rule give identical rows (exact
equality, floats included) on every plan of a store: the check behind a
performance rewrite of queries/placement-rule.sql (bench/changes.md).

    /usr/bin/python3 bench/verify_rule.py STORE OLD.sql NEW.sql EXTENSION

EXTENSION is build/benchstats (without .so); it needs a Python whose
sqlite3 can load extensions (Debian's /usr/bin/python3 can). Every plan
with the defaults, every third with direction=reverse, every tenth with
level 0.9 and the band 0.98..1.02.
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


def main():
    store, old_path, new_path, ext = sys.argv[1:5]
    db = sqlite3.connect(store)
    db.enable_load_extension(True)
    db.load_extension(ext)
    old, new = open(old_path).read(), open(new_path).read()
    plans = [r[0] for r in db.execute("SELECT name FROM plan ORDER BY id")]
    variants = [{}, {"direction": "reverse"}, {"band_lo": 0.98, "band_hi": 1.02, "level": 0.9}]
    n = diff = 0
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
    print("compared", n, "evaluations,", diff, "differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
