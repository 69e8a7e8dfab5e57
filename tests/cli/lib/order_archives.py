#!/usr/bin/env python3
"""order_archives.py DIR: archives whose history points' totals depend on
the order their series are added (tests cli/history_defer, pg/history_defer).

Each point (run, cell, variant, metric) has several series, mostly one
value each (so a series' total is its value), among 1e16, 1, -3 (in a
further metric) and small fractions: added left to right in the order the
series are stored, as the trigger series_insert_history adds them
(docs/schema.md, history_point_data), 1e16 + 1 rounds back to 1e16, so
each order gives its own total, and a compensated sum (SQLite >= 3.43's
sum) or a sum in the series' key order gives another. One point cancels
(1, 1e16, -1e16: 0 in storage order, 1 in its series' key order and
correctly rounded), which `benchdb
check`, comparing a point with the engine's sum() within rounding, must
accept: its bound is relative to the series' magnitudes, not to the
total (src/store/check_summaries.c). The records of
the points are interleaved, and their blocks and forks out of order, so
that neither the series' key nor a point's contiguity gives the order.
a1 and a2 open runs (the ingest keeps their points: migration 0012); a3
appends to a1's run (archive_id set: the trigger keeps those series,
after a1's); a4 opens a run on another host, its start in lower case
with an offset, a series of two values.

    order_archives.py DIR          writes DIR/a1.jsonl ... DIR/a4.jsonl
    order_archives.py --check DB   compares DB's history_point_data (a
                                   SQLite store holding them) with the points
                                   expected: exit 1 naming each difference

The expected points are summed here left to right in the archives' order
(Python's floats are IEEE doubles and + rounds each addition) and compared
bit for bit (the doubles' bytes), with their series and value counts and
units; their hosts, start times and positions are the runs' (run_update_
history's and the rebuild's expression is compared by the tests).
"""
import json
import math
import os
import sqlite3
import struct
import sys

B, ONE = 1e16, 1.0
D = "delta"  # a further metric: its values may be negative
# (benchmark, block, fork, variant, metric or None, unit, values) per run,
# in the order written after its run record. A primary metric's values
# are positive: B + 1 + 1 is B, 1 + 1 + B is B + 2.
RUNS = {
    "a1": ({"plan": "ord", "run": "o1", "host": "h1", "started_at": "2026-03-01T03:00:00.5+02:00", "position": 2},
           [("c1", 1, 0, "v", None, "ns", [B]), ("c2", 1, 0, "v", None, "ns", [ONE]),
            ("c3", 1, 0, "v", None, "ns", [ONE]), ("c1", 1, 1, "v", None, "ns", [ONE]),
            ("c4", 2, 0, "v", None, "ns", [ONE]), ("c2", 2, 0, "v", None, "ns", [ONE]),
            ("c3", 1, 1, "v", None, "ns", [B]), ("c1", 2, 0, "v", None, "ns", [ONE]),
            ("c4", 1, 0, "v", None, "ns", [ONE]), ("c2", 2, 1, "v", None, "ns", [B]),
            ("c3", 2, 0, "v", None, "ns", [ONE]), ("c4", 1, 1, "v", None, "ns", [ONE]),
            ("c4", 2, 1, "v", None, "ns", [B]), ("c1", 1, 0, "w", None, "ns", [ONE]),
            ("c1", 1, 1, "w", None, "ns", [B]), ("c1", 2, 0, "w", None, "ns", [ONE]),
            ("c1", 1, 0, "v", D, "B/op", [B]), ("c1", 1, 1, "v", D, "B/op", [ONE]),
            ("c1", 2, 0, "v", D, "B/op", [-3.0]), ("c1", 2, 1, "v", D, "B/op", [0.3]),
            ("c2", 1, 0, "v", D, "B/op", [ONE]), ("c2", 2, 1, "v", D, "B/op", [B]),
            ("c2", 2, 0, "v", D, "B/op", [ONE])]),
    "a2": ({"plan": "ord", "run": "o2", "host": "h1", "started_at": "2026-02-28T23:59:60Z", "position": 1},
           [("c1", 2, 1, "v", None, "ns", [ONE]), ("c1", 2, 0, "v", None, "ns", [B]),
            ("c1", 1, 1, "v", None, "ns", [ONE]), ("c2", 3, 0, "v", None, "ns", [0.1]),
            ("c2", 1, 0, "v", None, "ns", [0.2]), ("c2", 2, 0, "v", None, "ns", [0.3]),
            ("c2", 4, 0, "v", None, "ns", [0.7]), ("c7", 2, 0, "v", D, "B/op", [ONE]),
            ("c7", 1, 0, "v", D, "B/op", [B]), ("c7", 1, 1, "v", D, "B/op", [-B])]),
    "a3": ({"plan": "ord", "run": "o1", "host": "h1", "append": True},
           [("c2", 3, 0, "v", None, "ns", [ONE]), ("c2", 3, 1, "v", None, "ns", [ONE]),
            ("c6", 1, 0, "v", None, "ns", [ONE]), ("c6", 1, 1, "v", None, "ns", [ONE]),
            ("c6", 2, 0, "v", None, "ns", [B]), ("c1", 3, 0, "v", D, "B/op", [ONE])]),
    "a4": ({"plan": "ord2", "run": "o3", "host": "h2", "started_at": "2026-03-02t10:00:00.25-01:30"},
           [("c1", 1, 0, "v", None, "ns", [0.1, 0.2]), ("c1", 1, 1, "v", None, "ns", [B]),
            ("c1", 2, 0, "v", None, "ns", [0.7]), ("c1", 2, 1, "v", None, "ns", [ONE])]),
}


