#!/usr/bin/env python3
"""dual.py SQLITE_DB PG_DB CASES.sql...: runs every case of the files on
SQLite (benchdb sql) and on PostgreSQL (psql, one session), and requires
identical rows (engines.py says what identical means) or, for a case
marked with error lines, that each engine fails with exactly that text.

A case file is SQL in the subset both engines run (docs/portable-sql.md),
one statement per case, each after a header:
  -- case: NAME
  -- error: TEXT            both engines fail with TEXT
  -- error-sqlite: TEXT     SQLite fails with TEXT (where the engines print
  -- error-pg: TEXT         the offending value differently: 0.0 / 0, Inf /
                            Infinity) and PostgreSQL with this one
  -- pg-setup: SQL          run on PostgreSQL before the case (SET ...)
Prints one line per case and a summary; exits 1 on any failure.
"""
import re
import sys

import engines


def parse(path):
    cases, cur = [], None
    for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
        m = re.match(r"-- (case|error|error-sqlite|error-pg): (.*)$", line.rstrip("\n"))
        if m and m.group(1) == "case":
            cur = {"name": m.group(2), "sql": [], "line": lineno, "error-sqlite": None, "error-pg": None,
                   "file": path}
            cases.append(cur)
        elif m and cur is not None and not cur["sql"]:
            if m.group(1) == "error":
                cur["error-sqlite"] = cur["error-pg"] = m.group(2)
            else:
                cur[m.group(1)] = m.group(2)
        elif cur is not None and not cur.get("done") and (cur["sql"] or line.strip() and not line.startswith("--")):
            cur["sql"].append(line)
            cur["done"] = line.rstrip().endswith(";")
    for c in cases:
        c["sql"] = "".join(c["sql"]).strip()
        if not c["sql"]:
            raise SystemExit("%s:%d: case %s has no SQL" % (path, c["line"], c["name"]))
    return cases


def main():
    bench = engines.tool("BENCHDB_BIN")
    psql = engines.tool("BENCHDB_PSQL")
    sqlite_db, pg_db = sys.argv[1], sys.argv[2]
    cases = [c for path in sys.argv[3:] for c in parse(path)]
    pg = engines.run_psql_batch(psql, pg_db, [c["sql"] for c in cases])
    failures = 0
    for c, (types, prows, perr) in zip(cases, pg):
        srows, serr = engines.run_benchdb(bench, sqlite_db, ["sql", c["sql"]])
        problems = []
        if c["error-sqlite"] is not None or c["error-pg"] is not None:
            if serr != c["error-sqlite"]:
                problems.append("SQLite: %s, expected error: %s" % ("error: " + serr if serr else "no error",
                                                                     c["error-sqlite"]))
            if perr != c["error-pg"]:
                problems.append("PostgreSQL: %s, expected error: %s" % ("error: " + perr if perr else "no error",
                                                                         c["error-pg"]))
        elif serr or perr:
            if serr:
                problems.append("SQLite failed: " + serr)
            if perr:
                problems.append("PostgreSQL failed: " + perr)
        else:
            diff = engines.compare_rows(srows, types, prows)
            if diff:
                problems.append(diff)
        where = "%s:%d" % (c["file"].rsplit("/", 1)[-1], c["line"])
        if problems:
            failures += 1
            print("FAIL %s (%s)" % (c["name"], where))
            for p in problems:
                print("  " + p)
        else:
            print("ok   %s" % c["name"])
    print("%d cases, %d identical on both engines, %d failed" % (len(cases), len(cases) - failures, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
