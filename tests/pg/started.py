#!/usr/bin/env python3
"""started.py PG_DB: the start times of history points (history_point_data.
started) as PostgreSQL's trigger computes them (history_started, schema/
postgresql.sql) against SQLite's strftime in the same expression
(schema/schema.sql), for RFC 3339 times of every shape ingest accepts
(offsets up to 23:59 (SQLite reads at most 14 hours), fractions of 0 to 12
digits, lower case, leap seconds, the first and last days of months,
years 0000 and 9999), a few other strings SQLite reads (a date alone,
spaces, HH:MM) and some it does not: 5,000 random ones and the edge cases,
and 1,000 of the form benchdb itself writes (UTC, 'T' and 'Z', 0 to 3
digits of a second), which history_started() prints without calling
benchdb_started(), each required to give the same text (or NULL) on both. The forms SQLite
reads that are not RFC 3339 date-times at all (a time alone, a Julian day
number, 'now'), which benchdb never stores, are NULL on PostgreSQL."""
import random
import sqlite3
import subprocess
import sys

import engines

EXPR = ("strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(s, 18, 2) = '60' "
        "THEN upper(substr(s, 1, 17) || '59' || substr(s, 20)) ELSE upper(s) END)")

EDGES = [
    "2026-10-21T03:57:00Z", "2026-10-21t03:57:00z", "2026-01-01T00:00:00.0005Z", "2026-01-01T00:00:00.0004999Z",
    "2026-01-01T00:00:59.9999Z", "2026-01-01T00:00:59.9995Z", "2026-01-01T23:59:59.9996+01:00",
    "2026-01-01T23:59:59.9995-01:00", "2026-01-01T00:00:00+14:00", "2026-01-01T00:00:00+15:00",
    "2026-01-01T00:00:00-14:59", "2026-01-01T00:00:00.123456789123456789Z", "2026-01-01T00:00:00.9995-00:00", "2026-02-31T00:00:00Z",
    "2024-02-29T12:00:00+05:30", "2023-12-31T23:59:60Z", "2023-12-31T23:59:60.5+01:00", "0000-01-01T00:00:00Z",
    "0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999-14:00",
    "2026-01-01 00:00", "2026-01-01", "2026-01-01T", " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z ",
    "2026-01-01T24:00:00Z", "2026-01-01T24:00:00+01:00", "2026-01-01TT00:00:00Z", "2026-01-01T00:00:00.Z",
    "2026-01-01T00:00:00 Z", "2026-01-01T00:00Z", "2026-01-01T00:00:00.1", "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T25:00:00Z", "2026-01-01T00:60:00Z",
    "20260-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "", "garbage", "2026-01-01T00:00:00+1:00",
    "2026-06-15T12:34:56.789+02:00", "2026-06-15T12:34:56.0625Z", "2026-06-15T12:34:56.1235Z",
    "2026-06-15T12:34:56.9999999999+00:00", "2026-06-15T12:34:56.5-00:00", "1970-01-01T00:00:00Z",
    "1900-02-28T23:00:00-02:00", "2000-02-29T23:30:00-01:00", "2100-03-01T00:30:00+01:00",
    "2026-04-31T23:59:59.1Z", "2026-01-01T00:00:00.12Z", "2026-01-01T00:00:00.000Z", "9999-12-31T23:59:59Z",
    "2026-01-01T00:00:00.1234Z", "2026-01-01T23:59:60.1Z", "2026-01-01T24:00:00.000Z",
]


NOT_RFC = ["12:30", "12:30:45.5", "now", "2460000.5", " 2460000 "]


def random_time(rng):
    y = rng.choice([rng.randint(0, 9999), rng.randint(1990, 2040)])
    mo = rng.randint(1, 12)
    d = rng.randint(1, 31 if rng.random() < 0.2 else 28)
    s = "%04d-%02d-%02d%s%02d:%02d:%02d" % (y, mo, d, rng.choice("Tt"), rng.randint(0, 23), rng.randint(0, 59),
                                           rng.choice([rng.randint(0, 59), 60]))
    if rng.random() < 0.6:
        k = rng.randint(1, 12)
        digits = "".join(rng.choice("0123456789") for _ in range(k))
        if rng.random() < 0.2:
            digits = digits[:3] + "5" + "0" * rng.randint(0, 3)
        s += "." + digits
    r = rng.random()
    if r < 0.3:
        s += rng.choice("Zz")
    else:
        s += "%s%02d:%02d" % (rng.choice("+-"), rng.randint(0, 23 if rng.random() < 0.1 else 14), rng.randint(0, 59))
    return s


def bench_form(rng):
    """A start time as benchdb writes one: history_started()'s own path."""
    s = "%04d-%02d-%02dT%02d:%02d:%02d" % (rng.choice([rng.randint(0, 9999), rng.randint(1990, 2040)]),
                                          rng.randint(1, 12), rng.randint(1, 31), rng.randint(0, 23),
                                          rng.randint(0, 59), rng.randint(0, 59))
    k = rng.randint(0, 3)
    return s + ("." + "".join(rng.choice("0123456789") for _ in range(k)) if k else "") + "Z"


def main():
    psql = engines.tool("BENCHDB_PSQL")
    rng = random.Random(19)
    times = EDGES + [random_time(rng) for _ in range(5000)] + [bench_form(rng) for _ in range(1000)] + NOT_RFC
    lite = sqlite3.connect(":memory:")
    want = [lite.execute("WITH v(s) AS (SELECT ?) SELECT " + EXPR + " FROM v", (t,)).fetchone()[0] for t in times]
    for t in NOT_RFC:
        if want[times.index(t)] is None:
            raise SystemExit("SQLite reads %r as no date (it reads it)" % t)
        want[times.index(t)] = None
    script = "\\pset format unaligned\n\\pset tuples_only on\n\\pset null '<NULL>'\n"
    script += "COPY (SELECT history_started(s) FROM unnest(%s) WITH ORDINALITY AS v(s, i) ORDER BY i) TO STDOUT;\n" % (
        "ARRAY[" + ",".join("'" + t.replace("'", "''") + "'" for t in times) + "]::text[]")
    p = subprocess.run(engines.psql_cmd(psql, sys.argv[1]), input=script, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        raise SystemExit("psql failed: " + p.stderr)
    got = [None if line == "\\N" else line for line in p.stdout.rstrip("\n").split("\n")]
    if len(got) != len(times):
        raise SystemExit("%d results for %d times" % (len(got), len(times)))
    bad = [(t, w, g) for t, w, g in zip(times, want, got) if w != g]
    for t, w, g in bad[:20]:
        print("FAIL %r: SQLite %r, PostgreSQL %r" % (t, w, g))
    nulls = sum(1 for w in want if w is None)
    print("%d start times (%d NULL on SQLite), %d differ" % (len(times), nulls, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