def expected():
    """(run, benchmark, variant, metric) -> (series, n, total, unit)."""
    points = {}
    for run, recs in RUNS.values():
        for bench, _block, _fork, variant, metric, unit, values in recs:
            key = (run["run"], bench, variant, metric or "primary")
            total = 0.0  # a series' total: its values' sum (one rounding at most here)
            for v in values:
                total += v
            s, n, t, u = points.get(key, (0, 0, None, unit))
            points[key] = (s + 1, n + len(values), total if t is None else t + total, u)
    return points


def values(key):
    """Every value of a point's series (for a correctly rounded sum)."""
    return [v for run, recs in RUNS.values() for bench, _b, _f, variant, metric, _u, vs in recs for v in vs
            if (run["run"], bench, variant, metric or "primary") == key]


def write(out):
    os.makedirs(out, exist_ok=True)
    for name, (run, recs) in RUNS.items():
        with open(os.path.join(out, name + ".jsonl"), "w") as f:
            f.write(json.dumps(dict(record="run", format="benchdb-run/1", **run)) + "\n")
            for bench, block, fork, variant, metric, unit, values in recs:
                r = dict(record="samples", benchmark=bench, block=block, fork=fork, variant=variant, unit=unit,
                         values=values)
                if metric:
                    r["metric"] = metric
                f.write(json.dumps(r) + "\n")


def check(db):
    want = expected()
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    got = {(r, b, v, m): (s, n, t, u) for r, b, v, m, s, n, t, u in con.execute(
        "SELECT r.name, b.name, v.name, h.metric, h.series, h.n, h.total, h.unit FROM history_point_data h "
        "JOIN run r ON r.id = h.run_id JOIN benchmark b ON b.id = h.benchmark_id "
        "JOIN variant v ON v.id = h.variant_id")}
    bad = 0
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key), got.get(key)
        same = w and g and w[0] == g[0] and w[1] == g[1] and w[3] == g[3] and isinstance(g[2], float) and \
            struct.pack("<d", w[2]) == struct.pack("<d", g[2])
        if not same:
            bad += 1
            print("point %s: stored %r, expected %r" % ("/".join(key), g, w), file=sys.stderr)
    # The orders do matter: a compensated (or any other order's) sum would
    # differ at these points.
    if sum(1 for key, (_s, _n, t, _u) in want.items() if t != math.fsum(values(key))) < 5:
        print("the expected points lost their order-dependent totals", file=sys.stderr)
        bad += 1
    print("%d points, %d differ" % (len(want), bad))
    return 1 if bad else 0


def main():
    if sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    write(sys.argv[1])


if __name__ == "__main__":
    main()
