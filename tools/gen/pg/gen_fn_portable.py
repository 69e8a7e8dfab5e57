#!/usr/bin/python3
"""Writes tests/sql/fn_portable.sql: string_agg, least and greatest as
benchdb registers them on SQLite, against what PostgreSQL 15 returns for the
same queries. Each case is one query in the SQL both engines run; this
script runs it on a throwaway PostgreSQL 15 cluster (initdb in a temporary
directory, C locale so that text compares bytewise as SQLite's BINARY
collation does, a Unix socket only, stopped and removed at the end) and
records the text PostgreSQL prints, or NULL. The test then asks SQLite for
CAST(result AS TEXT) and compares. The test never needs PostgreSQL.

Run from the source root, as root or as a user that can run PostgreSQL:
  /usr/bin/python3 tools/gen/pg/gen_fn_portable.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")
OUT = Path(__file__).resolve().parents[3] / "tests" / "sql" / "fn_portable.sql"
NULL = "\x01NULL\x01"

V4 = "WITH v(i, x) AS (VALUES (1, 'a'), (2, NULL), (3, 'b'), (4, 'c'))"
W = ("WITH v(i, x, d) AS (VALUES (1, 'a', '-'), (2, 'b', '+'), (3, NULL, '/'), (4, 'c', NULL), "
     "(5, 'd', '*'), (6, '', ','), (7, 'e', ', '))")
CASES = [
    # string_agg: non-NULL values in arrival order, each after its own row's
    # delimiter; the first value's delimiter dropped.
    ("string_agg/basic", V4 + " SELECT string_agg(x, ',') FROM v"),
    ("string_agg/long-delimiter", V4 + " SELECT string_agg(x, ' <> ') FROM v"),
    ("string_agg/row-delimiters", W + " SELECT string_agg(x, d) FROM v"),
    ("string_agg/first-delimiter-dropped", W + " SELECT string_agg(x, d) FROM v WHERE i >= 2"),
    ("string_agg/null-delimiter", W + " SELECT string_agg(x, CAST(NULL AS TEXT)) FROM v"),
    ("string_agg/empty-delimiter", W + " SELECT string_agg(x, '') FROM v"),
    ("string_agg/empty-values", "WITH v(x) AS (VALUES (''), (''), ('x')) SELECT string_agg(x, ',') FROM v"),
    ("string_agg/one-empty", "WITH v(x) AS (VALUES ('')) SELECT string_agg(x, ',') FROM v"),
    ("string_agg/one", "WITH v(x) AS (VALUES ('solo')) SELECT string_agg(x, ',') FROM v"),
    ("string_agg/all-null", "WITH v(x) AS (VALUES (CAST(NULL AS TEXT)), (NULL)) SELECT string_agg(x, ',') FROM v"),
    ("string_agg/no-rows", "WITH v(x) AS (VALUES ('a')) SELECT string_agg(x, ',') FROM v WHERE x = 'b'"),
    ("string_agg/unicode", "WITH v(x) AS (VALUES ('é'), ('日本'), ('ß')) SELECT string_agg(x, ' · ') FROM v"),
    ("string_agg/numbers-as-text",
     "WITH v(i) AS (VALUES (3), (1), (2)) SELECT string_agg(CAST(i AS TEXT), '+') FROM v"),
    ("string_agg/group",
     "WITH v(g, x) AS (VALUES (1, 'a'), (2, 'p'), (1, 'b'), (2, 'q'), (3, NULL)) "
     "SELECT string_agg(CAST(g AS TEXT) || '=' || coalesce(s, 'NULL'), '; ') FROM "
     "(SELECT g, string_agg(x, ',') AS s FROM v GROUP BY g ORDER BY g) t"),
    ("string_agg/count-filter",
     V4 + " SELECT string_agg(x, ',') FILTER (WHERE i <> 3) FROM v"),
]
for i in range(1, 8):
    CASES.append(("string_agg/window-rows2/%d" % i,
                  W + " SELECT s FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND "
                  "CURRENT ROW) AS s FROM v) t WHERE i = %d" % i))
    CASES.append(("string_agg/window-growing/%d" % i,
                  W + " SELECT s FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i) AS s FROM v) t WHERE i = %d" % i))
    CASES.append(("string_agg/window-following/%d" % i,
                  W + " SELECT s FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND "
                  "1 FOLLOWING) AS s FROM v) t WHERE i = %d" % i))
CASES += [
    # least, greatest: NULLs ignored, NULL only when all are.
    ("least/ints", "SELECT least(3, 1, 2)"),
    ("greatest/ints", "SELECT greatest(3, 1, 2)"),
    ("least/one", "SELECT least(5)"),
    ("greatest/one", "SELECT greatest(-5)"),
    ("least/nulls", "SELECT least(NULL, 2, NULL, 1)"),
    ("greatest/nulls", "SELECT greatest(NULL, 2, NULL, 1)"),
    ("least/all-null", "SELECT least(NULL, NULL)"),
    ("greatest/all-null", "SELECT greatest(CAST(NULL AS INTEGER))"),
    ("least/mixed-numbers", "SELECT least(2, 1.5, 3)"),
    ("greatest/mixed-numbers", "SELECT greatest(2, 2.5, 1)"),
    ("least/negative", "SELECT least(-1, 0, -7, 4)"),
    ("greatest/negative", "SELECT greatest(-1, -0.5, -7)"),
    ("least/decimals", "SELECT least(0.1, 0.2, 0.15)"),
    ("greatest/real-first-of-equal", "SELECT greatest(1.0, 1)"),
    ("greatest/int-first-of-equal", "SELECT greatest(1, 1.0)"),
    ("least/text", "SELECT least('b', 'a', 'c')"),
    ("greatest/text", "SELECT greatest('b', 'a', 'c')"),
    ("least/text-bytewise", "SELECT least('a', 'B', 'b')"),
    ("greatest/text-bytewise", "SELECT greatest('a', 'B', 'Z')"),
    ("least/text-prefix", "SELECT least('abc', 'ab', 'abd')"),
    ("greatest/text-prefix", "SELECT greatest('abc', 'ab', 'abd')"),
    ("least/dates-as-text", "SELECT least('2024-01-02', '2023-12-31', NULL)"),
    ("greatest/text-null", "SELECT greatest(NULL, 'x')"),
    ("least/columns",
     "WITH v(i, a, b) AS (VALUES (1, 1, NULL), (2, NULL, 2), (3, 4, 3), (4, NULL, NULL)) "
     "SELECT string_agg(coalesce(CAST(least(a, b) AS TEXT), 'NULL'), ',') FROM v"),
    ("greatest/columns",
     "WITH v(i, a, b) AS (VALUES (1, 1, NULL), (2, NULL, 2), (3, 4, 3), (4, NULL, NULL)) "
     "SELECT string_agg(coalesce(CAST(greatest(a, b) AS TEXT), 'NULL'), ',') FROM v"),
    ("least/many", "SELECT least(9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"),
    ("greatest/nested", "SELECT greatest(least(3, 7), least(5, 2), 4)"),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def main():
    if not (PG_BIN / "initdb").exists():
        sys.exit("gen_fn_portable: PostgreSQL 15 is not installed (%s)" % PG_BIN)
    tmp = Path(tempfile.mkdtemp(prefix="benchdb-pg-"))
    as_user = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(tmp, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, sock = tmp / "data", tmp
    try:
        run(as_user + [str(PG_BIN / "initdb"), "-D", str(data), "--locale=C", "-E", "UTF8", "-A", "trust", "-U", "pg"])
        run(as_user + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-l", str(tmp / "log"), "-o",
                       "-k %s -c listen_addresses=''" % sock, "start"])
        try:
            version = run(as_user + [str(PG_BIN / "psql"), "-h", str(sock), "-U", "pg", "-d", "postgres", "-Atc",
                                     "SHOW server_version"]).stdout.strip()
            out = ["-- string_agg, least, greatest against PostgreSQL %s (C locale): the text PostgreSQL" % version,
                   "-- printed for each query, or NULL. SQLite runs the same query; see tools/gen/pg/gen_fn_portable.py.",
                   "-- GENERATED by tools/gen/pg/gen_fn_portable.py; do not edit by hand.", ""]
            for cid, sql in CASES:
                got = run(as_user + [str(PG_BIN / "psql"), "-h", str(sock), "-U", "pg", "-d", "postgres", "-X", "-A",
                                     "-t", "-P", "null=" + NULL, "-v", "ON_ERROR_STOP=1", "-c", sql]).stdout
                assert got.endswith("\n") and got.count("\n") == 1, (cid, got)
                got = got[:-1]
                want = "NULL" if got == NULL else "'" + got.replace("'", "''") + "'"
                out.append("SELECT '%s', CAST((%s) AS TEXT) IS %s;" % (cid, sql, want))
        finally:
            run(as_user + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-m", "fast", "stop"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    OUT.write_text("\n".join(out) + "\n")
    print("%s: %d cases" % (OUT, len(CASES)))


main()
