#!/usr/bin/env python3
"""queries.py SQLITE_DB PG_DB LIST: every saved query of the list run on
both engines over the same data (store.py copied it): on SQLite by
`benchdb query NAME --no-record --format json`, on PostgreSQL as
src/query/pg_sql.c writes it (tests/pg/pg_query_sql, parameters as typed
literals) through psql. A query marked `same` must give identical rows
(engines.py: every number bit for bit) and some rows; one marked
`pending` is run and its status reported (the error PostgreSQL gives, or
the first difference) without failing the test. Every query shipped in
queries/ must be on the list. Prints one line per query."""
import os
import subprocess
import sys

import engines


def main():
    bench = engines.tool("BENCHDB_BIN")
    psql = engines.tool("BENCHDB_PSQL")
    translate = engines.tool("BENCHDB_PG_QUERY_SQL")
    src = engines.tool("BENCHDB_SRC")
    sqlite_db, pg_db, list_path = sys.argv[1:4]
    runs = []
    for lineno, line in enumerate(open(list_path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        status, name, *params = line.split()
        if status not in ("same", "pending"):
            raise SystemExit("%s:%d: status %r is neither same nor pending" % (list_path, lineno, status))
        runs.append((status, name, params))
    shipped = sorted(f[:-4] for f in os.listdir(os.path.join(src, "queries")) if f.endswith(".sql"))
    missing = [q for q in shipped if q not in {n for _, n, _ in runs}]
    failures = 0
    for q in missing:
        failures += 1
        print("FAIL %s: shipped in queries/ but not on %s" % (q, os.path.basename(list_path)))
    statements = []
    for status, name, params in runs:
        p = subprocess.run([translate, name] + params, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit("pg_query_sql %s: %s" % (name, p.stderr.strip()))
        statements.append(p.stdout)
    pg = engines.run_psql_batch(psql, pg_db, statements)
    counts = {"same": 0, "pending": 0}
    for (status, name, params), (types, prows, perr) in zip(runs, pg):
        args = ["query", name, "--no-record"]
        for p in params:
            args += ["--param", p]
        srows, serr = engines.run_benchdb(bench, sqlite_db, args)
        what = " ".join([name] + params)
        if serr:
            problem = "SQLite failed: " + serr
        elif perr:
            problem = "PostgreSQL: error: " + perr
        else:
            problem = engines.compare_rows(srows, types, prows)
            if not problem and not srows:
                problem = "no rows on either engine: nothing compared"
        if problem and status == "same":
            failures += 1
            print("FAIL %s: %s" % (what, problem))
        elif problem:
            print("pending %s: %s" % (what, problem))
        else:
            counts[status] += 1
            note = "  (identical now: mark it same)" if status == "pending" else ""
            print("same %s: %d identical rows%s" % (what, len(srows), note))
    print("%d runs: %d identical as required, %d pending of which %d identical; %d failed"
          % (len(runs), counts["same"], sum(1 for r in runs if r[0] == "pending"), counts["pending"], failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
