#!/usr/bin/env python3
"""catalogue.py STORE PG_DB: the functions each engine registers against the
one catalogue (src/fnshared/functions.json, read by tools/gen/functions.py).

SQLite: what benchdb registers on a connection (`benchdb sql` over
pragma_function_list: the functions a plain SQLite connection, Python's,
lacks), each by name and argument count, a window function for each
aggregate and a scalar for each scalar, deterministic as the catalogue
says; a function SQLite may have itself (a probe) only where the library
lacks it. PostgreSQL: the functions and aggregates of the extension's
schema, but the aggregates' support functions, each by name and argument
count, an aggregate or a function, IMMUTABLE when deterministic. Then the
functions of both engines are the same set on both. Prints what it
compared; exits 1 naming each difference.
"""
import json
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "gen"))
import functions  # noqa: E402

DETERMINISTIC = 0x800  # SQLITE_DETERMINISTIC


def expected(cat, engine, plain=None):
    """{(name, nargs): (kind, deterministic)} the catalogue gives engine."""
    out = {}
    for fn in cat["functions"]:
        if engine not in functions.engines(fn):
            continue
        probe = fn.get("sqlite", {}).get("probe") if engine == "sqlite" else None
        if probe and plain is not None:
            try:
                plain.execute(probe)
                continue  # the library has it: benchdb leaves it alone
            except sqlite3.OperationalError:
                pass
        for args in functions.overloads(fn) or [None]:
            out[(fn["name"], -1 if args is None else len(args))] = (fn["kind"], fn["deterministic"])
    return out


def sqlite_registered(bench, store):
    plain = sqlite3.connect(":memory:")
    builtin = {(n, a) for n, a in plain.execute("SELECT name, narg FROM pragma_function_list")}
    p = subprocess.run([bench, "--db", store, "sql", "--format", "json",
                        "SELECT name, narg, type, flags FROM pragma_function_list"], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("benchdb sql: %s" % p.stderr.strip())
    got = {}
    for r in json.loads(p.stdout):
        key = (r["name"], r["narg"])
        if key in builtin:
            continue
        kind = {"w": "aggregate", "a": "aggregate", "s": "scalar"}[r["type"]]
        got[key] = (kind, bool(r["flags"] & DETERMINISTIC), r["type"])
    return got, plain


PG_FUNCTIONS = """SELECT json_agg(DISTINCT jsonb_build_array(p.proname, p.pronargs, p.prokind, p.provolatile))
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'benchstats' AND NOT EXISTS (SELECT 1 FROM pg_aggregate a WHERE p.oid IN
  (a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggmtransfn,
   a.aggminvtransfn, a.aggmfinalfn))"""


def pg_registered(psql, db):
    p = subprocess.run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", PG_FUNCTIONS],
                       capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("psql: %s" % p.stderr.strip())
    got = {}
    for name, nargs, kind, volatile in json.loads(p.stdout or "[]") or []:
        got[(name, nargs)] = ({"a": "aggregate", "f": "scalar"}.get(kind, kind), volatile == "i")
    return got


def main():
    store, db = sys.argv[1], sys.argv[2]
    bench = os.environ["BENCHDB_BIN"]
    psql = os.environ.get("BENCHDB_PSQL", "psql")
    cat = functions.load()
    problems = []
    lite, plain = sqlite_registered(bench, store)
    pg = pg_registered(psql, db)
    for engine, got, want in (("SQLite", lite, expected(cat, "sqlite", plain)), ("PostgreSQL", pg, expected(cat, "postgresql"))):
        for key in sorted(set(want) - set(got)):
            problems.append("%s does not register %s/%d" % (engine, key[0], key[1]))
        for key in sorted(set(got) - set(want)):
            problems.append("%s registers %s/%d, which the catalogue does not have for it" % (engine, key[0], key[1]))
        for key in sorted(set(want) & set(got)):
            if got[key][:2] != want[key]:
                problems.append("%s: %s/%d is %s, the catalogue says %s" % (engine, key[0], key[1], got[key][:2], want[key]))
        if engine == "SQLite":
            for key, v in sorted(got.items()):
                if v[0] == "aggregate" and v[2] != "w":
                    problems.append("SQLite: the aggregate %s/%d is no window function" % key)
    both = {(fn["name"], n) for fn in cat["functions"] if len(functions.engines(fn)) == 2
            for n in [len(a) for a in functions.overloads(fn)]}
    lite_both = {k: v[:2] for k, v in lite.items() if k in both}
    pg_both = {k: v for k, v in pg.items() if k in both}
    if lite_both != pg_both:
        problems.append("the engines differ: SQLite alone %s, PostgreSQL alone %s"
                        % (sorted(set(lite_both.items()) - set(pg_both.items())),
                           sorted(set(pg_both.items()) - set(lite_both.items()))))
    for p in problems:
        print("FAIL: %s" % p, file=sys.stderr)
    print("compared %d functions of both engines (%d overloads), %d of SQLite alone, %d of PostgreSQL alone"
          % (len({n for n, _ in both}), len(both), len(set(lite) - both), len(set(pg) - both)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
